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

    // The engine itself: InvariantTest.replay runs the 10,000 steps (each pranked from its actor; a revert is counted
    // and skipped) and checks the invariant before the first and after every step, in one isolated run.
    let engineSteps = steps.map { InvariantTest.Step(action: $0.function.name, actor: $0.actor, target: $0.target, value: $0.value) }
    Benchmark("EthereumTesting ERC-20 invariant run (10,000 calls, supply checked after each)", configuration: runConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            let t = try await TestChain()
            let (token, _) = try await Contract.deploy(erc20, arguments: TestingBenchmarkContracts.constructorArguments, backend: t)
            let actors = Array(t.accounts.prefix(4))
            let invariants = InvariantTest(
                chain: t, actors: actors,
                actions: TestingBenchmarkContracts.functions.map { function in
                    InvariantTest.Action(function.name) { context in
                        _ = try await token.send(
                            function.signature,
                            TestingBenchmarkContracts.arguments(function, actor: context.actor, target: context.target, value: context.value))
                    }
                },
                invariants: [
                    .init("totalSupply is the sum of balances") { _ in
                        var sum = UInt256.zero
                        for actor in actors {
                            guard case .uint(let balance)? = try await token.call("balanceOf", [.address(actor)]).first else { return "balanceOf" }
                            sum = sum &+ balance
                        }
                        guard case .uint(let supply)? = try await token.call("totalSupply").first else { return "totalSupply" }
                        return supply == sum ? nil : "totalSupply \(supply), balances add up to \(sum)"
                    }
                ])
            let (calls, reverts) = try await invariants.replay(engineSteps)
            guard calls == engineSteps.count else { fatalError("ran \(calls) of \(engineSteps.count) steps") }
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
                let arguments = TestingBenchmarkContracts.arguments(
                    step.function, actor: actors[step.actor], target: actors[step.target], value: step.value)
                blackHole(try await send(step.actor, to: token, data: try step.function.encodeCall(arguments)))
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

    /// `count` steps drawn from the invariant engine's seeded generator (xoshiro256** seeded through SplitMix64): a
    /// function, an actor, a target actor, a value up to 500.
    static func steps(_ count: Int, seed: UInt64) -> [Step] {
        var random = InvariantTest.generator(seed: seed)
        return (0..<count).map { _ in
            Step(
                function: functions[Int(random.next() % UInt64(functions.count))], actor: Int(random.next() % 4),
                target: Int(random.next() % 4), value: random.next() % 501)
        }
    }

    /// A step's arguments: the target actor (and the sender, for transferFrom's recipient) and the value.
    static func arguments(_ function: ABIFunction, actor: Address, target: Address, value: UInt64) -> [ABIValue] {
        let amount = ABIValue.uint(UInt256(value))
        switch function.name {
        case "burn": return [amount]
        case "transferFrom": return [.address(target), .address(actor), amount]
        default: return [.address(target), amount]
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
