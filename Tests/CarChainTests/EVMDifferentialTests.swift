import CarChain
import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

/// The Must-show differential test of the Swift EVM: hundreds of random CarChain operation sequences on
/// the project's contract (contracts/CarChain.json), run as transactions by `TransactionExecutor` and by
/// py-evm (tools/xcheck/carchain_ops.py, mined mode), must give the same deployment (address and gasUsed)
/// and, for every operation, the same success or revert, return/revert data, logs (address, topics,
/// data) and gasUsed.
@Suite struct EVMDifferentialTests {
    static let sequenceCount = 200

    @Test func swiftEVMAgreesWithPyEVM() throws {
        var generator = OperationGenerator(seed: 0xD1FF_E7E5)
        let sequences = (0..<Self.sequenceCount).map { _ in generator.sequence(length: 4 + generator.below(15)) }
        let request = JSONValue.object([
            ("keys", .array(Keys.hex.map { .string($0) })),
            // Mined: one signed transaction per block, so gasUsed is the receipt's (py-evm's costless fast
            // mode never commits between transactions, which changes EIP-2200's original values).
            ("mined", .bool(true)),
            ("views", .bool(false)),
            ("sequences", .array(sequences.map { ops in .object([("ops", .array(ops.map(\.json)))]) })),
        ])
        let suite = "Swift EVM vs py-evm (CarChain ops)"
        guard let output = try PythonVenv.run(script: "xcheck/carchain_ops.py", input: Data(request.description.utf8), what: suite) else { return }
        let response = try JSONValue(parsing: [UInt8](output))
        let results = try #require(response["sequences"]?.arrayValue)
        try #require(results.count == sequences.count)

        var tally = ConformanceTally(suite: suite)
        var operations = 0
        var reverted = 0
        for (s, (ops, result)) in zip(sequences, results).enumerated() {
            let problems = Self.compare(ops, result, operations: &operations, reverted: &reverted)
            tally.record(problems.isEmpty ? .pass : .fail(problems.prefix(3).joined(separator: "; ")), case: "sequence \(s)")
        }
        tally.report()
        print("\(suite): \(sequences.count) sequences, \(operations) operations (\(reverted) reverted) identical in outcome, data, logs and gas")
        #expect(reverted > 0 && reverted < operations, "the sequences should mix successes and reverts")
    }

    /// Runs one sequence on the Swift EVM and lists every difference from py-evm's results.
    static func compare(_ ops: [GeneratedOperation], _ result: JSONValue, operations: inout Int, reverted: inout Int) -> [String] {
        // The same starting state as py-evm's LocalChain: every key funded, nonces 0, Cancun, gas price 0.
        let funded = UInt256(1_000_000) * UInt256(1_000_000_000_000_000_000 as UInt64)
        var state = WorldState(accounts: Dictionary(uniqueKeysWithValues: Keys.addresses.map { ($0, Account(balance: funded)) }))
        let block = BlockEnvironment(number: 1, timestamp: 1_700_000_000, gasLimit: 30_000_000, chainID: UInt256(4))
        var nonces = [UInt64](repeating: 0, count: Keys.addresses.count)

        func run(_ sender: Int, to: Address?, data: [UInt8], value: UInt256, gas: UInt64) throws -> Chain.TransactionOutcome {
            let tx = Transaction.legacy(
                LegacyTransaction(nonce: nonces[sender], gasPrice: .zero, gasLimit: gas, to: to, value: value, data: data, chainId: 4))
            let outcome = try TransactionExecutor.execute(
                ExecutableTransaction(tx, sender: Keys.addresses[sender]), state: &state, block: block, fork: .cancun)
            nonces[sender] += 1
            return outcome
        }

        var problems: [String] = []
        let deployment: Chain.TransactionOutcome
        do {
            deployment = try run(0, to: nil, data: CarChainArtifact.project.bytecode, value: .zero, gas: 6_700_000)
        } catch {
            return ["deployment rejected: \(error)"]
        }
        guard let contract = deployment.createdAddress else { return ["the deployment created no contract"] }
        if result["contract"]?.stringValue != contract.lowercasedHex {
            problems.append("contract at \(contract.lowercasedHex), py-evm \(result["contract"]?.stringValue ?? "nil")")
        }
        if result["deployGasUsed"]?.description != String(deployment.gasUsed) {
            problems.append("deployment gas \(deployment.gasUsed), py-evm \(result["deployGasUsed"]?.description ?? "nil")")
        }
        let steps = result["results"]?.arrayValue ?? []
        guard steps.count == ops.count else { return problems + ["\(steps.count) py-evm results for \(ops.count) ops"] }
        for (i, (op, step)) in zip(ops, steps).enumerated() {
            operations += 1
            let place = "op \(i) \(op.operation) from key \(op.sender)"
            let outcome: Chain.TransactionOutcome
            do {
                outcome = try run(op.sender, to: contract, data: op.operation.calldata, value: op.value, gas: 210_000)
            } catch {
                problems.append("\(place): rejected by the Swift executor: \(error)")
                break
            }
            if !outcome.isSuccess { reverted += 1 }
            let ok = step["ok"]?.boolValue
            if ok != outcome.isSuccess { problems.append("\(place): success \(outcome.isSuccess), py-evm \(ok.map { "\($0)" } ?? "nil")") }
            let pyOutput = bytes(step["output"])
            if pyOutput != outcome.output {
                problems.append("\(place): output \(Hex.encode(outcome.output)), py-evm \(Hex.encode(pyOutput))")
            }
            let pyGas = step["gasUsed"]?.description
            if pyGas != String(outcome.gasUsed) { problems.append("\(place): gasUsed \(outcome.gasUsed), py-evm \(pyGas ?? "nil")") }
            let pyLogs: [Log] = (step["logs"]?.arrayValue ?? []).map { log in
                Log(
                    address: log["address"]?.stringValue.flatMap { try? Address($0) } ?? .zero,
                    topics: (log["topics"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { try? Bytes32(hex: $0) } },
                    data: bytes(log["data"]))
            }
            if pyLogs != outcome.logs { problems.append("\(place): logs \(outcome.logs), py-evm \(pyLogs)") }
            if !problems.isEmpty { break }  // later steps would only repeat the divergence
        }
        return problems
    }
}
