import EthereumABI
import EthereumPrimitives

/// Why a contract call, transaction or deployment did not give its result, beyond the backend's own failures
/// (transport, signing, the node refusing a transaction), which are thrown as they are.
public enum ContractError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The contract reverted: in a call, in the gas estimate before anything was sent, or on chain.
    case reverted(ContractRevert)
    /// The arguments do not encode as the function's parameters (e.g. 300 for a `uint8`).
    case invalidArguments(function: String, ABIError)
    /// Return data or a log that does not decode as the ABI says.
    case unexpectedData(what: String, reason: String)
    /// The ABI has no function or event by that name or signature, or the name is ambiguous.
    case notInABI(String)
    /// There is no code at the address (nothing deployed there on this chain).
    case noCode(Address)
    /// The creation transaction failed, or the artifact cannot be deployed.
    case deploymentFailed(String)

    /// The revert, when this is one.
    public var revert: ContractRevert? {
        if case .reverted(let revert) = self { return revert }
        return nil
    }

    public var description: String {
        switch self {
        case .reverted(let revert): return revert.description
        case .invalidArguments(let function, let error): return "\(function): \(error)"
        case .unexpectedData(let what, let reason): return "\(what): unexpected data from the contract: \(reason)"
        case .notInABI(let what): return what
        case .noCode(let address): return "no contract at \(address.checksummed) (no code there on this chain)"
        case .deploymentFailed(let why): return "deployment failed: \(why)"
        }
    }
}

/// A revert, decoded with the contract's ABI: `Error(string)`, `Panic(uint256)`, one of the contract's custom
/// errors, empty, or unrecognised data; where it happened; and, for a transaction mined and failed, its outcome.
public struct ContractRevert: Sendable, Hashable, CustomStringConvertible {
    /// Where the revert was seen.
    public enum Stage: String, Sendable, Hashable {
        /// In `eth_call`.
        case call
        /// In the gas estimate of a transaction, which was therefore not sent.
        case estimate
        /// On chain: the transaction was mined and failed (``ContractRevert/outcome`` has its receipt).
        case mined
    }

    /// The function (canonical signature), or `constructor` for a deployment.
    public var function: String
    /// The decoded reason.
    public var reason: RevertReason
    /// Where the revert was seen.
    public var stage: Stage
    /// The mined transaction, for ``Stage/mined``.
    public var outcome: TransactionOutcome?

    public init(function: String, reason: RevertReason, stage: Stage, outcome: TransactionOutcome? = nil) {
        self.function = function
        self.reason = reason
        self.stage = stage
        self.outcome = outcome
    }

    /// The raw revert data.
    public var data: [UInt8] { reason.data }

    /// The custom error's name and arguments, when the reason is one.
    public var customError: (name: String, arguments: [ABIValue])? {
        if case .custom(let error, let values) = reason { return (error.name, values) }
        return nil
    }

    /// `transfer(address,uint256) reverted: ERC20: insufficient balance`, with the transaction hash when mined.
    public var description: String {
        var text = "\(function) \(reason)"
        switch stage {
        case .call: break
        case .estimate: text += " (found by the gas estimate; nothing was sent)"
        case .mined: if let outcome { text += " (transaction \(outcome.transactionHash), block \(outcome.blockNumber))" }
        }
        return text
    }
}

/// A contract's custom errors as a Swift type (generated bindings make one enum per contract).
public protocol ContractCustomError: Error, Sendable {
    /// The error for a revert, or nil when the revert is not one of this contract's custom errors.
    init?(revert: RevertReason)
}

extension ContractCustomError {
    /// The custom error a ``ContractError`` carries, or nil.
    public init?(_ error: any Error) {
        guard let revert = (error as? ContractError)?.revert else { return nil }
        self.init(revert: revert.reason)
    }
}
