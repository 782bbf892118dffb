import CarChain
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire

/// A ``ContractBackend`` that sends as any address without its key: the node impersonates the sender
/// (`anvil_impersonateAccount`) and fills the transaction (`eth_sendTransaction`: nonce, gas by estimate, fees).
/// Only for a chain that is this process's own — the in-process fork of a rehearsal (``ForkRehearsal``) — where
/// nothing reaches a real network: it is how a rehearsal acts as the contract's manager or a user whose key this
/// machine does not hold.
public struct ImpersonatingBackend: RPCReadingBackend {
    /// The in-process node.
    public let client: RPCClient
    /// The sender when a call or transaction names none.
    public let sender: Address
    /// Gas limit and fees, when given (`--gas-limit`, `--gas-price`, `--max-fee`, `--priority-fee`, `--tx-type`); the
    /// node fills the others.
    public let settings: SendSettings
    /// The transaction type a real send would use (``FeeMode/defaultMode(chainID:)`` unless the settings name one):
    /// 0 for legacy, 2 for EIP-1559, nil to let the node choose.
    let type: UInt8?

    public init(client: RPCClient, sender: Address, settings: SendSettings, chainID: UInt64) {
        self.client = client
        self.sender = sender
        self.settings = settings
        switch settings.feeMode ?? FeeMode.defaultMode(chainID: chainID) {
        case .legacy: type = 0
        case .eip1559: type = 2
        case .auto: type = nil
        }
    }

    public var defaultSender: Address? { sender }

    public func send(_ transaction: TransactionRequest, from: Address?) async throws -> TransactionOutcome {
        let from = from ?? sender
        _ = try await client.request("anvil_impersonateAccount", [.string(from.lowercasedHex)])
        let request = CallRequest(
            from: from, to: transaction.to, gas: transaction.gasLimit ?? settings.gasLimit, gasPrice: settings.gasPrice,
            maxFeePerGas: settings.maxFeePerGas, maxPriorityFeePerGas: settings.maxPriorityFeePerGas, value: transaction.value,
            data: transaction.data, type: type)
        let hash = try await client.request("eth_sendTransaction", [request.json]).wireBytes32("transaction hash")
        guard let receipt = try await client.receipt(hash) else {
            throw AppError.failed("the fork did not mine transaction \(hash) (its node mines each transaction at once)")
        }
        var revertData: [UInt8]?
        if !receipt.succeeded {
            // The fork's node replays the transaction: its return value is the revert data.
            let trace = try? await client.request("debug_traceTransaction", [.string(hash.hexString), .object([("disableStack", .bool(true))])])
            revertData = trace?["returnValue"]?.stringValue.flatMap { try? Hex.decode($0) }
        }
        return TransactionOutcome(
            succeeded: receipt.succeeded, transactionHash: hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed,
            effectiveGasPrice: receipt.effectiveGasPrice ?? .zero,
            logs: receipt.logs.map { TransactionLog(address: $0.address, topics: $0.topics, data: $0.data) },
            revertData: revertData, contractAddress: receipt.contractAddress)
    }
}
