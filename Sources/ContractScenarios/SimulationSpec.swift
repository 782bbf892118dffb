import EthereumABI
import EthereumPrimitives
import Foundation

/// A declarative invariant test of any contract, read from a JSON file of the scenario family (docs/SCENARIOS.md,
/// "Simulating any contract"): a scenario (accounts, and steps that deploy and set up) followed by the actors who
/// send, the actions they take (functions by signature, with argument generators, and time skips), and invariants
/// written without Swift (a view compared with a constant, another view or a sum of a view over accounts; a view
/// that must not revert). `carchain simulate --spec FILE` runs it through EthereumTesting's `InvariantTest`.
///
/// ```json
/// {
///   "accounts": {"owner": "dev:0", "alice": "dev:1", "bob": "dev:2"},
///   "deployer": "owner",
///   "steps": [{"deploy": "Token", "artifact": "ERC20Token.json", "args": ["Snek", "SNEK", 18, "Snek", "1"]}],
///   "actors": ["owner", "alice", "bob"],
///   "actions": [
///     {"call": "Token.mint(address,uint256)", "args": ["$target", {"range": [0, 500]}]},
///     {"call": "Token.transfer(address,uint256)", "args": ["$target", {"range": [0, 500]}]},
///     {"skip": {"range": [1, 86400]}}
///   ],
///   "invariants": [
///     {"name": "supply", "call": "Token.totalSupply()", "equals": {"sum": "Token.balanceOf(address)", "over": "actors"}}
///   ]
/// }
/// ```
public struct SimulationSpec: Sendable {
    /// How an action's argument is drawn for a step (each step has an actor, a target actor and a number).
    public enum Argument: Sendable, Equatable, CustomStringConvertible {
        /// The value as written (typed by the parameter; an address may name an account or a deployed contract).
        case constant(JSONValue)
        /// `"$actor"`: the sending actor's address.
        case actor
        /// `"$target"`: the step's other actor's address (a recipient, a spender, an owner).
        case target
        /// `{"range": [lo, hi]}`: a whole number from lo to hi (lo + the step's number mod (hi − lo + 1)).
        case range(UInt256, UInt256)
        /// `{"oneOf": [a, b, …]}`: one of the values (the step's number mod their count picks it).
        case oneOf([JSONValue])

        public var description: String {
            switch self {
            case .constant(let value): return value.description
            case .actor: return "$actor"
            case .target: return "$target"
            case .range(let low, let high): return "{\"range\":[\(low),\(high)]}"
            case .oneOf(let values): return "{\"oneOf\":" + JSONValue.array(values).description + "}"
            }
        }

        /// The largest step number that still draws a new value (0 for a constant or an actor).
        var valueBound: UInt64 {
            switch self {
            case .range(let low, let high):
                let width = high - low
                return width > UInt256(UInt64.max) ? .max : UInt64(width)
            case .oneOf(let values): return UInt64(max(values.count - 1, 0))
            case .constant, .actor, .target: return 0
            }
        }

        /// The value drawn for a step.
        public func draw(actor: String, target: String, value: UInt64) -> JSONValue {
            switch self {
            case .constant(let constant): return constant
            case .actor: return .string(actor)
            case .target: return .string(target)
            case .range(let low, let high):
                let width = high - low
                let offset = width >= UInt256(UInt64.max) ? UInt256(value) : UInt256(value % (UInt64(width) + 1))
                return .number((low + offset).description)
            case .oneOf(let values): return values[Int(value % UInt64(values.count))]
            }
        }
    }

    /// What an action does.
    public enum Operation: Sendable, Equatable {
        /// Calls `function` on the contract deployed as `contract`, with wei `value`.
        case call(contract: String, function: ABIFunction, arguments: [Argument], value: UInt256)
        /// Moves time forward by the drawn number of seconds (forge's `skip`; at least 1).
        case skip(Argument)
    }

    /// One kind of step the simulation draws.
    public struct Action: Sendable, Equatable {
        /// Unique in the spec: `"name"`, else the call as written (`Token.transfer`), else `skip`.
        public var name: String
        public var operation: Operation

        /// The step as people read it: `Token.transfer(address,uint256)(bob, 10)`, `skip 3600 s`.
        public func describe(actor: String, target: String, value: UInt64) -> String {
            switch operation {
            case .call(let contract, let function, let arguments, let wei):
                let drawn = arguments.map { $0.draw(actor: actor, target: target, value: value).description }
                return "\(contract).\(function.signature)(\(drawn.joined(separator: ", ")))" + (wei.isZero ? "" : " value \(wei)")
            case .skip(let seconds):
                return "skip \(seconds.draw(actor: actor, target: target, value: value)) s"
            }
        }
    }

    /// A view call: a function of a deployed contract with constant arguments.
    public struct Call: Sendable, Equatable, CustomStringConvertible {
        public var contract: String
        public var function: ABIFunction
        public var arguments: [JSONValue]

        public var description: String {
            "\(contract).\(function.name)(" + arguments.map(\.description).joined(separator: ", ") + ")"
        }
    }

    /// The other side of a comparison.
    public enum Operand: Sendable, Equatable, CustomStringConvertible {
        /// A value, typed by the invariant's call's first output.
        case constant(JSONValue)
        /// `{"call": "C.f(types)", "args": […]}`: another view's first output.
        case call(Call)
        /// `{"sum": "C.f(address)", "over": "actors" | [names]}`: the sum of a one-address view over accounts or contracts.
        case sum(contract: String, function: ABIFunction, over: [String])

        public var description: String {
            switch self {
            case .constant(let value): return value.description
            case .call(let call): return call.description
            case .sum(let contract, let function, let over):
                return "sum of \(contract).\(function.name) over \(over.joined(separator: ", "))"
            }
        }
    }

    /// What an invariant requires of its call.
    public enum Check: Sendable, Equatable {
        case equals(Operand)
        case atMost(Operand)
        case atLeast(Operand)
        /// `"succeeds": true`: the call returns (does not revert).
        case succeeds
    }

    /// A property checked before the first step and after every step.
    public struct Invariant: Sendable, Equatable {
        public var name: String
        public var call: Call
        public var check: Check
    }

    /// The accounts and the set-up steps (deployments and calls), run once before every sequence.
    public var scenario: ContractScenario
    /// The accounts that send the actions, in order (the shrinker prefers the first).
    public var actors: [String]
    public var actions: [Action]
    public var invariants: [Invariant]
    /// The file's defaults for `--runs` and `--depth` (nil: the command's).
    public var runs: Int?
    public var depth: Int?

    public var name: String { scenario.name }

    /// The largest number a step draws: enough for every range and choice of every action.
    public var valueBound: UInt64 {
        var bound: UInt64 = 0
        for action in actions {
            switch action.operation {
            case .call(_, _, let arguments, _): for argument in arguments { bound = max(bound, argument.valueBound) }
            case .skip(let seconds): bound = max(bound, seconds.valueBound)
            }
        }
        return bound
    }

    /// The action named `name`.
    public func action(_ name: String) -> Action? { actions.first { $0.name == name } }
}

extension SimulationSpec {
    /// The top-level fields a spec adds to a scenario.
    static let fields: Set<String> = ["actors", "actions", "invariants", "runs", "depth"]

    /// Reads a spec file; artifact paths are relative to the file's directory.
    public init(contentsOf url: URL) throws(ContractScenarioError) {
        try self.init(
            document: try ContractScenario.document(at: url), source: url.lastPathComponent,
            defaultName: url.deletingPathExtension().lastPathComponent, directory: url.deletingLastPathComponent())
    }

    /// Parses a spec document. `source` names it in errors; artifacts are read relative to `directory`.
    public init(document: JSONValue, source: String, defaultName: String, directory: URL) throws(ContractScenarioError) {
        var parser = ContractScenarioParser(source: source, directory: directory)
        let scenario = try parser.scenario(document, defaultName: defaultName, extraFields: Self.fields)
        self = try parser.simulation(document, scenario: scenario)
    }

    /// A replay file (`{"steps": [{"action": NAME, "actor": NAME, "target": NAME, "value": N}, …]}`, as a failed
    /// simulation prints it) as the steps of `InvariantTest`: action name, actor and target indices, value.
    public func replaySteps(document: JSONValue, source: String) throws(ContractScenarioError)
        -> [(action: String, actor: Int, target: Int, value: UInt64)]
    {
        let parser = ContractScenarioParser(source: source, directory: URL(fileURLWithPath: "/"))
        let root = try parser.object(document, "(document)", allowed: ["seed", "spec", "steps"])
        guard let list = root["steps"]?.arrayValue, !list.isEmpty else { throw parser.fail("steps", "expected a non-empty array") }
        var steps: [(action: String, actor: Int, target: Int, value: UInt64)] = []
        for (index, item) in list.enumerated() {
            let path = "steps[\(index)]"
            let members = try parser.object(item, path, allowed: ["action", "actor", "target", "value", "call"])
            let name = try parser.string(members["action"], "\(path).action")
            guard action(name) != nil else {
                throw parser.fail("\(path).action", "\(JSONValue.quote(name)) is not an action of \(self.name) (\(actions.map(\.name).joined(separator: ", ")))")
            }
            func actorIndex(_ field: String) throws(ContractScenarioError) -> Int {
                let text = try parser.string(members[field], "\(path).\(field)")
                guard let found = actors.firstIndex(of: text) else {
                    throw parser.fail("\(path).\(field)", "\(JSONValue.quote(text)) is not an actor (\(actors.joined(separator: ", ")))")
                }
                return found
            }
            let actor = try actorIndex("actor")
            let target = try actorIndex("target")
            guard case .number(let text)? = members["value"], let value = UInt64(text) else {
                throw parser.fail("\(path).value", "expected a whole number from 0 to \(UInt64.max)")
            }
            steps.append((name, actor, target, value))
        }
        return steps
    }
}

extension ContractScenarioParser {
    /// `Contract.function(types)` (or `Contract.function`) of a contract deployed by an earlier step.
    func target(_ text: String, _ path: String, deployed: [String: ContractABI]) throws(ContractScenarioError) -> (String, ABIFunction) {
        guard let dot = text.firstIndex(of: ".") else {
            throw fail(path, "\(JSONValue.quote(text)): expected Contract.function or Contract.function(types)")
        }
        let contract = String(text[..<dot])
        guard let abi = deployed[contract] else {
            let known = deployed.isEmpty ? "nothing is deployed before it" : "deployed: " + deployed.keys.sorted().joined(separator: ", ")
            throw fail(path, "no earlier step deploys \(JSONValue.quote(contract)) (\(known))")
        }
        return (contract, try function(String(text[text.index(after: dot)...]), abi: abi, path: path))
    }

    func count(_ value: JSONValue?, _ path: String, in range: ClosedRange<Int>) throws(ContractScenarioError) -> Int? {
        guard let value else { return nil }
        guard case .number(let text) = value, let number = Int(text), range.contains(number) else {
            throw fail(path, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func wholeNumber(_ value: JSONValue, _ path: String) throws(ContractScenarioError) -> UInt256 {
        let text: String
        switch value {
        case .number(let n): text = n
        case .string(let s): text = s
        default: throw fail(path, "expected a whole number (a JSON number, or a decimal string above 2^53)")
        }
        guard let number = try? UInt256(parsing: text) else { throw fail(path, "\(JSONValue.quote(text)): expected a whole number from 0 to 2^256-1") }
        return number
    }

    func argument(_ value: JSONValue, _ path: String) throws(ContractScenarioError) -> SimulationSpec.Argument {
        switch value {
        case .string("$actor"): return .actor
        case .string("$target"): return .target
        case .string(let text) where text.hasPrefix("$"):
            throw fail(path, "\(JSONValue.quote(text)): the generators are \"$actor\" and \"$target\" (write a literal $ as {\"oneOf\": [\"\(text)\"]})")
        case .object:
            let members = try object(value, path, allowed: ["range", "oneOf"])
            if let range = members["range"] {
                guard members.count == 1 else { throw fail(path, "\"range\" stands alone") }
                guard let bounds = range.arrayValue, bounds.count == 2 else { throw fail("\(path).range", "expected [lowest, highest]") }
                let low = try wholeNumber(bounds[0], "\(path).range[0]")
                let high = try wholeNumber(bounds[1], "\(path).range[1]")
                guard low <= high else { throw fail("\(path).range", "the lowest value \(low) is above the highest \(high)") }
                return .range(low, high)
            }
            if let choices = members["oneOf"] {
                guard members.count == 1 else { throw fail(path, "\"oneOf\" stands alone") }
                guard let values = choices.arrayValue, !values.isEmpty else { throw fail("\(path).oneOf", "expected a non-empty array of values") }
                return .oneOf(values)
            }
            throw fail(path, "expected {\"range\": [lowest, highest]} or {\"oneOf\": [values…]}")
        default:
            return .constant(value)
        }
    }

    func call(
        _ members: [String: JSONValue], _ path: String, deployed: [String: ContractABI]
    ) throws(ContractScenarioError) -> SimulationSpec.Call {
        let (contract, function) = try target(try string(members["call"], "\(path).call"), "\(path).call", deployed: deployed)
        var arguments: [JSONValue] = []
        if let args = members["args"] {
            guard let list = args.arrayValue else { throw fail("\(path).args", "expected an array") }
            arguments = list
        }
        guard arguments.count == function.inputs.count else {
            throw fail("\(path).args", "\(function.signature) takes \(function.inputs.count) argument(s), got \(arguments.count)")
        }
        return SimulationSpec.Call(contract: contract, function: function, arguments: arguments)
    }

    func operand(
        _ value: JSONValue, _ path: String, deployed: [String: ContractABI], actors: [String], names: Set<String>
    ) throws(ContractScenarioError) -> SimulationSpec.Operand {
        guard case .object = value else { return .constant(value) }
        let members = try object(value, path, allowed: ["call", "args", "sum", "over"])
        if members["call"] != nil {
            for field in ["sum", "over"] where members[field] != nil { throw fail("\(path).\(field)", "applies to a \"sum\" only") }
            let other = try call(members, path, deployed: deployed)
            guard !other.function.outputs.isEmpty else { throw fail("\(path).call", "\(other.function.signature) has no outputs in the ABI") }
            return .call(other)
        }
        guard let sum = members["sum"] else { throw fail(path, "expected a value, {\"call\": …} or {\"sum\": …, \"over\": …}") }
        if members["args"] != nil { throw fail("\(path).args", "a sum calls its view with each account of \"over\"") }
        let (contract, function) = try target(try string(sum, "\(path).sum"), "\(path).sum", deployed: deployed)
        guard function.inputs.count == 1, case .address = function.inputs[0].type else {
            throw fail("\(path).sum", "\(function.signature): a sum needs a view of one address (such as balanceOf(address))")
        }
        let over: [String]
        switch members["over"] {
        case .string("actors")?, nil: over = actors
        case .array(let items)?:
            var list: [String] = []
            for (index, item) in items.enumerated() {
                let name = try string(item, "\(path).over[\(index)]")
                guard names.contains(name) || deployed[name] != nil else {
                    throw fail("\(path).over[\(index)]", "\(JSONValue.quote(name)) is neither an account nor a deployed contract")
                }
                list.append(name)
            }
            guard !list.isEmpty else { throw fail("\(path).over", "expected \"actors\" or a non-empty array of names") }
            over = list
        default: throw fail("\(path).over", "expected \"actors\" or an array of account and contract names")
        }
        return .sum(contract: contract, function: function, over: over)
    }

    mutating func simulation(_ document: JSONValue, scenario: ContractScenario) throws(ContractScenarioError) -> SimulationSpec {
        let root = try object(
            document, "(document)", allowed: Set(["name", "description", "accounts", "deployer", "gasLimits", "steps"]).union(SimulationSpec.fields))
        var deployed: [String: ContractABI] = [:]
        for (name, artifact) in scenario.contracts { deployed[name] = artifact.abi }
        let names = Set(scenario.accounts.map(\.name))

        guard let actorList = root["actors"]?.arrayValue, !actorList.isEmpty else {
            throw fail("actors", "expected a non-empty array of the accounts that send the actions")
        }
        var actors: [String] = []
        for (index, item) in actorList.enumerated() {
            let name = try string(item, "actors[\(index)]")
            guard names.contains(name) else { throw fail("actors[\(index)]", "\(JSONValue.quote(name)) is not an account") }
            guard !actors.contains(name) else { throw fail("actors[\(index)]", "\(name) is listed twice") }
            actors.append(name)
        }

        guard let actionList = root["actions"]?.arrayValue, !actionList.isEmpty else { throw fail("actions", "expected a non-empty array") }
        var actions: [SimulationSpec.Action] = []
        for (index, item) in actionList.enumerated() {
            let path = "actions[\(index)]"
            let members = try object(item, path, allowed: ["name", "call", "args", "value", "skip"])
            let action: SimulationSpec.Action
            switch (members["call"], members["skip"]) {
            case (let callValue?, nil):
                let text = try string(callValue, "\(path).call")
                let (contract, function) = try target(text, "\(path).call", deployed: deployed)
                var arguments: [SimulationSpec.Argument] = []
                if let args = members["args"] {
                    guard let list = args.arrayValue else { throw fail("\(path).args", "expected an array") }
                    for (position, argument) in list.enumerated() { arguments.append(try self.argument(argument, "\(path).args[\(position)]")) }
                }
                guard arguments.count == function.inputs.count else {
                    throw fail("\(path).args", "\(function.signature) takes \(function.inputs.count) argument(s), got \(arguments.count)")
                }
                var wei = UInt256.zero
                if let value = members["value"] {
                    let amount: String
                    switch value {
                    case .number(let n): amount = n
                    case .string(let s): amount = s
                    default: throw fail("\(path).value", "expected wei as a number, or an amount with a unit such as \"1ether\"")
                    }
                    do { wei = try Units.parse(amount) } catch { throw fail("\(path).value", "\(error)") }
                }
                let name = try members["name"].map { value throws(ContractScenarioError) in try string(value, "\(path).name") } ?? text
                action = .init(name: name, operation: .call(contract: contract, function: function, arguments: arguments, value: wei))
            case (nil, let skip?):
                for field in ["args", "value"] where members[field] != nil { throw fail("\(path).\(field)", "applies to a \"call\" action only") }
                let seconds = try argument(skip, "\(path).skip")
                switch seconds {
                case .range, .oneOf: break
                case .constant(let value):
                    let number = try wholeNumber(value, "\(path).skip")
                    guard number <= UInt256(UInt64(100 * 365 * 86_400)) else { throw fail("\(path).skip", "at most 100 years of seconds") }
                case .actor, .target: throw fail("\(path).skip", "expected seconds: a number, {\"range\": […]} or {\"oneOf\": […]}")
                }
                if case .range(_, let high) = seconds, high > UInt256(UInt64(100 * 365 * 86_400)) {
                    throw fail("\(path).skip", "at most 100 years of seconds")
                }
                if case .oneOf(let values) = seconds {
                    for (position, value) in values.enumerated() {
                        guard try wholeNumber(value, "\(path).skip.oneOf[\(position)]") <= UInt256(UInt64(100 * 365 * 86_400)) else {
                            throw fail("\(path).skip.oneOf[\(position)]", "at most 100 years of seconds")
                        }
                    }
                }
                let name = try members["name"].map { value throws(ContractScenarioError) in try string(value, "\(path).name") } ?? "skip"
                action = .init(name: name, operation: .skip(seconds))
            case (nil, nil): throw fail(path, "expected \"call\" or \"skip\"")
            case (_?, _?): throw fail(path, "give either \"call\" or \"skip\", not both")
            }
            guard !actions.contains(where: { $0.name == action.name }) else {
                throw fail("\(path).name", "two actions are named \(action.name) (give one a \"name\")")
            }
            actions.append(action)
        }

        guard let invariantList = root["invariants"]?.arrayValue, !invariantList.isEmpty else {
            throw fail("invariants", "expected a non-empty array")
        }
        var invariants: [SimulationSpec.Invariant] = []
        for (index, item) in invariantList.enumerated() {
            let path = "invariants[\(index)]"
            let members = try object(item, path, allowed: ["name", "call", "args", "equals", "atMost", "atLeast", "succeeds"])
            let call = try self.call(members, path, deployed: deployed)
            let given = ["equals", "atMost", "atLeast", "succeeds"].filter { members[$0] != nil }
            guard given.count == 1, let kind = given.first, let operandValue = members[kind] else {
                throw fail(path, "give exactly one of \"equals\", \"atMost\", \"atLeast\" or \"succeeds\"")
            }
            let check: SimulationSpec.Check
            let symbol: String
            switch kind {
            case "succeeds":
                guard operandValue == .bool(true) else { throw fail("\(path).succeeds", "expected true") }
                check = .succeeds
                symbol = "succeeds"
            default:
                guard !call.function.outputs.isEmpty else {
                    throw fail("\(path).call", "\(call.function.signature) has no outputs in the ABI: \"\(kind)\" compares a view's first output")
                }
                let operand = try self.operand(operandValue, "\(path).\(kind)", deployed: deployed, actors: actors, names: names)
                switch kind {
                case "equals": check = .equals(operand); symbol = "== \(operand)"
                case "atMost": check = .atMost(operand); symbol = "<= \(operand)"
                default: check = .atLeast(operand); symbol = ">= \(operand)"
                }
            }
            let name = try members["name"].map { value throws(ContractScenarioError) in try string(value, "\(path).name") } ?? "\(call) \(symbol)"
            invariants.append(.init(name: name, call: call, check: check))
        }
        return SimulationSpec(
            scenario: scenario, actors: actors, actions: actions, invariants: invariants,
            runs: try count(root["runs"], "runs", in: 1...1_000_000), depth: try count(root["depth"], "depth", in: 1...100_000))
    }
}

extension ContractScenario {
    /// A file's value as an ABI value of `type`, as scenario steps type their arguments: an `address` may be a name of
    /// `names` (accounts, deployed contracts). `path` names the value in errors.
    public static func abiValue(_ json: JSONValue, as type: ABIType, names: [String: Address], path: String) throws -> ABIValue {
        try value(json, as: type, addresses: names, contracts: [:], path: path)
    }
}
