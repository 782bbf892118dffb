import CarChain
import Chain
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions

/// A ``ContractBackend`` on an in-process ``DevChain``: calls run on the chain's latest state, and
/// transactions are signed here (with the chain's dev keys or keys given at creation) as legacy EIP-155
/// transactions with a fixed gas limit, submitted, and read back from their receipts.
///
/// A fixed gas limit (rather than an estimate) lets a transaction that will revert be sent and mined as
/// any client would send it, so its gas shows in a report; it matches the seed's replay set-up (6,700,000
/// for a deployment, 210,000 per call). A reverted transaction's revert data is recovered by re-executing
/// it (``DevChain/trace(transaction:)``), which the in-process chain can always do.
public struct DevChainBackend: ContractBackend {
    /// The chain transactions go to.
    public let chain: DevChain
    /// The sender when a call or transaction names none.
    public let defaultSender: Address
    /// The gas limit of a contract creation.
    public var deploymentGasLimit: UInt64
    /// The gas limit of every other transaction.
    public var callGasLimit: UInt64
    /// The legacy gas price; nil takes the chain's suggestion (``DevChain/gasPrice()``) at each send.
    public var gasPrice: UInt256?
    private let keys: [Address: PrivateKey]

    /// The gas limit of a deployment in the seed's replay set-up.
    public static let defaultDeploymentGasLimit: UInt64 = 6_700_000
    /// The gas limit of a call in the seed's replay set-up.
    public static let defaultCallGasLimit: UInt64 = 210_000

    /// A backend signing for the chain's dev accounts and for `keys`; `defaultSender` defaults to the
    /// first of `keys`, else the chain's first dev account.
    public init(
        chain: DevChain, keys: [PrivateKey] = [], defaultSender: Address? = nil,
        deploymentGasLimit: UInt64 = DevChainBackend.defaultDeploymentGasLimit,
        callGasLimit: UInt64 = DevChainBackend.defaultCallGasLimit, gasPrice: UInt256? = nil
    ) throws(DevChainBackendError) {
        var known: [Address: PrivateKey] = [:]
        for account in chain.config.devAccounts { if let key = account.privateKey { known[account.address] = key } }
        for key in keys { known[key.address] = key }
        guard let sender = defaultSender ?? keys.first?.address ?? chain.accounts.first else {
            throw .noSender
        }
        guard known[sender] != nil else { throw .unknownSender(sender) }
        self.chain = chain
        self.keys = known
        self.defaultSender = sender
        self.deploymentGasLimit = deploymentGasLimit
        self.callGasLimit = callGasLimit
        self.gasPrice = gasPrice
    }

    /// True when the backend can sign for `address`.
    public func canSign(for address: Address) -> Bool { keys[address] != nil }

    public func call(to: Address, data: [UInt8], from: Address?) async throws -> CallOutcome {
        let result: CallResult
        do {
            result = try await chain.call(CallRequest(from: from ?? defaultSender, to: to, data: data))
        } catch {
            throw DevChainBackendError.chain(error)
        }
        return result.isSuccess ? .returned(result.output) : .reverted(result.output)
    }

    public func send(to: Address?, data: [UInt8], value: UInt256, from: Address?) async throws -> CarChain.TransactionOutcome {
        let sender = from ?? defaultSender
        guard let key = keys[sender] else { throw DevChainBackendError.unknownSender(sender) }
        let hash: Bytes32
        let receipt: Receipt
        do {
            let nonce = try await chain.nonce(sender, at: .pending)
            let price: UInt256
            if let gasPrice { price = gasPrice } else { price = await chain.gasPrice() }
            let transaction = Transaction.legacy(
                LegacyTransaction(
                    nonce: nonce, gasPrice: price, gasLimit: to == nil ? deploymentGasLimit : callGasLimit, to: to,
                    value: value, data: data, chainId: chain.chainId))
            hash = try await chain.sendRawTransaction(transaction.sign(with: key).encoded)
            receipt = try await minedReceipt(hash)
        } catch let error as DevChainBackendError {
            throw error
        } catch let error as ChainError {
            throw DevChainBackendError.chain(error)
        }
        var revertData: [UInt8]?
        if !receipt.status {
            do { revertData = try await chain.trace(transaction: hash).returnValue } catch { revertData = nil }
        }
        return CarChain.TransactionOutcome(
            succeeded: receipt.status, transactionHash: hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed,
            effectiveGasPrice: receipt.effectiveGasPrice,
            logs: receipt.logs.map { TransactionLog(address: $0.address, topics: $0.topics, data: $0.data) },
            revertData: revertData, contractAddress: receipt.status ? receipt.contractAddress : nil)
    }

    /// The receipt of `hash`, waiting (up to about 60 s) while the chain mines on an interval.
    private func minedReceipt(_ hash: Bytes32) async throws -> Receipt {
        for _ in 0..<6000 {
            if let receipt = try await chain.receipt(hash: hash) { return receipt }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DevChainBackendError.notMined(hash)
    }
}

/// Why a ``DevChainBackend`` could not call or send.
public enum DevChainBackendError: Error, Sendable, CustomStringConvertible {
    /// No key was given and the chain has no dev account to send from.
    case noSender
    /// The backend holds no key for this sender.
    case unknownSender(Address)
    /// The transaction was accepted but no block included it in time.
    case notMined(Bytes32)
    /// The chain refused the call or transaction.
    case chain(ChainError)

    public var description: String {
        switch self {
        case .noSender: return "the dev chain backend has no account to send from"
        case .unknownSender(let address): return "the dev chain backend holds no key for \(address.checksummed)"
        case .notMined(let hash): return "transaction \(hash) was not mined within 60 s"
        case .chain(let error): return "dev chain: \(error)"
        }
    }
}
