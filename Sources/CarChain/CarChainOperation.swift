import EthereumABI
import EthereumContracts
import EthereumPrimitives

/// One state-changing CarChain call, as data: what the binding sends and what ``CarChainModel`` applies.
public enum CarChainOperation: Sendable, Hashable, CustomStringConvertible {
    /// `registerNewUser(userId)`.
    case registerNewUser(userId: String)
    /// `registerNewCar(plate)` (manager only).
    case registerNewCar(plate: String)
    /// `addCredit(userId, credit)`.
    case addCredit(userId: String, credit: UInt256)
    /// `rentCar(plate, userId)`.
    case rentCar(plate: String, userId: String)
    /// `returnCar(plate, userId)`.
    case returnCar(plate: String, userId: String)

    /// The contract function's name.
    public var functionName: String {
        switch self {
        case .registerNewUser: return "registerNewUser"
        case .registerNewCar: return "registerNewCar"
        case .addCredit: return "addCredit"
        case .rentCar: return "rentCar"
        case .returnCar: return "returnCar"
        }
    }

    /// The canonical signature (the same in the seed and the project's contract).
    public var signature: String {
        switch self {
        case .registerNewUser: return "registerNewUser(string)"
        case .registerNewCar: return "registerNewCar(string)"
        case .addCredit: return "addCredit(string,uint256)"
        case .rentCar: return "rentCar(string,string)"
        case .returnCar: return "returnCar(string,string)"
        }
    }

    /// The arguments as ABI values, in order.
    public var arguments: [ABIValue] {
        switch self {
        case .registerNewUser(let userId): return [.string(userId)]
        case .registerNewCar(let plate): return [.string(plate)]
        case .addCredit(let userId, let credit): return [.string(userId), .uint(credit)]
        case .rentCar(let plate, let userId), .returnCar(let plate, let userId): return [.string(plate), .string(userId)]
        }
    }

    /// The argument types, in order.
    public var argumentTypes: [ABIType] {
        switch self {
        case .registerNewUser, .registerNewCar: return [.string]
        case .addCredit: return [.string, .uint256]
        case .rentCar, .returnCar: return [.string, .string]
        }
    }

    /// The generated binding's prepared call (Generated/CarChainBinding.swift).
    public var call: ContractCall<Void> {
        get throws(ContractError) {
            switch self {
            case .registerNewUser(let userId): return try CarChainBinding.Calls.registerNewUser(userId: userId)
            case .registerNewCar(let plate): return try CarChainBinding.Calls.registerNewCar(plate: plate)
            case .addCredit(let userId, let credit): return try CarChainBinding.Calls.addCredit(userId: userId, credit: credit)
            case .rentCar(let plate, let userId): return try CarChainBinding.Calls.rentCar(plate: plate, userId: userId)
            case .returnCar(let plate, let userId): return try CarChainBinding.Calls.returnCar(plate: plate, userId: userId)
            }
        }
    }

    /// The call's data: selector and encoded arguments.
    public var calldata: [UInt8] {
        // Strings and a uint256 always encode, so preparing the call cannot fail here.
        (try? call)?.calldata ?? []
    }

    /// The user id the operation names, if any.
    public var userId: String? {
        switch self {
        case .registerNewUser(let u), .addCredit(let u, _), .rentCar(_, let u), .returnCar(_, let u): return u
        case .registerNewCar: return nil
        }
    }

    /// The plate the operation names, if any.
    public var plate: String? {
        switch self {
        case .registerNewCar(let p), .rentCar(let p, _), .returnCar(let p, _): return p
        case .registerNewUser, .addCredit: return nil
        }
    }

    /// `rentCar("C1", "u1")`.
    public var description: String {
        functionName + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
    }
}
