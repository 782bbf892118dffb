import CarChain
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions

/// A CarChain transaction the contract would refuse, found before anything was sent: by the checks on the
/// contract's views (``CarChainPrecheck``) or by the node's gas estimate. `reason` is the contract's own reason
/// (contracts/README.md, RULES), e.g. `car already rented`.
public struct CarChainRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the refusal was found.
    public enum Stage: Sendable, Equatable {
        /// The checks on the contract's views.
        case precheck
        /// `eth_estimateGas` reverted.
        case estimate
    }

    /// The contract function, e.g. `rentCar`.
    public var function: String
    /// The contract's reason.
    public var reason: String
    public var stage: Stage

    public init(function: String, reason: String, stage: Stage) {
        self.function = function
        self.reason = reason
        self.stage = stage
    }

    /// The CLI's line: `car already rented (checked before sending; nothing was sent)`.
    public var description: String {
        switch stage {
        case .precheck: return "\(reason) (checked before sending; nothing was sent)"
        case .estimate: return "\(function) would revert: \(reason) (found by eth_estimateGas; nothing was sent)"
        }
    }
}

/// Runs one CarChain transaction: find the contract, run the checks that can refuse without gas, send, and
/// return the mined result. A refusal found before sending, or by the gas estimate, is a ``CarChainRefusal``
/// (nothing was sent). ``prepare(_:session:from:)`` stops before signing, for a wallet that sends it itself.
public enum CarChainTransactionRunner {
    /// Checks (unless `precheck` is false) and sends `operation` from the session's signer.
    public static func execute(_ operation: CarChainOperation, session: ChainSession, precheck: Bool = true) async throws -> CarChainTransaction {
        let contract = try await session.contract()
        guard let sender = session.sender else { throw AppError.failed("no signer") }
        if precheck { try await check(operation, contract: contract, sender: sender.address) }
        do {
            return try await contract.execute(operation, from: sender.address)
        } catch let error as SendError {
            if let revert = error.revert {
                throw CarChainRefusal(function: operation.functionName, reason: reason(revert.data), stage: .estimate)
            }
            throw error
        }
    }

    /// Throws ``CarChainRefusal`` when the checks on the contract's views say `sender` would be refused.
    public static func check(_ operation: CarChainOperation, contract: CarChainContract, sender: Address) async throws {
        let check = await CarChainPrecheck.make(contract: contract, sender: sender)
        if let reason = try await check.refusal(of: operation) {
            throw CarChainRefusal(function: operation.functionName, reason: reason, stage: .precheck)
        }
    }

    /// A transaction checked and estimated but not signed: what an EIP-1193 wallet is asked to send.
    public struct Prepared: Sendable {
        public var operation: CarChainOperation
        public var from: Address
        public var to: Address
        public var data: [UInt8]
        /// The node's estimate.
        public var estimatedGas: UInt64
        /// The gas limit to send with: the estimate with the sender's margin (× 1.2).
        public var gasLimit: UInt64
        /// The node's gas price (`eth_gasPrice`), what the fee estimate uses.
        public var gasPrice: UInt256
        public var chainID: UInt64
    }

    /// Runs the checks and the gas estimate of `operation` from `from` (no key needed) and returns the transaction
    /// to send, with its gas figures. Refusals are ``CarChainRefusal``s, as in ``execute(_:session:precheck:)``.
    public static func prepare(_ operation: CarChainOperation, session: ChainSession, from: Address) async throws -> Prepared {
        let contract = try await session.contract()
        try await check(operation, contract: contract, sender: from)
        let estimate: UInt64
        do {
            estimate = try await session.client.estimateGas(CallRequest(from: from, to: contract.address, data: operation.calldata))
        } catch {
            if case .reverted(let revert) = error {
                throw CarChainRefusal(function: operation.functionName, reason: reason(revert.data), stage: .estimate)
            }
            throw error
        }
        // The sender's margin (SendSettings' default), kept below the EVM's signed 64-bit gas counter.
        let (margin, overflow) = estimate.addingReportingOverflow(estimate / 5)
        let gasLimit = overflow || margin > UInt64(Int64.max) ? UInt64(Int64.max) : margin
        return Prepared(
            operation: operation, from: from, to: contract.address, data: operation.calldata, estimatedGas: estimate,
            gasLimit: gasLimit, gasPrice: try await session.client.gasPrice(), chainID: session.chainID)
    }

    /// A revert's reason as a person reads it.
    public static func reason(_ data: [UInt8]) -> String {
        switch CarChainError(revertData: data) {
        case .reverted(let reason): return reason
        case .revertedWithoutReason: return "no reason given"
        case let other: return other.description
        }
    }
}

extension CarChainTransactionRunner {
    /// A transaction someone else signed and sent (an EIP-1193 wallet, after ``prepare(_:session:from:)``), followed
    /// by its hash: nil while it is pending, else its outcome with the revert data of a failure (replayed on the
    /// state before its block).
    public static func outcome(of hash: Bytes32, session: ChainSession) async throws -> TransactionOutcome? {
        guard let receipt = try await session.client.receipt(hash) else { return nil }
        var revertData: [UInt8]?
        if !receipt.succeeded, let sent = try await session.client.transaction(hash) {
            let call = CallRequest(from: sent.from, to: sent.to, gas: sent.gas, value: sent.value, data: sent.input)
            revertData = await TransactionSender.revertReason(of: call, minedIn: receipt.blockNumber, client: session.client)?.data
        }
        return TransactionOutcome(
            succeeded: receipt.succeeded, transactionHash: receipt.transactionHash, blockNumber: receipt.blockNumber,
            gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.effectiveGasPrice ?? .zero,
            logs: receipt.logs.map { TransactionLog(address: $0.address, topics: $0.topics, data: $0.data) },
            revertData: revertData, contractAddress: receipt.contractAddress)
    }
}
