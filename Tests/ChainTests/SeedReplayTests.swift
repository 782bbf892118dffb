import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

/// The seed contract replay (../shared/seed-carchain/README.md) on the Swift EVM: the seed's CarChain
/// artifact deployed and driven through the README's 19 steps as signed legacy EIP-155 transactions
/// (chain id 4, key 0x01…01, one transaction per block) by `TransactionExecutor`, for every fork column
/// of the README's gas table. Every receipt's gasUsed and success must equal the table's figure; the
/// table is read from the README itself, so nothing here restates it.
@Suite struct SeedReplayTests {
    static let uid1 = "O6fLnMnVXAUWmxdIYatVNzaE31i1"
    static let uid2 = "I7ZgpBfkQTMaEcUrcNlrcjolez22"
    typealias F = ChainFixtures

    /// Calldata of steps 1–18, in the README's order.
    static var steps: [[UInt8]] {
        let (u1, u2) = (F.ABIArgument.string(uid1), F.ABIArgument.string(uid2))
        func car(_ plate: String) -> F.ABIArgument { .string(plate) }
        return [
            F.encodeCall("registerNewUser(string)", [u1]),
            F.encodeCall("registerNewUser(string)", [u2]),
            F.encodeCall("registerNewUser(string)", [u1]),
            F.encodeCall("registerNewCar(string)", [car("6789BBB")]),
            F.encodeCall("registerNewCar(string)", [car("2353HYP")]),
            F.encodeCall("registerNewCar(string)", [car("5432TPK")]),
            F.encodeCall("addCredit(string,uint256)", [u1, .uint(UInt256(111))]),
            F.encodeCall("addCredit(string,uint256)", [u1, .uint(UInt256(5))]),
            F.encodeCall("addCredit(string,uint256)", [u2, .uint(UInt256(1))]),
            F.encodeCall("rentCar(string,string)", [car("6789BBB"), u1]),
            F.encodeCall("rentCar(string,string)", [car("2353HYP"), u1]),
            F.encodeCall("rentCar(string,string)", [car("2353HYP"), u2]),
            F.encodeCall("returnCar(string,string)", [car("2353HYP"), u2]),
            F.encodeCall("returnCar(string,string)", [car("6789BBB"), u1]),
            F.encodeCall("rentCar(string,string)", [car("6789BBB"), u1]),
            F.encodeCall("returnCar(string,string)", [car("6789BBB"), u1]),
            F.encodeCall("rentCar(string,string)", [car("6789BBB"), u2]),
            F.encodeCall("returnCar(string,string)", [car("6789BBB"), u1]),
        ]
    }

    /// The README's table: fork names (column order) and per step the expected success and gas per fork.
    struct GasTable {
        var forks: [String] = []
        var rows: [(ok: Bool, gas: [UInt64])] = []
    }

    static func parseTable(_ readme: String) throws -> GasTable {
        var table = GasTable()
        for line in readme.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3 else { continue }
            if cells[0] == "#" {
                table.forks = Array(cells[3...])
            } else if let step = Int(cells[0]) {
                try #require(step == table.rows.count, "table rows out of order at step \(step)")
                let gas = cells[3...].compactMap { UInt64($0) }
                try #require(gas.count == table.forks.count, "step \(step): \(gas.count) figures for \(table.forks.count) forks")
                table.rows.append((cells[2] == "True", gas))
            }
        }
        return table
    }

    @Test func seedScenarioGasOnEveryFork() throws {
        guard let readmeURL = TestPaths.shared("seed-carchain/README.md", what: "seed CarChain README"),
            let artifactURL = TestPaths.shared("seed-carchain/CarChain.json", what: "seed CarChain artifact")
        else { return }
        let table = try Self.parseTable(String(contentsOf: readmeURL, encoding: .utf8))
        try #require(table.forks.count >= 8 && table.rows.count == 19, "unexpected table shape: \(table.forks), \(table.rows.count) rows")
        let json = try JSONValue(parsing: [UInt8](Data(contentsOf: artifactURL)))
        let bytecode = try Hex.decode(try #require(json["bytecode"]?.stringValue))
        let key = try PrivateKey(bytes: [UInt8](repeating: 1, count: 32))
        let calls = Self.steps

        var tally = ConformanceTally(suite: "SeedReplayTests")
        for (column, forkName) in table.forks.enumerated() {
            let fork = try #require(Hardfork(name: forkName), "unknown fork \(forkName)")
            let sender = key.publicKey.address
            var state = WorldState(accounts: [sender: Account(balance: F.oneEther * UInt256(1000))])
            var contract: Address?
            for (step, row) in table.rows.enumerated() {
                let data = step == 0 ? bytecode : calls[step - 1]
                let tx = Transaction.legacy(
                    LegacyTransaction(
                        nonce: UInt64(step), gasPrice: UInt256(10_000_000_000 as UInt64), gasLimit: step == 0 ? 6_700_000 : 210_000,
                        to: step == 0 ? nil : contract, value: .zero, data: data, chainId: 4)
                ).sign(with: key)
                let label = "\(forkName) step \(step)"
                let recovered: Address
                do { recovered = try tx.validate(for: fork, chainID: 4) } catch {
                    tally.record(.fail("signature: \(error)"), case: label)
                    continue
                }
                let block = BlockEnvironment(
                    number: UInt64(step + 1), timestamp: 1_600_000_000 + 12 * UInt64(step + 1), gasLimit: 30_000_000,
                    difficulty: fork < .paris ? UInt256(131_072) : .zero, baseFee: fork >= .london ? UInt256(7) : .zero,
                    chainID: UInt256(4))
                let outcome: TransactionOutcome
                do {
                    outcome = try TransactionExecutor.execute(ExecutableTransaction(tx, sender: recovered), state: &state, block: block, fork: fork)
                } catch {
                    tally.record(.fail("rejected: \(error)"), case: label)
                    continue
                }
                if step == 0 { contract = outcome.createdAddress }
                let expected = row.gas[column]
                tally.check(
                    outcome.gasUsed == expected && outcome.isSuccess == row.ok, label,
                    "gasUsed \(outcome.gasUsed) (table \(expected)), success \(outcome.isSuccess) (table \(row.ok))")
            }
            #expect(contract != nil, "\(forkName): the deployment created no contract")
        }
        tally.report()
        #expect(tally.passed == table.forks.count * table.rows.count)
    }
}
