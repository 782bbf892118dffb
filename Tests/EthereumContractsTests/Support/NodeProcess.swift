import Chain
import EthereumContracts
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `carchain node --port 0` on a fresh `$CARCHAIN_HOME`, for the tests that drive contracts over JSON-RPC.
final class NodeProcess: @unchecked Sendable {
    let process = Process()
    let home: URL
    let log: URL
    private(set) var url = ""

    /// Starts the built binary (nil after `Prerequisite.missing` when it is not built).
    static func start(for what: String) throws -> NodeProcess? {
        guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
        return try NodeProcess(carchain)
    }

    private init(_ carchain: URL) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-node-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        log = home.appendingPathComponent("node.out")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = carchain
        process.arguments = ["node", "--port", "0"]
        var env = ProcessInfo.processInfo.environment
        env["CARCHAIN_HOME"] = home.path
        env["CARCHAIN_RPC"] = nil
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: "\n") {
                url = String(text[range.upperBound..<end])
                return
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw NodeError(description: "carchain node did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    struct NodeError: Error, CustomStringConvertible { let description: String }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: home)
    }
}

extension NodeProcess {
    /// Backends signing locally as the node's first `count` dev accounts (index 0 first), and their addresses.
    func signingBackends(_ count: Int) async throws -> (backends: [any ContractBackend], accounts: [Address]) {
        let client = try RPCClient(url: url)
        let chainID = try await client.chainID()
        let keys = try (0..<count).map { try DevAccounts.key(index: UInt32($0)) }
        var backends: [any ContractBackend] = []
        for key in keys {
            let sender = try await TransactionSender.connect(
                client: client, signer: PrivateKeySigner(key: key), options: SendOptions(expectedChainID: chainID, receiptTimeout: 60))
            backends.append(RPCContractBackend(client: client, sender: sender))
        }
        return (backends, keys.map(\.address))
    }
}
