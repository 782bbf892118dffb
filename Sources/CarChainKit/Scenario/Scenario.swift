import CarChain
import EthereumCrypto
import EthereumPrimitives

/// A scripted CarChain workload read from a JSON file (see docs/SCENARIOS.md): named accounts, who
/// deploys, optional gas limits, and the steps to send in order, each with an optional expected outcome.
///
/// ```json
/// {
///   "name": "example",
///   "accounts": {"manager": "dev:0", "alice": "dev:1", "owner": "0x0101…01"},
///   "deployer": "manager",
///   "gasLimits": {"deploy": 6700000, "call": 210000},
///   "steps": [
///     {"op": "registerNewUser", "userId": "u1", "from": "manager"},
///     {"op": "registerNewCar", "plate": "6789BBB"},
///     {"op": "addCredit", "userId": "u1", "credit": 5},
///     {"op": "rentCar", "plate": "6789BBB", "user": "u1", "expect": "success"},
///     {"op": "returnCar", "plate": "6789BBB", "user": "u2", "expect": {"revert": "car rented by another user"}}
///   ]
/// }
/// ```
public struct Scenario: Sendable, Equatable {
    /// The scenario's name (default: the file name without extension).
    public var name: String
    /// What it exercises.
    public var description: String?
    /// The accounts steps send from, by name, sorted by name.
    public var accounts: [ScenarioAccount]
    /// The account that deploys the contract (its manager).
    public var deployer: String
    /// The deployment transaction's gas limit; nil: ``DevChainBackend/defaultDeploymentGasLimit``.
    public var deploymentGasLimit: UInt64?
    /// Every call's gas limit; nil: ``DevChainBackend/defaultCallGasLimit``.
    public var callGasLimit: UInt64?
    /// The steps, in order.
    public var steps: [ScenarioStep]

    /// Creates a scenario (the deployer and every step's sender must name an account).
    public init(
        name: String, description: String? = nil, accounts: [ScenarioAccount], deployer: String,
        deploymentGasLimit: UInt64? = nil, callGasLimit: UInt64? = nil, steps: [ScenarioStep]
    ) {
        self.name = name
        self.description = description
        self.accounts = accounts
        self.deployer = deployer
        self.deploymentGasLimit = deploymentGasLimit
        self.callGasLimit = callGasLimit
        self.steps = steps
    }

    /// The account named `name`.
    public func account(_ name: String) -> ScenarioAccount? { accounts.first { $0.name == name } }
}

/// A named account of a scenario: one of the dev chain's accounts (the test mnemonic's, by index) or an
/// explicit private key (funded at genesis when the scenario runs).
public struct ScenarioAccount: Sendable, Equatable {
    /// Where the key comes from.
    public enum Source: Sendable, Equatable {
        /// `"dev:N"`: the N-th account of the test mnemonic.
        case dev(Int)
        /// `"0x…"`: this key.
        case key(PrivateKey)
    }

    /// The name steps use in `from`.
    public var name: String
    /// Where the key comes from.
    public var source: Source

    /// Creates an account.
    public init(name: String, source: Source) {
        self.name = name
        self.source = source
    }
}

/// One step: an operation sent from a named account, with an optional expected outcome.
public struct ScenarioStep: Sendable, Hashable {
    /// A label for reports (`"label"` in the file; default: the operation).
    public var label: String?
    /// What is sent.
    public var operation: CarChainOperation
    /// The sending account's name (default: the deployer).
    public var from: String
    /// What should happen; nil: anything.
    public var expect: ScenarioExpectation?

    /// Creates a step.
    public init(label: String? = nil, operation: CarChainOperation, from: String, expect: ScenarioExpectation? = nil) {
        self.label = label
        self.operation = operation
        self.from = from
        self.expect = expect
    }
}

/// A step's expected outcome.
public enum ScenarioExpectation: Sendable, Hashable, CustomStringConvertible {
    /// `"success"`: the transaction succeeds.
    case success
    /// `"revert"` (any reason) or `{"revert": "reason"}` (that `Error(string)` reason; the seed's
    /// contract gives no reasons, so a reason is only checked on the project's contract).
    case revert(reason: String?)

    public var description: String {
        switch self {
        case .success: return "success"
        case .revert(nil): return "a revert"
        case .revert(let reason?): return "revert \(JSONValue.quote(reason))"
        }
    }
}
