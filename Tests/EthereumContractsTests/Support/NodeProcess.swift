import Chain
import EthereumContracts
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `carchain node --port 0` on a fresh `$CARCHAIN_HOME`, for the tests that drive contracts over JSON-RPC.
final class NodeProcess: @unchecked Sendable {
    private(set) var process = Process()
    let carchain: URL
    let home: URL
    let log: URL
    private(set) var url = ""

    /// Starts the built binary (nil after `Prerequisite.missing` when it is not built).
    static func start(for what: String) throws -> NodeProcess? {
        guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
        return try NodeProcess(carchain)
    }

    private init(_ carchain: URL) throws {
        self.carchain = carchain
        home = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-node-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        log = home.appendingPathComponent("node.out")
        try launch(port: 0)
    }

    /// Stops the node (SIGTERM) and starts it again on the same port and data directory: what a client sees as a
    /// dropped connection and a node that comes back.
    func restart() throws {
        guard let port = URL(string: url)?.port else { throw NodeError(description: "no port in \(url)") }
        terminate()
        try launch(port: port)
    }

    private func launch(port: Int) throws {
        process = Process()
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = carchain
        process.arguments = ["node", "--port", String(port)]
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
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        stop()
        throw NodeError(description: "carchain node did not start: \(text)")
    }

    struct NodeError: Error, CustomStringConvertible { let description: String }

    func stop() {
        terminate()
        try? FileManager.default.removeItem(at: home)
    }

    private func terminate() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
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
