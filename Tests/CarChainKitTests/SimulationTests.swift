import CarChain
import CarChainKit
import EthereumPrimitives
import Testing
import TestSupport

@Suite struct SimulationTests {
    @Test func workloadIsAFunctionOfTheSeed() {
        let model = CarChainModel(manager: .zero)
        var a = SimulationWorkload(seed: 5, users: 4, cars: 3)
        var b = SimulationWorkload(seed: 5, users: 4, cars: 3)
        let accounts = (1...4).map { Address(bytes: [UInt8](repeating: UInt8($0), count: 20)) ?? .zero }
        for _ in 0..<200 {
            let x = a.next(model: model, accounts: accounts)
            let y = b.next(model: model, accounts: accounts)
            #expect(x.sender == y.sender && x.operation == y.operation)
        }
    }

    @Test func sameSeedSameStateRoot() async throws {
        let options = SimulationOptions(seed: 42, users: 5, cars: 3, steps: 120)
        let first = try await CarChainSimulation.run(options)
        let second = try await CarChainSimulation.run(options)
        #expect(first.stateRoot == second.stateRoot)
        #expect(first.blockNumber == 121)
        #expect(first.gasReport == second.gasReport)
        let other = try await CarChainSimulation.run(SimulationOptions(seed: 43, users: 5, cars: 3, steps: 120))
        #expect(other.stateRoot != first.stateRoot)
        print("SimulationTests: seed 42 × 120 steps → state root \(first.stateRoot) (twice); seed 43 → \(other.stateRoot)")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func chainAgreesWithModel(seed: UInt64) async throws {
        let report = try await CarChainSimulation.run(SimulationOptions(seed: seed, users: 6, cars: 4, steps: 300))
        let total = report.operations.reduce(0) { $0 + $1.succeeded + $1.reverted }
        #expect(total == 300)
        #expect(report.operations.map(\.name) == ["addCredit", "registerNewCar", "registerNewUser", "rentCar", "returnCar"])
        // The workload reaches both outcomes of the main functions and a variety of refusals.
        for name in ["rentCar", "returnCar", "addCredit"] {
            let op = report.operations.first { $0.name == name }
            #expect((op?.succeeded ?? 0) > 0 && (op?.reverted ?? 0) > 0, "\(name): \(String(describing: op))")
        }
        #expect(report.revertReasons.count >= 6, "\(report.revertReasons)")
        #expect(report.readsChecked > 300 * 5)
        print("SimulationTests seed \(seed): 300 steps agreed, \(report.readsChecked) reads, \(report.revertReasons.count) refusal kinds, root \(report.stateRoot)")
    }

    @Test func disagreementDescribesBothSides() {
        let d = SimulationDisagreement(step: 17, operation: #"rentCar("SIM-001", "user-02")"#, sender: "manager", subject: "outcome", chain: "success", model: "reverted: car already rented")
        #expect(d.description == #"simulation step 17: rentCar("SIM-001", "user-02") from manager: outcome differs: chain success, model reverted: car already rented"#)
    }
}
