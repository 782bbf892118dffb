import Chain
import EthereumContracts
import Foundation
import TestSupport

/// `carchain node --port 0` on a fresh `$CARCHAIN_HOME`, for the tests that drive contracts over JSON-RPC (run through
/// TestSupport's ``BackgroundProcess``).
final class NodeProcess: @unchecked Sendable {
    private var node: BackgroundProcess?
    let carchain: URL
    let home: URL
    private(set) var url = ""

    /// Starts the built binary (nil after `Prerequisite.missing` when it is not built).
    static func start(for what: String) throws -> NodeProcess? {
        guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
        return try NodeProcess(carchain)
    }

    private init(_ carchain: URL) throws {
        self.carchain = carchain
        home = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-node-\(UUID().uuidString)")
        try launch(port: 0)
    }

    /// Stops the node (SIGTERM) and starts it again on the same port and data directory: what a client sees as a
    /// dropped connection and a node that comes back.
    func restart() throws {
        guard let port = URL(string: url)?.port else { throw NodeError(description: "no port in \(url)") }
        node?.stop()
        try launch(port: port)
    }

    private func launch(port: Int) throws {
        let started = try BackgroundProcess(carchain, ["node", "--port", String(port)], home: home)
        node = started
        if let address = started.waitFor("listening on ", seconds: 90) {
            url = address
            return
        }
        let output = started.stdout + started.stderr
        stop()
        throw NodeError(description: "carchain node did not start: \(output)")
    }

    struct NodeError: Error, CustomStringConvertible { let description: String }

    func stop() {
        node?.stop()
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
