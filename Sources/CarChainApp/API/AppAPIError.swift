import AuthEmulator
import CarChain
import CarChainKit
import EthereumPrimitives
import EthereumRPC

/// An answer of the app API that is not a success: an HTTP status, a stable `code` the page can switch on, and a
/// `message` a person can read, which the page shows as it is. A refusal by the contract also carries the
/// contract's own `reason` (contracts/README.md, RULES). Sent as `{"error":{"code","message","reason"?}}`.
public struct AppAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String
    public var reason: String?

    public init(status: Int, code: String, message: String, reason: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason
    }

    public var description: String { "\(status) \(code): \(message)" }

    /// The JSON body.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .string(code)), ("message", .string(message))]
        if let reason { members.append(("reason", .string(reason))) }
        return .object([("error", .object(members))])
    }

    // MARK: The request

    static func badRequest(_ message: String) -> AppAPIError { AppAPIError(status: 400, code: "BAD_REQUEST", message: message) }
    static func notFound(_ message: String) -> AppAPIError { AppAPIError(status: 404, code: "NOT_FOUND", message: message) }
    static let unauthenticated = AppAPIError(
        status: 401, code: "UNAUTHENTICATED", message: "Sign in first: this request carries no ID token (Authorization: Bearer).")

    // MARK: Errors of the flows, in the words the page shows

    /// The error a flow threw, as the API answers it.
    static func from(_ error: any Error) -> AppAPIError {
        switch error {
        case let error as AppAPIError:
            return error
        case let error as IDTokenError:
            if error.isExpiry {
                return AppAPIError(status: 401, code: "TOKEN_EXPIRED", message: "Your session has expired: sign in again.")
            }
            return AppAPIError(status: 401, code: "INVALID_TOKEN", message: "Your session is not valid (\(error)): sign in again.")
        case let error as ActingUser.RoleRefusal:
            switch error {
            case .managerCannotRent(_, let manager):
                return AppAPIError(
                    status: 403, code: "MANAGER_CANNOT_RENT",
                    message: "You are the manager (\(manager.checksummed)): the manager runs the fleet and does not rent cars.")
            case .notManager(_, _, let manager):
                return AppAPIError(
                    status: 403, code: "NOT_MANAGER",
                    message: "Only the manager (\(manager.checksummed)) can do this; you are signed in as a user.")
            }
        case let error as LoggedInUser.KeyError:
            switch error {
            case .wrongPassphrase:
                return AppAPIError(
                    status: 403, code: "WRONG_PASSPHRASE", message: "Wrong wallet passphrase: your account key did not unlock. Nothing was sent.")
            case .noKeystore(_, let address, _):
                return AppAPIError(
                    status: 409, code: "NO_KEY",
                    message: "This server does not hold the key of your account \(address.checksummed) (it was made elsewhere): connect a wallet that holds it.")
            case .noAccount:
                return AppAPIError(status: 409, code: "NO_ACCOUNT", message: "Your Ethereum account is not set up yet: finish setting it up first.")
            }
        case let error as CarChainRefusal:
            return refusal(error)
        case let error as FleetError:
            return AppAPIError(status: 400, code: "BAD_REQUEST", message: error.description)
        case AppError.noContract:
            return AppAPIError(status: 503, code: "NO_CONTRACT", message: "No CarChain contract is deployed on this chain.")
        case AppError.noCode(let address, let chainID):
            return AppAPIError(
                status: 503, code: "NO_CONTRACT",
                message: "No CarChain contract at \(address.checksummed) on chain \(chainID) any more (the chain was reset, or the code removed): nothing can be read or sent until it is deployed again.")
        case let error as CarChainError:
            // Thrown by the contract's views only (a transaction's failure is its outcome): the code there does not
            // answer as CarChain does.
            return AppAPIError(
                status: 503, code: "NO_CONTRACT", message: "The contract does not answer as CarChain does (\(error)): is --contract the CarChain address?")
        case let error as FirebaseTokenKeys.FetchError:
            return AppAPIError(status: 502, code: "AUTH_UNREACHABLE", message: "Your sign-in cannot be checked now: \(error)")
        case let error as RPCError:
            if error.isTransportFailure {
                return AppAPIError(status: 502, code: "NODE_UNREACHABLE", message: "The chain's node does not answer: \(error)")
            }
            return AppAPIError(status: 502, code: "CHAIN_ERROR", message: "The chain did not answer as expected: \(error)")
        case SendError.receiptTimeout(let hash, let seconds):
            return AppAPIError(
                status: 504, code: "PENDING",
                message: "Transaction \(hash) was sent but is not mined after \(Int(seconds)) s; it may still be: your history shows it when it is.")
        case let error as SendError:
            if case .rpc(let rpc) = error, rpc.isTransportFailure {
                return AppAPIError(status: 502, code: "NODE_UNREACHABLE", message: "The chain's node does not answer: \(rpc)")
            }
            return AppAPIError(status: 502, code: "CHAIN_ERROR", message: "The transaction could not be sent: \(error)")
        default:
            // Nothing a request can do should land here: a broken data directory, or a bug. The message says what.
            return AppAPIError(status: 500, code: "INTERNAL", message: "The server could not do this: \(error)")
        }
    }

    /// A contract refusal: the contract's reason (RULES in contracts/README.md), with a code and a sentence.
    static func refusal(_ refusal: CarChainRefusal) -> AppAPIError {
        let (status, code, sentence) = classify(reason: refusal.reason)
        return AppAPIError(
            status: status, code: code, message: "\(sentence) (The contract says: \(refusal.reason). Nothing was sent.)", reason: refusal.reason)
    }

    /// The status, code and sentence of a contract reason.
    static func classify(reason: String) -> (status: Int, code: String, sentence: String) {
        let (status, code, sentence): (Int, String, String)
        switch reason {
        case "car already rented": (status, code, sentence) = (409, "CAR_TAKEN", "This car is already rented.")
        case "insufficient credit": (status, code, sentence) = (409, "NO_CREDIT", "You have no credit left: buy credit first (a rental costs 1).")
        case "user already renting a car": (status, code, sentence) = (409, "ALREADY_RENTING", "You are already renting a car: return it first.")
        case "caller is not the manager": (status, code, sentence) = (403, "NOT_MANAGER", "Only the manager can register cars.")
        case "car not registered": (status, code, sentence) = (404, "NO_SUCH_CAR", "No car with this plate is registered.")
        case "car not rented": (status, code, sentence) = (409, "CAR_NOT_RENTED", "This car is not rented.")
        case "car rented by another user": (status, code, sentence) = (403, "NOT_YOUR_CAR", "This car is rented by someone else.")
        case "user not registered": (status, code, sentence) = (409, "NOT_REGISTERED", "Your account is not registered on the chain yet.")
        case "not user's account or manager": (status, code, sentence) = (403, "NOT_YOUR_ACCOUNT", "Only your own account (or the manager) can do this.")
        case "credit overflow": (status, code, sentence) = (409, "CREDIT_OVERFLOW", "That much credit would overflow your balance.")
        case "car already registered": (status, code, sentence) = (409, "CAR_EXISTS", "A car with this plate is already registered.")
        case "user already registered", "account already has a user id":
            (status, code, sentence) = (409, "ALREADY_REGISTERED", "This account is already registered.")
        default: (status, code, sentence) = (409, "REFUSED", "The contract refuses this.")
        }
        return (status, code, sentence)
    }
}
