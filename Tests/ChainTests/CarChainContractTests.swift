import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Testing

/// Deploys the project's CarChain contract (contracts/CarChain.json) and uses it through raw
/// transactions and calls.
@Suite struct CarChainContractTests {
    typealias F = ChainFixtures

    @Test func deployRegisterRentAndRead() async throws {
        let chain = try await DevChain(config: .deterministic())
        var nonce: UInt64 = 0
        func send(_ data: [UInt8], to: Address?, gas: UInt64 = 3_000_000) async throws -> Receipt {
            let hash = try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: to, data: data, gas: gas).encoded)
            nonce += 1
            return try #require(try await chain.receipt(hash: hash))
        }
        let deployment = try await send(try F.carChainBytecode(), to: nil)
        #expect(deployment.status)
        let carChain = try #require(deployment.contractAddress)
        #expect(!(try await chain.code(carChain)).isEmpty)

        let manager = try await chain.call(CallRequest(to: carChain, data: F.encodeCall("manager()", [])))
        #expect(manager.output == [UInt8](repeating: 0, count: 12) + F.address0.bytes)

        #expect(try await send(F.encodeCall("registerNewCar(string)", [.string("CAR-1")]), to: carChain).status)
        let registered = try await send(F.encodeCall("registerNewUser(string)", [.string("alice")]), to: carChain)
        #expect(registered.status && registered.logs.count == 1)
        #expect(registered.logs[0].topics == [Keccak256.hash("UserRegistered(string,address)")])
        #expect(try await send(F.encodeCall("addCredit(string,uint256)", [.string("alice"), .uint(UInt256(5))]), to: carChain).status)

        let rentData = F.encodeCall("rentCar(string,string)", [.string("CAR-1"), .string("alice")])
        let gas = try await chain.estimateGas(CallRequest(from: F.address0, to: carChain, data: rentData))
        let rented = try await send(rentData, to: carChain, gas: gas)
        #expect(rented.status && rented.gasUsed <= gas)
        #expect(rented.logs.first?.topics.first == Keccak256.hash("CarRented(string,string)"))

        let car = try await chain.call(CallRequest(to: carChain, data: F.encodeCall("getUserCar(string)", [.string("alice")])))
        #expect(F.decodeString(car.output) == "CAR-1")
        let credit = try await chain.call(CallRequest(to: carChain, data: F.encodeCall("getUserCredit(string)", [.string("alice")])))
        #expect(credit.output == F.word(UInt256(4)))
        let rentedCount = try await chain.call(CallRequest(to: carChain, data: F.encodeCall("rentedCars()", [])))
        #expect(rentedCount.output == F.word(.one))

        // Renting again reverts with the contract's reason, in a call and in a mined transaction.
        let again = try await chain.call(CallRequest(from: F.address0, to: carChain, data: rentData))
        #expect(again.error == .executionReverted(data: again.output, reason: "car already rented"))
        let failed = try await send(rentData, to: carChain, gas: 200_000)
        #expect(!failed.status && failed.logs.isEmpty)

        // The CarChain logs are found by address and event topic.
        let rentedLogs = try await chain.logs(
            LogFilter(fromBlock: .earliest, addresses: [carChain], topics: [[Keccak256.hash("CarRented(string,string)")]]))
        #expect(rentedLogs.count == 1 && rentedLogs[0].transactionHash == rented.transactionHash)
        #expect(await chain.currentState().stateRoot == (try #require(try await chain.block(.latest))).header.stateRoot)
    }
}
