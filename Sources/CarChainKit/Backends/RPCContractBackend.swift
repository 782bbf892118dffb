import CarChain
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions

/// The CarChain binding's backend over JSON-RPC: calls are `eth_call`, transactions go through a
/// ``TransactionSender`` (chain id checked, gas estimated, fees, nonce, receipt). A failed transaction's
/// revert data is recovered by replaying it (``TransactionSender/revertReason(of:)``).
public struct RPCContractBackend: ContractBackend {
    /// The node.
    public let client: RPCClient
    /// Nil for read-only sessions: `send` then fails.
    public let sender: TransactionSender?

    public init(client: RPCClient, sender: TransactionSender?) {
        self.client = client
        self.sender = sender
    }

    public func call(to: Address, data: [UInt8], from: Address?) async throws -> CallOutcome {
        do {
            return .returned(try await client.call(CallRequest(from: from ?? sender?.address, to: to, data: data)))
        } catch {
            if case .reverted(let revert) = error { return .reverted(revert.data) }
            throw error
        }
    }

    public func send(to: Address?, data: [UInt8], value: UInt256, from: Address?) async throws -> TransactionOutcome {
        guard let sender else { throw AppError.failed("this command has no signer") }
        if let from, from != sender.address {
            throw AppError.failed("cannot send from \(from): the signer is \(sender.address)")
        }
        let mined = try await sender.sendAndWait(TransactionRequest(to: to, data: data, value: value))
        return await Self.outcome(of: mined, sender: sender)
    }

    /// The binding's outcome of a mined transaction; a failed one's revert data is recovered by replaying it.
    public static func outcome(of mined: MinedTransaction, sender: TransactionSender) async -> TransactionOutcome {
        let revertData = mined.succeeded ? nil : await sender.revertReason(of: mined)?.data
        return TransactionOutcome(
            succeeded: mined.succeeded,
            transactionHash: mined.hash,
            blockNumber: mined.blockNumber,
            gasUsed: mined.gasUsed,
            effectiveGasPrice: mined.receipt.effectiveGasPrice ?? (mined.sent.signed.transaction.gasPrice ?? .zero),
            logs: mined.receipt.logs.map { TransactionLog(address: $0.address, topics: $0.topics, data: $0.data) },
            revertData: revertData,
            contractAddress: mined.contractAddress
        )
    }
}
