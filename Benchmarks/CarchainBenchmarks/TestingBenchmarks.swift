import Benchmark
import Chain
import EthereumABI
import EthereumContracts
import EthereumCrypto
import EthereumPrimitives
import EthereumTesting
import EthereumTransactions
import Foundation

/// EthereumTesting's bench (docs/TESTING.md, "Speed"): a unit test as forge runs one (a fresh bench, deploy, 10 calls,
/// a snapshot and a revert), and an ERC-20 invariant run of 10,000 calls from four actors with the supply invariant
/// checked after each, next to the same 10,000 calls sent as raw signed transactions to a `DevChain` (the floor: no
/// bench, no pranks, no checks). The ERC-20 is snekmate's, compiled by the venv's vyper when the suite starts.
func registerTestingBenchmarks() {
    guard let erc20 = TestingBenchmarkContracts.erc20() else {
        print("SKIPPED: EthereumTesting benchmarks (no vyper and snekmate in the venv; run make venv)")
        return
    }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 200)
    let runConfiguration = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .milliseconds, maxDuration: .seconds(30), maxIterations: 5)
    let steps = TestingBenchmarkContracts.steps(10_000, seed: 42)

    Benchmark("EthereumTesting unit test (new bench, deploy, 10 calls, snapshot and revert)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let t = try await TestChain()
            let (token, _) = try await Contract.deploy(erc20, arguments: TestingBenchmarkContracts.constructorArguments, backend: t)
            let alice = t.makeAddress("alice")
            let bob = t.makeAddress("bob")
            try await token.send("mint", [.address(alice), .uint(1_000)])
            for i in 0..<8 { try await t.prank(alice) { _ = try await token.send("transfer", [.address(bob), .uint(UInt256(UInt64(i + 1)))]) } }
            let id = try await t.snapshot()
            try await t.prank(bob) { _ = try await token.send("burn", [.uint(1)]) }
            try await t.revert(to: id)
            blackHole(try await token.call("totalSupply"))
            await t.close()
        }
    }

    Benchmark("EthereumTesting ERC-20 invariant run (10,000 calls, supply checked after each)", configuration: runConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            let t = try await TestChain()
            let (token, _) = try await Contract.deploy(erc20, arguments: TestingBenchmarkContracts.constructorArguments, backend: t)
            let actors = Array(t.accounts.prefix(4))
            var reverts = 0
            for step in steps {
                do {
                    try await t.prank(actors[step.actor]) {
                        _ = try await token.send(step.function.signature, TestingBenchmarkContracts.arguments(step, actors))
                    }
                } catch let error as ContractError where error.revert != nil {
                    reverts += 1
                }
                var sum = UInt256.zero
                for actor in actors {
                    guard case .uint(let balance)? = try await token.call("balanceOf", [.address(actor)]).first else { fatalError("balanceOf") }
                    sum = sum &+ balance
                }
                guard case .uint(let supply)? = try await token.call("totalSupply").first, supply == sum else {
                    fatalError("the supply invariant broke")
                }
            }
            blackHole(reverts)
            await t.close()
        }
    }

    Benchmark("DevChain ERC-20 raw transactions (the same 10,000 calls, signed, no checks)", configuration: runConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            var config = ChainConfig.deterministic()
            config.initialBaseFee = .zero
            let chain = try await DevChain(config: config, storage: .memory)
            let keys = try (0..<4).map { try DevAccounts.key(index: UInt32($0)) }
            var nonces = [UInt64](repeating: 0, count: 4)
            func send(_ actor: Int, to: Address?, data: [UInt8]) async throws -> Bytes32 {
                let transaction = Transaction.legacy(
                    LegacyTransaction(
                        nonce: nonces[actor], gasPrice: .zero, gasLimit: TestChain.transactionGasLimit, to: to, value: .zero, data: data,
                        chainId: chain.chainId))
                nonces[actor] += 1
                return try await chain.sendRawTransaction(transaction.sign(with: keys[actor]).encoded)
            }
            let constructor = erc20.abi.constructor ?? ABIConstructor()
            let deployment = try await send(
                0, to: nil, data: try constructor.encodeDeployment(bytecode: erc20.bytecode ?? [], arguments: TestingBenchmarkContracts.constructorArguments))
            guard let token = try await chain.receipt(hash: deployment)?.contractAddress else { fatalError("no ERC-20") }
            let actors = keys.map(\.address)
            for step in steps {
                blackHole(try await send(step.actor, to: token, data: try step.function.encodeCall(TestingBenchmarkContracts.arguments(step, actors))))
            }
            await chain.close()
        }
    }
}

/// The ERC-20 and the call sequence the EthereumTesting benchmarks share.
enum TestingBenchmarkContracts {
    struct Step {
        var function: ABIFunction
        var actor: Int
        var target: Int
        var value: UInt64
    }

    static let constructorArguments: [ABIValue] = [.string("Snek Token"), .string("SNEK"), .uint(18), .string("Snek Token"), .string("1")]

    static let functions: [ABIFunction] = [
        "mint(address,uint256)", "transfer(address,uint256)", "approve(address,uint256)", "transferFrom(address,address,uint256)",
        "burn(uint256)",
    ].compactMap { try? ABIFunction(signature: $0) }

    /// `count` steps from a SplitMix64 sequence: a function, an actor, a target actor, a value up to 500.
    static func steps(_ count: Int, seed: UInt64) -> [Step] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<count).map { _ in
            Step(function: functions[Int(next() % UInt64(functions.count))], actor: Int(next() % 4), target: Int(next() % 4), value: next() % 501)
        }
    }

    static func arguments(_ step: Step, _ actors: [Address]) -> [ABIValue] {
        let value = ABIValue.uint(UInt256(step.value))
        switch step.function.name {
        case "burn": return [value]
        case "transferFrom": return [.address(actors[step.target]), .address(actors[step.actor]), value]
        default: return [.address(actors[step.target]), value]
        }
    }

    /// snekmate's ERC-20 (testdata/contracts/snekmate/ERC20Token.vy) compiled by the venv's vyper; nil without them.
    static func erc20() -> ContractArtifact? {
        let venv = ProcessInfo.processInfo.environment["CARCHAIN_VENV"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".venv")
        let python = venv.appendingPathComponent("bin/python").path
        let vyper = venv.appendingPathComponent("bin/vyper").path
        guard let site = run(python, ["-c", "import os, snekmate; print(os.path.dirname(list(snekmate.__path__)[0]))"])?
            .trimmingCharacters(in: .whitespacesAndNewlines), !site.isEmpty
        else { return nil }
        let source = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("testdata/contracts/snekmate/ERC20Token.vy").path
        guard let json = run(vyper, ["-p", site, source, "-f", "combined_json"]) else { return nil }
        return try? ContractArtifact.read(json: Array(json.utf8), fileName: source).first
    }

    static func run(_ program: String, _ arguments: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: program) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
