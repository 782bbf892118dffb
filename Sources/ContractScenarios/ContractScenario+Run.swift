import EthereumABI
import EthereumContracts
import EthereumPrimitives

/// What one step of a ``ContractScenario`` did.
public struct ContractScenarioStepResult: Sendable, Equatable {
    /// 1 for the first step.
    public var number: Int
    public var step: ContractScenario.Step
    /// The function's name in gas reports: its name, or its signature when the ABI overloads it (as
    /// EthereumTesting's `TestChain.gasReport()` names it); `(deployment)` for a deployment.
    public var function: String
    /// The receipt.
    public var outcome: TransactionOutcome
    /// Why it reverted (decoded with the contract's ABI and the expected error); nil when it succeeded.
    public var revert: RevertReason?

    public var succeeded: Bool { outcome.succeeded }
    /// `success`, or the revert as people read it (`reverted: car not rented`, `reverted with Locked(unlocksAt=…)`).
    public var outcomeDescription: String { revert?.description ?? "success" }
}

/// A finished run of a ``ContractScenario``.
public struct ContractScenarioRun: Sendable {
    /// A contract the scenario deployed.
    public struct DeployedContract: Sendable, Hashable {
        public var name: String
        public var address: Address
        /// The ABI the steps call it with (the artifact's, plus any signature a step named that it lacks).
        public var abi: ContractABI
        /// The deployment's receipt.
        public var deployment: TransactionOutcome
        /// The creation transaction's data in bytes (forge's Deployment Size).
        public var creationSize: Int
        /// The code at its address after deployment.
        public var runtimeSize: Int
    }

    public var scenario: String
    /// In deployment order (a failed deployment is not listed; its step is).
    public var contracts: [DeployedContract]
    public var steps: [ContractScenarioStepResult]

    /// Every call step's result on the contract named `name`, in order.
    public func calls(to name: String) -> [ContractScenarioStepResult] {
        steps.filter { if case .call(let contract, _) = $0.step.action { return contract == name } else { return false } }
    }
}

extension ContractScenario {
    /// The gas limit of every transaction when the file gives none (EthereumTesting's `TestChain` default, below
    /// EIP-7825's 2^24 cap): fixed rather than estimated, so a step meant to revert is mined and charged.
    public static let defaultGasLimit: UInt64 = 16_000_000

    /// The name of `function` in gas reports: its name, or its signature when `abi` overloads the name.
    public static func reportName(of function: ABIFunction, in abi: ContractABI) -> String {
        abi.functions.filter { $0.name == function.name }.count > 1 ? function.signature : function.name
    }

    /// Runs the scenario through any backend that sends as each account (`addresses`: account name → address), with
    /// the scenario's gas limits (else ``defaultGasLimit``). A step whose outcome differs from its `"expect"` throws
    /// ``ContractScenarioError/expectationFailed(scenario:step:summary:from:expected:got:)`` when `checkExpectations`.
    public func run(
        backend: any ContractBackend, addresses: [String: Address], checkExpectations: Bool = true,
        deployed: (ContractScenarioRun.DeployedContract) -> Void = { _ in }
    ) async throws -> ContractScenarioRun {
        var contracts: [String: ContractScenarioRun.DeployedContract] = [:]
        var order: [String] = []
        var results: [ContractScenarioStepResult] = []
        // Every signature a step names is part of its contract's ABI (for names in reports, decoded traces).
        var abis: [String: ContractABI] = [:]
        for step in steps {
            switch step.action {
            case .deploy(let contract, let artifact): abis[contract] = artifact.abi
            case .call(let contract, let function):
                if abis[contract]?.functions.contains(where: { $0.signature == function.signature }) == false {
                    abis[contract]?.items.append(.function(function))
                }
            }
            if case .customError(_, let error?, _) = step.expect,
                abis[step.contract]?.errors.contains(where: { $0.signature == error.signature }) == false
            {
                abis[step.contract]?.items.append(.error(error))
            }
        }
        for (index, step) in steps.enumerated() {
            let number = index + 1
            func failed(_ message: String) -> ContractScenarioError {
                .failed(scenario: name, step: number, summary: step.summary, message: message)
            }
            guard let sender = addresses[step.from] else { throw failed("no address for account \(step.from)") }
            let abi = abis[step.contract] ?? ContractABI(items: [])
            let request: TransactionRequest
            let function: String
            switch step.action {
            case .deploy(_, let artifact):
                let constructor = artifact.abi.constructor ?? ABIConstructor()
                let arguments = try typed(step.arguments, constructor.inputs, addresses: addresses, contracts: contracts, step: failed)
                let data: [UInt8]
                do { data = try constructor.encodeDeployment(bytecode: artifact.bytecode ?? [], arguments: arguments) } catch {
                    throw failed("constructor arguments: \(error)")
                }
                request = TransactionRequest(to: nil, data: data, value: step.value, gasLimit: deploymentGasLimit ?? Self.defaultGasLimit)
                function = GasSnapshot.deploymentName
            case .call(let contract, let abiFunction):
                guard let target = contracts[contract] else { throw failed("\(contract) was not deployed (its deployment failed)") }
                let arguments = try typed(step.arguments, abiFunction.inputs, addresses: addresses, contracts: contracts, step: failed)
                let data: [UInt8]
                do { data = try abiFunction.encodeCall(arguments) } catch { throw failed("arguments: \(error)") }
                request = TransactionRequest(to: target.address, data: data, value: step.value, gasLimit: callGasLimit ?? Self.defaultGasLimit)
                function = Self.reportName(of: abiFunction, in: abi)
            }
            let outcome = try await backend.send(request, from: sender)
            let revert = outcome.succeeded ? nil : RevertReason(data: outcome.revertData ?? [], errors: abi.errors)
            let result = ContractScenarioStepResult(number: number, step: step, function: function, outcome: outcome, revert: revert)
            if checkExpectations, let expected = step.expect, !(try matches(expected, result, addresses: addresses, contracts: contracts, step: failed)) {
                throw ContractScenarioError.expectationFailed(
                    scenario: name, step: number, summary: step.summary, from: step.from, expected: expected.description,
                    got: result.outcomeDescription)
            }
            results.append(result)
            if case .deploy(let contract, _) = step.action, outcome.succeeded, let address = outcome.contractAddress {
                let runtime = try await backend.code(at: address, block: .latest).count
                let entry = ContractScenarioRun.DeployedContract(
                    name: contract, address: address, abi: abi, deployment: outcome, creationSize: request.data.count, runtimeSize: runtime)
                contracts[contract] = entry
                order.append(contract)
                deployed(entry)
            }
        }
        return ContractScenarioRun(scenario: name, contracts: order.compactMap { contracts[$0] }, steps: results)
    }

    /// The file's arguments as ABI values of `parameters`' types; an address may be an account's or a deployed
    /// contract's name.
    func typed(
        _ arguments: [JSONValue], _ parameters: [ABIParameter], addresses: [String: Address],
        contracts: [String: ContractScenarioRun.DeployedContract], step failed: (String) -> ContractScenarioError
    ) throws -> [ABIValue] {
        var values: [ABIValue] = []
        for (index, (argument, parameter)) in zip(arguments, parameters).enumerated() {
            let label = parameter.name.isEmpty ? "argument \(index + 1)" : parameter.name
            do {
                values.append(try Self.value(argument, as: parameter.type, addresses: addresses, contracts: contracts, path: label))
            } catch {
                throw failed("\(label): \(error)")
            }
        }
        return values
    }

    static func value(
        _ json: JSONValue, as type: ABIType, addresses: [String: Address], contracts: [String: ContractScenarioRun.DeployedContract],
        path: String
    ) throws -> ABIValue {
        if case .address = type, case .string(let text) = json, let named = addresses[text] ?? contracts[text]?.address {
            return .address(named)
        }
        switch (type, json) {
        case (.array(let element, let count), .array(let items)) where count == nil || count == items.count:
            return .array(try items.enumerated().map { try value($1, as: element, addresses: addresses, contracts: contracts, path: "\(path)[\($0)]") })
        case (.tuple(let components), .array(let items)) where items.count == components.count:
            return .tuple(try zip(items, components).enumerated().map {
                try value($1.0, as: $1.1, addresses: addresses, contracts: contracts, path: "\(path).\($0)")
            })
        default:
            return try ABIValue(json: json, as: type, path: path)
        }
    }

    func matches(
        _ expected: Expectation, _ result: ContractScenarioStepResult, addresses: [String: Address],
        contracts: [String: ContractScenarioRun.DeployedContract], step failed: (String) -> ContractScenarioError
    ) throws -> Bool {
        switch (expected, result.revert) {
        case (.success, let revert): return revert == nil && result.succeeded
        case (_, nil): return false
        case (.revert(nil), _): return true
        case (.revert(let reason?), .error(let message)?): return reason == message
        case (.panic(let code), .panic(let panic)?): return panic.code == code
        case (.customError(let name, let error, let arguments), .custom(let raised, let values)?):
            guard raised.name == name, error.map({ $0.signature == raised.signature }) ?? true else { return false }
            guard let arguments else { return true }
            guard arguments.count == raised.inputs.count else { return false }
            let wanted = try typed(arguments, raised.inputs, addresses: addresses, contracts: contracts, step: failed)
            return wanted == values
        default: return false
        }
    }
}
