import Chain
import EthereumABI
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// A scripted workload for any contract, read from a JSON file (docs/SCENARIOS.md, "Scenarios for any contract"):
/// named accounts, then steps that deploy artifacts and call their functions by signature with typed arguments, from
/// named accounts, each with an optional expected outcome (success, a revert reason, a custom error, a panic).
/// `carchain gas-report --scenario FILE` reports every contract it deploys, and EthereumTesting runs it on a `TestChain`
/// (`run(on:)`, so the bench's gas report and `.gas-snapshot` give the same figures).
///
/// ```json
/// {
///   "name": "bank-day",
///   "accounts": {"owner": "dev:0", "alice": "dev:1", "bob": "0x0101…01"},
///   "deployer": "owner",
///   "steps": [
///     {"deploy": "Bank", "artifact": "out/Bank.json", "args": [0]},
///     {"call": "Bank.deposit(uint256)", "args": [100], "from": "alice"},
///     {"call": "Bank.move(address,uint256)", "args": ["bob", 30], "from": "alice", "expect": "success"},
///     {"call": "Bank.withdraw(uint256)", "args": [71], "from": "alice",
///      "expect": {"error": "InsufficientBalance(uint256,uint256)", "args": [70, 71]}}
///   ]
/// }
/// ```
public struct ContractScenario: Sendable {
    /// A named account: one of the test mnemonic's (`"dev:N"`) or a private key (`"0x" + 64 hex digits`).
    public struct Account: Sendable, Hashable {
        public enum Source: Sendable, Hashable {
            case dev(Int)
            case key(Bytes32)
        }
        public var name: String
        public var source: Source

        /// Creates an account.
        public init(name: String, source: Source) {
            self.name = name
            self.source = source
        }

        /// The account's key (a dev account's from the test mnemonic).
        public func privateKey() throws -> PrivateKey {
            switch source {
            case .dev(let index): return try DevAccounts.key(index: UInt32(index))
            case .key(let bytes): return try PrivateKey(bytes: bytes.bytes)
            }
        }
    }

    /// What a step must end in.
    public enum Expectation: Sendable, Equatable, CustomStringConvertible {
        /// `"success"`.
        case success
        /// `"revert"` (any revert) or `{"revert": "reason"}` (that `Error(string)` reason).
        case revert(reason: String?)
        /// `{"error": "Name"}` or `{"error": "Name(types)", "args": […]}`: a custom error, with those arguments when given.
        case customError(name: String, error: ABICustomError?, arguments: [JSONValue]?)
        /// `{"panic": 17}`: a `Panic(uint256)` with that code.
        case panic(UInt256)

        public var description: String {
            switch self {
            case .success: return "success"
            case .revert(nil): return "a revert"
            case .revert(let reason?): return "revert \(JSONValue.quote(reason))"
            case .customError(let name, let error, let arguments):
                let head = error?.signature ?? name
                return "error \(head)" + (arguments.map { "(" + $0.map(\.description).joined(separator: ", ") + ")" } ?? "")
            case .panic(let code): return "panic \(code)"
            }
        }
    }

    /// What a step does.
    public enum Action: Sendable, Equatable {
        /// Deploys `artifact` under the name `contract` (how later steps and the report call it).
        case deploy(contract: String, artifact: ContractArtifact)
        /// Calls `function` on the contract deployed as `contract`.
        case call(contract: String, function: ABIFunction)
    }

    /// One transaction.
    public struct Step: Sendable, Equatable {
        public var action: Action
        /// Constructor or function arguments as the file gives them (typed when the step runs: an address may name an
        /// account or a deployed contract).
        public var arguments: [JSONValue]
        /// Wei sent along.
        public var value: UInt256
        /// The sending account's name.
        public var from: String
        public var expect: Expectation?
        /// A label for listings (default: the action).
        public var label: String?

        /// Creates a step.
        public init(action: Action, arguments: [JSONValue] = [], value: UInt256 = .zero, from: String, expect: Expectation? = nil, label: String? = nil) {
            self.action = action
            self.arguments = arguments
            self.value = value
            self.from = from
            self.expect = expect
            self.label = label
        }

        /// The contract the step deploys or calls.
        public var contract: String {
            switch action {
            case .deploy(let contract, _), .call(let contract, _): return contract
            }
        }

        /// `deploy Bank`, `Bank.deposit(uint256)`.
        public var summary: String {
            switch action {
            case .deploy(let contract, _): return "deploy \(contract)"
            case .call(let contract, let function): return "\(contract).\(function.signature)"
            }
        }
    }

    public var name: String
    public var description: String?
    /// The accounts, sorted by name.
    public var accounts: [Account]
    /// The default sender of every step.
    public var deployer: String
    /// Fixed gas limits (nil: the backend's).
    public var deploymentGasLimit: UInt64?
    public var callGasLimit: UInt64?
    public var steps: [Step]

    /// Creates a scenario (a file's is read by ``init(contentsOf:)``); `accounts` are kept sorted by name.
    public init(
        name: String, description: String? = nil, accounts: [Account], deployer: String, deploymentGasLimit: UInt64? = nil,
        callGasLimit: UInt64? = nil, steps: [Step]
    ) {
        self.name = name
        self.description = description
        self.accounts = accounts.sorted { $0.name < $1.name }
        self.deployer = deployer
        self.deploymentGasLimit = deploymentGasLimit
        self.callGasLimit = callGasLimit
        self.steps = steps
    }

    /// The account named `name`.
    public func account(_ name: String) -> Account? { accounts.first { $0.name == name } }

    /// The contracts the scenario deploys, in order, with their artifacts.
    public var contracts: [(name: String, artifact: ContractArtifact)] {
        steps.compactMap { step in
            if case .deploy(let name, let artifact) = step.action { return (name, artifact) }
            return nil
        }
    }
}

/// Why a scenario file cannot be read or run; one line, naming the file and the field or step.
public enum ContractScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(source: String, path: String, message: String)
    case expectationFailed(scenario: String, step: Int, summary: String, from: String, expected: String, got: String)
    case failed(scenario: String, step: Int, summary: String, message: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "scenario \(path): \(reason)"
        case .invalid(let source, let path, let message): return "scenario \(source): \(path): \(message)"
        case .expectationFailed(let scenario, let step, let summary, let from, let expected, let got):
            return "scenario \(scenario): step \(step) \(summary) from \(from): expected \(expected), got \(got)"
        case .failed(let scenario, let step, let summary, let message):
            return "scenario \(scenario): step \(step) \(summary): \(message)"
        }
    }
}

extension ContractScenario {
    /// True when `document` is a scenario of this format: a step deploys or calls (CarChain's scenario files name an
    /// `"op"` instead; docs/SCENARIOS.md).
    public static func isContractScenario(_ document: JSONValue) -> Bool {
        guard let steps = document["steps"]?.arrayValue else { return false }
        return steps.contains { $0["deploy"] != nil || $0["call"] != nil }
    }

    /// Reads a scenario file; artifact paths are relative to the file's directory.
    public init(contentsOf url: URL) throws(ContractScenarioError) {
        try self.init(
            document: try Self.document(at: url), source: url.lastPathComponent,
            defaultName: url.deletingPathExtension().lastPathComponent, directory: url.deletingLastPathComponent())
    }

    /// The JSON document in a scenario file (or a file of the scenario family: a simulation spec, a replay).
    public static func document(at url: URL) throws(ContractScenarioError) -> JSONValue {
        let bytes: [UInt8]
        do { bytes = try InputFile.read(url.path, limit: InputFile.documentLimit) } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
        do { return try JSONValue(parsing: bytes) } catch {
            throw .invalid(source: url.lastPathComponent, path: "(document)", message: "not JSON: \(error.message) at byte \(error.offset)")
        }
    }

    /// Parses a scenario document. `source` names it in errors; artifacts are read relative to `directory`.
    public init(document: JSONValue, source: String, defaultName: String, directory: URL) throws(ContractScenarioError) {
        var parser = ContractScenarioParser(source: source, directory: directory)
        self = try parser.scenario(document, defaultName: defaultName)
    }
}

/// Checks a scenario document field by field, naming the path of the first problem.
struct ContractScenarioParser {
    let source: String
    let directory: URL
    /// Artifacts read so far, by resolved path (a file deployed twice is read once).
    var artifactFiles: [String: [ContractArtifact]] = [:]

    func fail(_ path: String, _ message: String) -> ContractScenarioError { .invalid(source: source, path: path, message: message) }

    func object(_ value: JSONValue, _ path: String, allowed: Set<String>) throws(ContractScenarioError) -> [String: JSONValue] {
        do { return try value.fields(allowed: allowed) } catch { throw fail(path, error.description) }
    }

    func string(_ value: JSONValue?, _ path: String) throws(ContractScenarioError) -> String {
        guard let value else { throw fail(path, "missing") }
        guard let text = value.stringValue, !text.isEmpty else { throw fail(path, "expected a non-empty string") }
        return text
    }

    func gasLimit(_ value: JSONValue?, _ path: String) throws(ContractScenarioError) -> UInt64? {
        guard let value else { return nil }
        guard case .number(let text) = value, let limit = UInt64(text), (21_000...30_000_000).contains(limit) else {
            throw fail(path, "expected a whole number of gas from 21000 to 30000000")
        }
        return limit
    }

    /// The scenario `document` describes; `extraFields` are other top-level fields a document of the family may have
    /// (a simulation spec's actors, actions and invariants), left to the caller.
    mutating func scenario(_ document: JSONValue, defaultName: String, extraFields: Set<String> = []) throws(ContractScenarioError)
        -> ContractScenario
    {
        let root = try object(
            document, "(document)", allowed: Set(["name", "description", "accounts", "deployer", "gasLimits", "steps"]).union(extraFields))
        var name = defaultName
        if let value = root["name"] { name = try string(value, "name") }
        var description: String?
        if let value = root["description"] { description = try string(value, "description") }

        guard let accountsValue = root["accounts"] else { throw fail("accounts", "missing (name → \"dev:N\" or a 0x private key)") }
        var accounts: [ContractScenario.Account] = []
        guard let accountMembers = accountsValue.objectValue, !accountMembers.isEmpty else {
            throw fail("accounts", "expected an object naming at least one account")
        }
        for (accountName, spec) in accountMembers {
            let path = "accounts.\(accountName)"
            let text = try string(spec, path)
            if text.hasPrefix("dev:") {
                guard let index = Int(text.dropFirst(4)), (0..<DevAccounts.standard.count).contains(index) else {
                    throw fail(path, "\(JSONValue.quote(text)): dev accounts are dev:0 to dev:\(DevAccounts.standard.count - 1)")
                }
                accounts.append(.init(name: accountName, source: .dev(index)))
            } else {
                guard text.count == 66, let bytes = try? Hex.decode(text), bytes.count == 32, let key = Bytes32(bytes),
                    (try? PrivateKey(bytes: bytes)) != nil
                else { throw fail(path, "expected \"dev:N\" or a 0x-prefixed 32-byte private key") }
                accounts.append(.init(name: accountName, source: .key(key)))
            }
        }
        accounts.sort { $0.name < $1.name }
        let names = Set(accounts.map(\.name))
        let deployer: String
        if let value = root["deployer"] {
            deployer = try string(value, "deployer")
            guard names.contains(deployer) else { throw fail("deployer", "\(JSONValue.quote(deployer)) is not an account") }
        } else if names.contains("deployer") {
            deployer = "deployer"
        } else if accounts.count == 1, let only = accounts.first {
            deployer = only.name
        } else {
            throw fail("deployer", "missing (name the account that sends steps without \"from\")")
        }
        var deploymentGasLimit: UInt64?
        var callGasLimit: UInt64?
        if let limits = root["gasLimits"] {
            let members = try object(limits, "gasLimits", allowed: ["deploy", "call"])
            deploymentGasLimit = try gasLimit(members["deploy"], "gasLimits.deploy")
            callGasLimit = try gasLimit(members["call"], "gasLimits.call")
        }

        guard let stepValues = root["steps"]?.arrayValue, !stepValues.isEmpty else { throw fail("steps", "expected a non-empty array") }
        var steps: [ContractScenario.Step] = []
        var deployed: [String: ContractABI] = [:]
        for (index, value) in stepValues.enumerated() {
            steps.append(try step(value, "steps[\(index)]", deployer: deployer, accounts: names, deployed: &deployed))
        }
        return ContractScenario(
            name: name, description: description, accounts: accounts, deployer: deployer, deploymentGasLimit: deploymentGasLimit,
            callGasLimit: callGasLimit, steps: steps)
    }

    mutating func step(
        _ value: JSONValue, _ path: String, deployer: String, accounts: Set<String>, deployed: inout [String: ContractABI]
    ) throws(ContractScenarioError) -> ContractScenario.Step {
        let members = try object(value, path, allowed: ["deploy", "artifact", "contract", "call", "args", "value", "from", "expect", "label"])
        let action: ContractScenario.Action
        switch (members["deploy"], members["call"]) {
        case (let deploy?, nil):
            let name = try string(deploy, "\(path).deploy")
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw fail("\(path).deploy", "\(JSONValue.quote(name)): a contract's name has letters, digits, _ and - only")
            }
            guard deployed[name] == nil else { throw fail("\(path).deploy", "\(name) is deployed twice (give each deployment its own name)") }
            guard !accounts.contains(name) else { throw fail("\(path).deploy", "\(name) is also an account's name") }
            let artifact = try self.artifact(members, path, name: name)
            deployed[name] = artifact.abi
            action = .deploy(contract: name, artifact: artifact)
        case (nil, let call?):
            for field in ["artifact", "contract"] where members[field] != nil {
                throw fail("\(path).\(field)", "applies to a \"deploy\" step only")
            }
            let (contract, function) = try target(try string(call, "\(path).call"), "\(path).call", deployed: deployed)
            action = .call(contract: contract, function: function)
        case (nil, nil): throw fail(path, "expected \"deploy\" or \"call\"")
        case (_?, _?): throw fail(path, "give either \"deploy\" or \"call\", not both")
        }
        let arguments: [JSONValue]
        if let args = members["args"] {
            guard let list = args.arrayValue else { throw fail("\(path).args", "expected an array") }
            arguments = list
        } else {
            arguments = []
        }
        let expected: Int
        switch action {
        case .deploy(_, let artifact): expected = artifact.abi.constructor?.inputs.count ?? 0
        case .call(_, let function): expected = function.inputs.count
        }
        guard arguments.count == expected else { throw fail("\(path).args", "expected \(expected) argument(s), got \(arguments.count)") }
        var wei = UInt256.zero
        if let value = members["value"] {
            let text: String
            switch value {
            case .number(let n): text = n
            case .string(let s): text = s
            default: throw fail("\(path).value", "expected wei as a number, or an amount with a unit such as \"1ether\"")
            }
            do { wei = try Units.parse(text) } catch { throw fail("\(path).value", "\(error)") }
        }
        var from = deployer
        if let value = members["from"] { from = try string(value, "\(path).from") }
        guard accounts.contains(from) else { throw fail("\(path).from", "\(JSONValue.quote(from)) is not an account") }
        var expect: ContractScenario.Expectation?
        if let value = members["expect"] { expect = try expectation(value, "\(path).expect") }
        var label: String?
        if let value = members["label"] { label = try string(value, "\(path).label") }
        return ContractScenario.Step(action: action, arguments: arguments, value: wei, from: from, expect: expect, label: label)
    }

    /// The artifact a deploy step names (`"artifact"`, relative to the scenario's directory; `"contract"` picks one
    /// of a combined output's contracts).
    mutating func artifact(_ members: [String: JSONValue], _ path: String, name: String) throws(ContractScenarioError) -> ContractArtifact {
        let file = try string(members["artifact"], "\(path).artifact")
        let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
        let all: [ContractArtifact]
        if let read = artifactFiles[url.standardizedFileURL.path] {
            all = read
        } else {
            let bytes: [UInt8]
            do { bytes = try InputFile.read(url.path, limit: InputFile.bulkLimit) } catch {
                throw fail("\(path).artifact", "\(file): \(error.reason)")
            }
            do { all = try ContractArtifact.read(json: bytes, fileName: url.lastPathComponent) } catch {
                throw fail("\(path).artifact", "\(file): \(error)")
            }
            artifactFiles[url.standardizedFileURL.path] = all
        }
        let chosen: ContractArtifact
        if let wanted = members["contract"] {
            let contractName = try string(wanted, "\(path).contract")
            guard let match = all.first(where: { $0.name == contractName }) else {
                throw fail("\(path).contract", "\(file) has no contract \(contractName) (it has \(all.map(\.name).joined(separator: ", ")))")
            }
            chosen = match
        } else {
            guard all.count == 1, let only = all.first else {
                throw fail("\(path).artifact", "\(file) holds \(all.count) contracts: name one with \"contract\" (\(all.map(\.name).joined(separator: ", ")))")
            }
            chosen = only
        }
        guard chosen.bytecode != nil else {
            let reason = chosen.unlinkedLibraries.isEmpty ? "has no bytecode (an ABI alone cannot be deployed)"
                : "needs libraries linked first (\(chosen.unlinkedLibraries.joined(separator: ", ")))"
            throw fail("\(path).artifact", "\(file): \(chosen.name) \(reason)")
        }
        return chosen
    }

    /// `transfer(address,uint256)` (the ABI's entry when it has one, else the signature as given), or `transfer` when
    /// the ABI has exactly one function of that name.
    func function(_ text: String, abi: ContractABI, path: String) throws(ContractScenarioError) -> ABIFunction {
        if text.contains("(") {
            let parsed: ABIFunction
            do { parsed = try ABIFunction(signature: text) } catch { throw fail(path, "\(JSONValue.quote(text)): \(error)") }
            return abi.functions.first { $0.signature == parsed.signature } ?? parsed
        }
        let matches = abi.functions.filter { $0.name == text }
        guard matches.count == 1, let only = matches.first else {
            throw fail(
                path,
                matches.isEmpty ? "the ABI has no function \(text)"
                    : "\(text) is overloaded: give the signature (\(matches.map(\.signature).joined(separator: " or ")))")
        }
        return only
    }

    func expectation(_ value: JSONValue, _ path: String) throws(ContractScenarioError) -> ContractScenario.Expectation {
        switch value {
        case .string("success"): return .success
        case .string("revert"): return .revert(reason: nil)
        case .object:
            let members = try object(value, path, allowed: ["revert", "error", "args", "panic"])
            if let reason = members["revert"] {
                guard members.count == 1 else { throw fail(path, "\"revert\" stands alone") }
                return .revert(reason: try string(reason, "\(path).revert"))
            }
            if let panic = members["panic"] {
                guard members.count == 1 else { throw fail(path, "\"panic\" stands alone") }
                guard case .number(let text) = panic, let code = try? UInt256(parsing: text) else {
                    throw fail("\(path).panic", "expected the panic code as a number (e.g. 17 for an arithmetic overflow)")
                }
                return .panic(code)
            }
            guard let errorValue = members["error"] else { throw fail(path, "expected \"revert\", \"error\" or \"panic\"") }
            let text = try string(errorValue, "\(path).error")
            var error: ABICustomError?
            if text.contains("(") {
                do { error = try ABICustomError(signature: "error " + text) } catch { throw fail("\(path).error", "\(JSONValue.quote(text)): \(error)") }
            }
            var arguments: [JSONValue]?
            if let args = members["args"] {
                guard let list = args.arrayValue else { throw fail("\(path).args", "expected an array") }
                if let error, error.inputs.count != list.count {
                    throw fail("\(path).args", "\(error.signature) takes \(error.inputs.count) argument(s), got \(list.count)")
                }
                arguments = list
            }
            return .customError(name: error?.name ?? text, error: error, arguments: arguments)
        default:
            throw fail(path, "expected \"success\", \"revert\", {\"revert\": reason}, {\"error\": \"Name(types)\", \"args\": […]} or {\"panic\": code}")
        }
    }
}
