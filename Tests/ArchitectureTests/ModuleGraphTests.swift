import Foundation
import Testing
import TestSupport

/// docs/ARCHITECTURE.md's module graph is the one Package.swift gives (tools/module_graph.py, from
/// `swift package dump-package`), and the layering rules hold on every module's whole dependency closure:
/// the CarChain binding and the contract runtime reach no EVM, chain, database or server (their one heavy
/// dependency is the JSON-RPC client); the generator only the ABI codec; the dev node never the
/// client; the chain no protocol. A new dependency that breaks a seam, or a graph left stale, fails here.
@Suite struct ModuleGraphTests {
    @Test func documentedGraphMatchesThePackageAndRulesHold() async throws {
        guard let python = Prerequisite.tool("python3", install: "python3", for: "module graph check"),
            Prerequisite.tool("swift", for: "module graph check (swift package dump-package)") != nil
        else { return }
        let script = TestPaths.packageRoot.appendingPathComponent("tools/module_graph.py")
        let output = try await ProcessRunner.run(python, [script.path, "--check"])
        #expect(output.status == 0, "tools/module_graph.py --check: \(output.stderr)")
        // The check printed CarChain's and the runtime's closures: the primitives (with their C multi-way Keccak), the
        // ABI, transactions, the wire types and the JSON-RPC client (over AsyncHTTPClient, and hummingbird-websocket's
        // client for subscriptions, with swift-log's API for its reconnection messages), nothing heavier: no server,
        // EVM, chain or database.
        let light: Set = [
            "EthereumPrimitives", "CKeccakMultiway", "EthereumABI", "EthereumTransactions", "EthereumCrypto", "CSecp256k1",
            "Crypto", "CryptoExtras", "EthereumWire", "EthereumRPC", "AsyncHTTPClient", "HummingbirdWSClient", "Logging", "EthereumContracts",
        ]
        for module in ["CarChain", "EthereumContracts"] {
            let line = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("\(module) closure: ") })
            let closure = Set(line.dropFirst("\(module) closure: ".count).split(separator: ", ").map(String.init))
            #expect(closure.contains("EthereumABI") && closure.isSubset(of: light), "\(module) reaches \(closure.sorted())")
        }
    }
}

extension Prerequisite {
    /// A program that comes with the Swift toolchain or Python rather than a Debian package of its own.
    static func tool(_ name: String, for what: String) -> URL? {
        tool(name, install: "the Swift toolchain", for: what)
    }
}
