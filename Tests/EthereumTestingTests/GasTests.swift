import Chain
import EthereumContracts
import EthereumTesting
import Foundation
import Testing
import TestSupport

/// The bench's gas records, report and `.gas-snapshot` against an independent EVM: the same transactions on py-evm
/// (tools/xcheck/testing_gas.py) must use the same gas, receipt by receipt.
@Suite(.serialized) struct GasTests {
    struct Request: Encodable {
        struct Step: Encodable {
            var sender: Int
            var to: String?
            var data: String
        }
        var fork: String
        var keys: [String]
        var steps: [Step]
    }

    struct Response: Decodable {
        struct Step: Decodable {
            var ok: Bool
            var gasUsed: UInt64
        }
        var steps: [Step]
    }

    @Test func gasRecordsReportAndSnapshotAgreeWithPyEVM() async throws {
        guard let artifact = try await TestContracts.bank() else { return }
        guard let python = PythonVenv.python(for: "EthereumTesting gas against py-evm") else { return }
        let t = try await TestChain(hardfork: .cancun)
        defer { Task { await t.close() } }
        let a = t.accounts
        let (bank, _) = try await Bank.deploy(bytecode: try #require(artifact.bytecode), opens_at: 0, backend: t)
        t.label(bank.address, "Bank", abi: Bank.abi)
        // Storage from zero and from non-zero, a custom-error revert, a self-move (the bug), a full withdrawal (refund).
        let testGas = try await t.measureGas {
            try await t.prank(a[0]) { _ = try await bank.deposit(amount: 100) }
            try await t.prank(a[1]) { _ = try await bank.deposit(amount: 50) }
            try await t.prank(a[0]) { _ = try await bank.deposit(amount: 1) }
            try await t.prank(a[0]) { _ = try await bank.move(receiver: a[2], amount: 30) }
            try await t.prank(a[1]) { _ = try await bank.move(receiver: a[1], amount: 10) }
            try await t.expectRevert(Bank.Error.insufficientBalance(available: 71, requested: 72)) {
                try await t.prank(a[0]) { _ = try await bank.withdraw(amount: 72) }
            }
            try await t.prank(a[0]) { _ = try await bank.withdraw(amount: 71) }
        }
        let sent = t.transactions
        #expect(sent.count == 8)

        let keys = try (0..<3).map { try Hex.encode(DevAccounts.key(index: UInt32($0)).rawBytes) }
        let steps = sent.map { tx in
            Request.Step(sender: a.firstIndex(of: tx.sender) ?? -1, to: tx.request.to == nil ? nil : "deployed", data: Hex.encode(tx.request.data))
        }
        let pyevm = try await PythonVenv.runJSON(
            python, script: "testing_gas.py", request: Request(fork: "Cancun", keys: keys, steps: steps), as: Response.self)
        #expect(pyevm.steps.count == sent.count)
        for (index, (ours, theirs)) in zip(sent, pyevm.steps).enumerated() {
            #expect(ours.outcome.gasUsed == theirs.gasUsed, "step \(index): the bench used \(ours.outcome.gasUsed), py-evm \(theirs.gasUsed)")
            #expect(ours.outcome.succeeded == theirs.ok, "step \(index)")
        }
        #expect(testGas == pyevm.steps.dropFirst().reduce(0) { $0 + $1.gasUsed })

        // The report and the snapshot are computed from those receipts with forge's statistics.
        let report = await t.gasReport()
        let deposit = try #require(report.function("Bank", "deposit"))
        let deposits = [1, 2, 3].map { pyevm.steps[$0].gasUsed }.sorted()
        #expect(deposit.count == 3 && deposit.min == deposits[0] && deposit.median == deposits[1] && deposit.max == deposits[2])
        #expect(deposit.avg == deposits.reduce(0, +) / 3)
        let withdraw = try #require(report.function("Bank", "withdraw"))
        #expect(withdraw.count == 2 && withdraw.median == (pyevm.steps[6].gasUsed + pyevm.steps[7].gasUsed) / 2)
        let snapshot = await t.gasSnapshot(extra: ["GasTests:bankScenario": testGas])
        let runtime = try await t.code(at: bank.address, block: .latest).count
        #expect(
            snapshot.text.contains(
                "Bank:(deployment)@Cancun (gas: \(pyevm.steps[0].gasUsed), size: \(sent[0].request.data.count), runtimeSize: \(runtime))"),
            "\(snapshot.text)")
        #expect(
            snapshot.text.contains(
                "Bank:deposit@Cancun (calls: 3, min: \(deposit.min), mean: \(deposit.avg), median: \(deposit.median), max: \(deposit.max))"))
        #expect(snapshot.text.contains("GasTests:bankScenario@Cancun (gas: \(testGas))"))
        #expect(try GasSnapshot(parsing: snapshot.text, source: "test") == snapshot)
        #expect("\(report)".contains("Bank (Cancun)"))

        // checkGasSnapshot: written when missing, passes on the same run, fails on a rise beyond the tolerance.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ethereum-testing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(".gas-snapshot").path
        let extra = ["GasTests:bankScenario": testGas]
        #expect(try await t.checkGasSnapshot(at: path, extra: extra, update: false).isEmpty)
        #expect(try await t.checkGasSnapshot(at: path, extra: extra, update: false).isEmpty)
        let lowered = snapshot.text.replacingOccurrences(
            of: "median: \(deposit.median), max: \(deposit.max))", with: "median: \(deposit.median - 100), max: \(deposit.max))")
        try Data(lowered.utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: TestFailure.self) { try await t.checkGasSnapshot(at: path, extra: extra, update: false) }
        // Within tolerance (100 gas of ~45,000 is well under 1%), it passes and lists the change.
        let changes = try await t.checkGasSnapshot(at: path, tolerance: 1, extra: extra, update: false)
        #expect(changes.map(\.key) == ["Bank:deposit@Cancun"])
    }
}
