import EthereumABI
import EthereumContracts
import EthereumPrimitives

/// A ``SimulationSpec`` made ready on a test bench: its set-up steps run, its actions and invariants turned into an
/// ``InvariantTest`` (so a spec runs through the same engine as an invariant test written in Swift).
public struct SimulationBench: Sendable {
    public let spec: SimulationSpec
    public let chain: TestChain
    /// The invariant test: the spec's actors, actions and invariants on ``chain``.
    public let test: InvariantTest
    /// Every account's and deployed contract's address by name.
    public let addresses: [String: Address]

    /// Closes the bench's chain.
    public func close() async { await chain.close() }

    /// `seed`'s `runs` random sequences of up to `depth` steps, shrunk on failure (``InvariantTest/explore(runs:depth:maxValue:seed:progress:)``;
    /// every number a step draws is in 0…``SimulationSpec/valueBound``).
    public func explore(runs: Int, depth: Int, seed: UInt64, progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws
        -> InvariantTest.Outcome
    {
        try await test.explore(runs: runs, depth: depth, maxValue: spec.valueBound, seed: seed, progress: progress)
    }

    /// The steps of a replay document (as ``replayDocument(_:seed:)`` writes it).
    public func replaySteps(_ document: JSONValue, source: String) throws -> [InvariantTest.Step] {
        try spec.replaySteps(document: document, source: source).map {
            InvariantTest.Step(action: $0.action, actor: $0.actor, target: $0.target, value: $0.value)
        }
    }

    /// A step as people read it: `alice: Vault.withdraw(uint256)(100)`, `bob: skip 86400 s`.
    public func describe(_ step: InvariantTest.Step) -> String {
        let actor = spec.actors.indices.contains(step.actor) ? spec.actors[step.actor] : "actor \(step.actor)"
        let target = spec.actors.indices.contains(step.target) ? spec.actors[step.target] : "actor \(step.target)"
        guard let action = spec.action(step.action) else { return "\(actor): \(step.action)" }
        return "\(actor): " + action.describe(actor: actor, target: target, value: step.value)
    }

    /// The replay document of `steps`: `{"spec", "seed", "steps": [{"action", "actor", "target", "value", "call"}]}`
    /// (`call` is what the step sends, for reading; the other four are the step). `carchain simulate --spec FILE
    /// --replay REPLAY` runs it.
    public func replayDocument(_ steps: [InvariantTest.Step], seed: UInt64?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("spec", .string(spec.name))]
        if let seed { members.append(("seed", .number(String(seed)))) }
        members.append((
            "steps",
            .array(steps.map { step in
                let actor = spec.actors.indices.contains(step.actor) ? spec.actors[step.actor] : String(step.actor)
                let target = spec.actors.indices.contains(step.target) ? spec.actors[step.target] : String(step.target)
                return .object([
                    ("action", .string(step.action)), ("actor", .string(actor)), ("target", .string(target)),
                    ("value", .number(String(step.value))),
                    ("call", .string(spec.action(step.action)?.describe(actor: actor, target: target, value: step.value) ?? step.action)),
                ])
            })
        ))
        return .object(members)
    }
}

extension SimulationSpec {
    /// Runs the set-up on a new bench (`hardfork` nil: the bench's default) and builds the invariant test. Throws the
    /// set-up's errors (a step's unmet expectation, a failed deployment) and arguments that cannot be typed.
    public func prepare(hardfork: Hardfork? = nil) async throws -> SimulationBench {
        let chain = try await TestChain(hardfork: hardfork)
        do {
            return try await prepare(on: chain)
        } catch {
            await chain.close()
            throw error
        }
    }

    func prepare(on chain: TestChain) async throws -> SimulationBench {
        let run = try await scenario.run(on: chain)
        var addresses: [String: Address] = [:]
        for account in scenario.accounts {
            switch account.source {
            case .dev(let index): addresses[account.name] = chain.accounts[index]
            case .key: addresses[account.name] = try account.privateKey().address
            }
        }
        var contracts: [String: Contract] = [:]
        for deployed in run.contracts {
            addresses[deployed.name] = deployed.address
            var abi = deployed.abi
            // Functions the actions and invariants name that the ABI lacks are still called.
            for function in functions(of: deployed.name) where !abi.functions.contains(where: { $0.signature == function.signature }) {
                abi.items.append(.function(function))
            }
            contracts[deployed.name] = Contract(address: deployed.address, abi: abi, backend: chain)
            chain.label(deployed.address, deployed.name, abi: abi)
        }
        func contract(_ name: String, _ path: String) throws -> Contract {
            guard let found = contracts[name] else {
                throw ContractScenarioError.failed(scenario: self.name, step: 0, summary: path, message: "\(name) was not deployed (its deployment failed)")
            }
            return found
        }
        let names = addresses
        let actorAddresses = actors.map { names[$0] ?? .zero }
        var actorNames: [Address: String] = [:]
        for (name, address) in zip(actors, actorAddresses) where actorNames[address] == nil { actorNames[address] = name }
        let actorName = actorNames

        var testActions: [InvariantTest.Action] = []
        for (index, action) in actions.enumerated() {
            switch action.operation {
            case .call(let contractName, let function, let arguments, let wei):
                let target = try contract(contractName, "actions[\(index)]")
                // Typed once now, so a constant of the wrong type is reported before any run.
                _ = try Self.typed(arguments.map { $0.draw(actor: actors[0], target: actors[0], value: 0) }, function, names: names, path: "actions[\(index)]")
                testActions.append(.init(action.name) { context in
                    let actor = actorName[context.actor] ?? context.actor.checksummed
                    let other = actorName[context.target] ?? context.target.checksummed
                    let drawn = arguments.map { $0.draw(actor: actor, target: other, value: context.value) }
                    let values = try Self.typed(drawn, function, names: names, path: action.name)
                    _ = try await target.send(function.signature, values, options: TransactOptions(value: wei))
                })
            case .skip(let seconds):
                testActions.append(.init(action.name) { context in
                    let drawn = seconds.draw(actor: "", target: "", value: context.value)
                    guard case .number(let text) = drawn, let amount = UInt64(text) else { throw TestFailure("\(action.name): \(drawn) is not a number of seconds") }
                    try await context.chain.skip(amount)
                })
            }
        }
        var testInvariants: [InvariantTest.Invariant] = []
        for (index, invariant) in invariants.enumerated() {
            let path = "invariants[\(index)]"
            let subject = try Self.prepared(invariant.call, contract(invariant.call.contract, path), names: names, path: path)
            let comparison: Comparison?
            switch invariant.check {
            case .succeeds: comparison = nil
            case .equals(let operand): comparison = .init(symbol: "==", operand: try prepared(operand, subject: subject, contracts: contracts, names: names, path: path))
            case .atMost(let operand): comparison = .init(symbol: "<=", operand: try prepared(operand, subject: subject, contracts: contracts, names: names, path: path))
            case .atLeast(let operand): comparison = .init(symbol: ">=", operand: try prepared(operand, subject: subject, contracts: contracts, names: names, path: path))
            }
            testInvariants.append(.init(invariant.name) { _ in try await Self.violation(subject, comparison) })
        }
        let test = InvariantTest(chain: chain, actors: actorAddresses, actions: testActions, invariants: testInvariants)
        return SimulationBench(spec: self, chain: chain, test: test, addresses: addresses)
    }

    /// The functions the actions and invariants call on `contract`.
    func functions(of contract: String) -> [ABIFunction] {
        var out: [ABIFunction] = []
        for action in actions {
            if case .call(let name, let function, _, _) = action.operation, name == contract { out.append(function) }
        }
        for invariant in invariants {
            if invariant.call.contract == contract { out.append(invariant.call.function) }
            switch invariant.check {
            case .equals(let operand), .atMost(let operand), .atLeast(let operand):
                if case .call(let call) = operand, call.contract == contract { out.append(call.function) }
                if case .sum(let name, let function, _) = operand, name == contract { out.append(function) }
            case .succeeds: break
            }
        }
        return out
    }

    static func typed(_ json: [JSONValue], _ function: ABIFunction, names: [String: Address], path: String) throws -> [ABIValue] {
        var values: [ABIValue] = []
        for (index, (value, parameter)) in zip(json, function.inputs).enumerated() {
            let label = parameter.name.isEmpty ? "argument \(index + 1)" : parameter.name
            do { values.append(try ContractScenario.abiValue(value, as: parameter.type, names: names, path: label)) } catch {
                throw TestFailure("\(path): \(function.signature) \(label): \(error)")
            }
        }
        return values
    }

    /// A view call with its arguments typed.
    struct PreparedCall: Sendable {
        var text: String
        var contract: Contract
        var function: ABIFunction
        var arguments: [ABIValue]

        /// The first output, or why the call failed.
        func value() async throws -> Result<ABIValue?, TestFailure> {
            do {
                return .success(try await contract.call(function.signature, arguments).first)
            } catch let error as ContractError where error.revert != nil {
                return .failure(TestFailure("\(text) reverted: \(error)"))
            }
        }
    }

    enum PreparedOperand: Sendable {
        case constant(ABIValue)
        case call(PreparedCall)
        case sum(text: String, [PreparedCall])
    }

    struct Comparison: Sendable {
        var symbol: String
        var operand: PreparedOperand
    }

    static func prepared(_ call: Call, _ contract: Contract, names: [String: Address], path: String) throws -> PreparedCall {
        PreparedCall(text: call.description, contract: contract, function: call.function, arguments: try typed(call.arguments, call.function, names: names, path: path))
    }

    func prepared(
        _ operand: Operand, subject: PreparedCall, contracts: [String: Contract], names: [String: Address], path: String
    ) throws -> PreparedOperand {
        switch operand {
        case .constant(let value):
            guard let output = subject.function.outputs.first else { throw TestFailure("\(path): \(subject.text) has no output to compare") }
            do { return .constant(try ContractScenario.abiValue(value, as: output.type, names: names, path: "\(path) value")) } catch {
                throw TestFailure("\(path): \(value) is not a \(output.type): \(error)")
            }
        case .call(let call):
            guard let contract = contracts[call.contract] else { throw TestFailure("\(path): \(call.contract) was not deployed") }
            return .call(try Self.prepared(call, contract, names: names, path: path))
        case .sum(let contractName, let function, let over):
            guard let contract = contracts[contractName] else { throw TestFailure("\(path): \(contractName) was not deployed") }
            var calls: [PreparedCall] = []
            for name in over {
                guard let address = names[name] else { throw TestFailure("\(path): no address for \(name)") }
                calls.append(PreparedCall(text: "\(contractName).\(function.name)(\(name))", contract: contract, function: function, arguments: [.address(address)]))
            }
            return .sum(text: operand.description, calls)
        }
    }

    /// Nil when `subject` returns and, with a comparison, compares as required; else what is wrong.
    static func violation(_ subject: PreparedCall, _ comparison: Comparison?) async throws -> String? {
        let left: ABIValue?
        switch try await subject.value() {
        case .failure(let failure): return failure.description
        case .success(let value): left = value
        }
        guard let comparison else { return nil }
        guard let left else { return "\(subject.text) returned nothing" }
        let right: ABIValue
        let rightText: String
        switch comparison.operand {
        case .constant(let value):
            right = value
            rightText = value.description
        case .call(let call):
            switch try await call.value() {
            case .failure(let failure): return failure.description
            case .success(.none): return "\(call.text) returned nothing"
            case .success(let value?): right = value
            }
            rightText = "\(call.text) \(right)"
        case .sum(let text, let calls):
            var total = UInt256.zero
            for call in calls {
                switch try await call.value() {
                case .failure(let failure): return failure.description
                case .success(.uint(let amount)?):
                    let (sum, overflow) = total.addingReportingOverflow(amount)
                    guard !overflow else { return "\(text) overflows 2^256" }
                    total = sum
                case .success(let other): return "\(call.text) is \(other.map(\.description) ?? "nothing"), not an unsigned number"
                }
            }
            right = .uint(total)
            rightText = "\(text) \(total)"
        }
        let holds: Bool
        switch (comparison.symbol, left, right) {
        case ("==", _, _): holds = left == right
        case ("<=", .uint(let a), .uint(let b)): holds = a <= b
        case (">=", .uint(let a), .uint(let b)): holds = a >= b
        default: return "\(subject.text) is \(left), \(rightText): \(comparison.symbol) compares unsigned numbers only"
        }
        return holds ? nil : "\(subject.text) is \(left), expected \(comparison.symbol) \(rightText)"
    }
}
