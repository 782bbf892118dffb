import Chain
import EVM
import EthereumPrimitives
import EthereumCrypto
import EthereumTransactions
import Foundation
import Testing

/// Measures automined throughput (transfers and CarChain rentCar, in memory and on SQLite) and
/// `eth_call` latency, and prints the figures. The targets (≥ 1,000 rentCar tx/s, eth_call p50
/// ≤ 0.3 ms) apply to release builds; a debug build prints its (slower) numbers without judging.
@Suite struct ThroughputTests {
    typealias F = ChainFixtures

    #if DEBUG
    static let count = 150
    #else
    static let count = 2_000
    #endif

    @Test(arguments: [false, true])
    func automineThroughput(onDisk: Bool) async throws {
        let directory = F.temporaryDirectory("throughput\(onDisk)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chain = try await DevChain(config: .deterministic(), storage: onDisk ? .directory(directory) : .memory)
        let label = onDisk ? "SQLite" : "memory"

        // Transfers, pre-signed so signing is not measured.
        let transfers = (0..<Self.count).map { F.dynamicFee(F.key1, nonce: UInt64($0), to: F.address0, value: .one).encoded }
        var start = ContinuousClock.now
        for raw in transfers { try await chain.sendRawTransaction(raw) }
        let transferRate = Double(Self.count) / Self.seconds(ContinuousClock.now - start)

        // CarChain: deploy, register cars and users with credit, then time rentCar.
        let scenario = try CarChainScenario(count: Self.count)
        for raw in scenario.setUp { try await chain.sendRawTransaction(raw) }
        start = ContinuousClock.now
        for raw in scenario.rentals { try await chain.sendRawTransaction(raw) }
        let rentRate = Double(Self.count) / Self.seconds(ContinuousClock.now - start)
        let lastRental = try #require(scenario.rentals.last)
        let lastReceipt = try await chain.receipt(hash: Keccak256.hash(lastRental))
        #expect(lastReceipt?.status == true)

        // eth_call latency (getUserCredit), median of many.
        var samples: [Double] = []
        let call = CallRequest(to: scenario.contract, data: F.encodeCall("getUserCredit(string)", [.string("user-7")]))
        for _ in 0..<500 {
            let t = ContinuousClock.now
            _ = try await chain.call(call)
            samples.append(Self.seconds(ContinuousClock.now - t) * 1000)
        }
        samples.sort()
        print(
            "ChainThroughput (\(label)): transfers \(Int(transferRate)) tx/s, rentCar \(Int(rentRate)) tx/s, "
                + "eth_call p50 \(String(format: "%.3f", samples[samples.count / 2])) ms over \(Self.count) tx each")
        await chain.close()
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// Pre-signed CarChain transactions from the first dev account (the manager): deployment, `count`
/// cars and users each with credit 10, then one rentCar per user.
struct CarChainScenario {
    var contract: Address
    var setUp: [[UInt8]] = []
    var rentals: [[UInt8]] = []

    init(count: Int, key: PrivateKeyBox = .init(ChainFixtures.key0), firstNonce: UInt64 = 0) throws {
        typealias F = ChainFixtures
        var nonce = firstNonce
        func sign(_ to: Address?, _ data: [UInt8], gas: UInt64) -> [UInt8] {
            defer { nonce += 1 }
            return F.dynamicFee(key.key, nonce: nonce, to: to, data: data, gas: gas).encoded
        }
        contract = ContractAddress.create(sender: key.key.address, nonce: nonce)
        setUp.append(sign(nil, try F.carChainBytecode(), gas: 3_000_000))
        for i in 0..<count {
            setUp.append(sign(contract, F.encodeCall("registerNewCar(string)", [.string("CAR-\(i)")]), gas: 200_000))
            setUp.append(sign(contract, F.encodeCall("registerNewUser(string)", [.string("user-\(i)")]), gas: 200_000))
            setUp.append(
                sign(contract, F.encodeCall("addCredit(string,uint256)", [.string("user-\(i)"), .uint(UInt256(10))]), gas: 200_000))
        }
        for i in 0..<count {
            rentals.append(
                sign(contract, F.encodeCall("rentCar(string,string)", [.string("CAR-\(i)"), .string("user-\(i)")]), gas: 200_000))
        }
    }
}

/// Wraps a key so the scenario's initializer can take it as a default argument.
struct PrivateKeyBox {
    var key: EthereumCrypto.PrivateKey
    init(_ key: EthereumCrypto.PrivateKey) { self.key = key }
}
