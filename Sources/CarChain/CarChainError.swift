import EthereumABI
import EthereumContracts
import EthereumPrimitives

/// Why a CarChain call did not give a result. Reverts carry the contract's reason; backend failures
/// (transport, signing) are thrown as the backend's own errors.
public enum CarChainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The contract reverted with `Error(reason)` (the project's contract gives a reason for every refusal).
    case reverted(reason: String)
    /// The contract reverted with empty data: the seed's refusals, and the project contract's ABI layer
    /// (ether sent to a non-payable function, undecodable calldata, a plate over 64 or an id over 256 bytes).
    case revertedWithoutReason
    /// The contract reverted with `Panic(code)`.
    case panic(PanicCode)
    /// The contract reverted with a custom error from its ABI.
    case customError(name: String, arguments: [ABIValue])
    /// Revert data of no known form.
    case unrecognizedRevert(data: [UInt8])
    /// The function does not exist in this contract flavour (the seed lacks manager, getCar,
    /// isUserRegistered and getUserAccount, and emits no events).
    case notSupported(function: String, flavour: CarChainFlavour)
    /// Return data or a log that does not decode as the ABI says.
    case unexpectedData(function: String, reason: String)
    /// The deployment transaction failed or created no contract.
    case deploymentFailed(reason: String)
    /// An artifact file that is not a CarChain artifact (`abi`, `bytecode`, `deployedBytecode`).
    case invalidArtifact(reason: String)

    /// The error for a revert with these data.
    public init(revertData data: [UInt8]) {
        switch RevertReason(data: data) {
        case .empty: self = .revertedWithoutReason
        case .error(let reason): self = .reverted(reason: reason)
        case .panic(let code): self = .panic(code)
        case .custom(let e, let values): self = .customError(name: e.name, arguments: values)
        case .unrecognized(let bytes): self = .unrecognizedRevert(data: bytes)
        }
    }

    /// The error for a contract runtime's error (a revert, or data that does not decode).
    public init(_ error: ContractError) {
        switch error {
        case .reverted(let revert): self.init(revertData: revert.data)
        case .unexpectedData(let what, let reason): self = .unexpectedData(function: what, reason: reason)
        case .noCode(let address): self = .unexpectedData(function: "call", reason: "no contract at \(address.checksummed)")
        default: self = .unexpectedData(function: "call", reason: "\(error)")
        }
    }

    /// The revert reason this error stands for, if it is a revert.
    public var revertReason: RevertReason? {
        switch self {
        case .reverted(let reason): return .error(reason)
        case .revertedWithoutReason: return .empty
        case .panic(let code): return .panic(code)
        case .unrecognizedRevert(let data): return .unrecognized(data)
        case .customError(let name, let arguments): return .custom(ABICustomError(name: name), arguments)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .reverted(let reason): return "CarChain reverted: \(reason)"
        case .revertedWithoutReason: return "CarChain reverted without a reason"
        case .panic(let code): return "CarChain panicked: \(code)"
        case .customError(let name, let arguments):
            return "CarChain reverted with \(name)(" + arguments.map(\.description).joined(separator: ", ") + ")"
        case .unrecognizedRevert(let data): return "CarChain reverted with unrecognized data \(Hex.encode(data))"
        case .notSupported(let function, let flavour): return "\(function) is not supported by the \(flavour) contract"
        case .unexpectedData(let function, let reason): return "\(function): unexpected data from the contract: \(reason)"
        case .deploymentFailed(let reason): return "CarChain deployment failed: \(reason)"
        case .invalidArtifact(let reason): return "invalid CarChain artifact: \(reason)"
        }
    }
}
