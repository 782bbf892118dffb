import EthereumPrimitives
import EthereumWire
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 18's `carchain node` flags on a running node process: a plain chain without CarChain (`--no-carchain`,
/// where account 0's first deployment lands where it does on anvil and Hardhat), the account and fee options,
/// state files written on SIGTERM and loaded on start, and `--silent`.
@Suite(.serialized) struct NodeFlagProcessTests {
    /// Account 0 of the test mnemonic, nonce 0: the address anvil and Hardhat give its first deployment.
    static let firstDeployment = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
    /// Returns 42 (PUSH1 42, MSTORE, RETURN 32 bytes), deployed by a 12-byte prefix.
    static let initcode = "0x600a600c600039600a6000f3602a60005260206000f3"

    func call(_ node: NodeProcess, _ method: String, _ params: String = "[]") async throws -> JSONValue {
        let body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\(method)\",\"params\":\(params)}"
        let answer = try JSONValue(parsing: try await node.post(Array(body.utf8)))
        #expect(answer["error"] == nil, "\(method): \(answer)")
        return answer["result"] ?? .null
    }

    @Test func noCarchainGivesAnvilsFirstDeploymentAddressAndTheAccountOptionsApply() async throws {
        guard let node = try NodeProcess.start([
            "--ephemeral", "--no-carchain", "--accounts", "3", "--balance", "100.5", "--base-fee", "7", "--chain-id", "31337",
        ]) else { return }
        defer { node.stop() }
        #expect(try await call(node, "eth_blockNumber") == .string("0x0"))
        let accounts = try #require(try await call(node, "eth_accounts").arrayValue)
        #expect(accounts.count == 3)
        #expect(accounts.first == .string(HandlerHarness.account0))
        let balance = try await call(node, "eth_getBalance", "[\"\(HandlerHarness.account1)\",\"latest\"]")
        #expect(balance == .string(Quantity.encode(UInt256(1005) * UInt256(100_000_000_000_000_000 as UInt64))))
        #expect(try await call(node, "eth_getBlockByNumber", "[\"0x0\",false]")["baseFeePerGas"] == .string("0x7"))
        #expect(try await call(node, "eth_chainId") == .string("0x7a69"))
        let hash = try #require(try await call(
            node, "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account0)\",\"data\":\"\(Self.initcode)\"}]").stringValue)
        let receipt = try await call(node, "eth_getTransactionReceipt", "[\"\(hash)\"]")
        #expect(receipt["contractAddress"] == .string(Self.firstDeployment))
        #expect(try await call(node, "eth_getCode", "[\"\(Self.firstDeployment)\",\"latest\"]") == .string("0x602a60005260206000f3"))
        #expect(!node.output.contains("CarChain:"))
    }

    @Test func aMnemonicOfOnesOwnIsNeverPrinted() async throws {
        let phrase = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
        guard let node = try NodeProcess.start(["--ephemeral", "--no-carchain", "--accounts", "1", "--mnemonic", phrase]) else { return }
        defer { node.stop() }
        // BIP-44 account 0 of that phrase, as every wallet derives it.
        #expect(try await call(node, "eth_accounts") == .array([.string("0x9858effd232b4033e47d90003d41ec34ecaeda94")]))
        #expect(!node.output.contains("abandon"))
        #expect(node.output.contains("keys not shown"))
    }

    @Test func stateFileIsWrittenOnSigtermAndLoadedOnStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.bin").path
        guard let first = try NodeProcess.start(["--ephemeral", "--no-carchain", "--dump-state", file]) else { return }
        _ = try await call(first, "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account0)\",\"data\":\"\(Self.initcode)\"}]")
        _ = try await call(first, "anvil_setStorageAt", "[\"\(Self.firstDeployment)\",\"0x1\",\"0x00000000000000000000000000000000000000000000000000000000000000aa\"]")
        let balance = try await call(first, "eth_getBalance", "[\"\(HandlerHarness.account0)\",\"latest\"]")
        let head = try #require(try await call(first, "eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        #expect(first.stop(signal: SIGTERM) == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["state.bin"])

        guard let second = try NodeProcess.start(["--ephemeral", "--no-carchain", "--load-state", file]) else { return }
        defer { second.stop() }
        #expect(try await call(second, "eth_getCode", "[\"\(Self.firstDeployment)\",\"latest\"]") == .string("0x602a60005260206000f3"))
        #expect(try await call(second, "eth_getStorageAt", "[\"\(Self.firstDeployment)\",\"0x1\",\"latest\"]").stringValue?.hasSuffix("aa") == true)
        #expect(try await call(second, "eth_getBalance", "[\"\(HandlerHarness.account0)\",\"latest\"]") == balance)
        // The loaded state's time: the next block comes after the dumped head.
        _ = try await call(second, "evm_mine")
        let next = try #require(try await call(second, "eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        #expect(next > head)
    }

    @Test func corruptStateFileStopsTheStartWithOneLine() async throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-bad-\(UUID().uuidString).bin")
        try Data("CCSD\u{1}garbage".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await ProcessRunner.run(carchain, ["node", "--ephemeral", "--port", "0", "--load-state", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("the state dump is corrupt: its checksum does not match"))
    }

    @Test func silentPrintsNothing() throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let process = Process()
        process.executableURL = carchain
        process.arguments = ["node", "--ephemeral", "--port", "0", "--silent"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        usleep(3_000_000)
        #expect(process.exitIfEnded() == nil)
        #expect(process.end(signal: SIGINT)?.terminationStatus == 0)
        #expect(out.fileHandleForReading.readDataToEndOfFile().isEmpty)
        #expect(err.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }
}

/// Issue 18's methods through real clients (tools/xcheck/web3_devmethods.py): eth-account checks
/// eth_signTypedData_v4 and eth_signTransaction; web3.py sends from an impersonated whale and runs
/// dump → reset → load.
@Suite(.serialized) struct Web3DevMethodTests {
    @Test func realClientsAgree() async throws {
        guard let python = PythonVenv.python(for: "web3.py / eth-account dev-method checks against carchain node") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let counts = try await XCheckScript.run("web3_devmethods.py", python: python, request: ["url": node.url], suite: "Web3DevMethodTests")
        #expect(counts.total >= 17)
    }
}
