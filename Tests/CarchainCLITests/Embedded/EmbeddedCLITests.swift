import EthereumPrimitives
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Every node command without --rpc: the embedded chain in `$CARCHAIN_HOME/chain`, CarChain deployed
/// on first use, state kept across processes, and a running `carchain node` on the data directory used
/// over HTTP instead of the files.
@Suite(.serialized) struct EmbeddedCLITests {
    final class Home: @unchecked Sendable {
        let carchain: URL
        let directory: URL

        init?() {
            guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
            self.carchain = carchain
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-embedded-\(UUID().uuidString)")
        }

        func run(_ arguments: [String]) throws -> TimedProcess.Outcome {
            let outcome = try TimedProcess.run(
                carchain, arguments, environment: ["CARCHAIN_HOME": directory.path, "CARCHAIN_RPC": ""], timeout: 120)
            #expect(!outcome.timedOut, "carchain \(arguments.joined(separator: " ")) timed out")
            return outcome
        }

        @discardableResult
        func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let outcome = try run(arguments)
            #expect(outcome.status == 0, "carchain \(arguments.joined(separator: " ")) failed: \(outcome.stderr)", sourceLocation: sourceLocation)
            return outcome.stdout
        }

        @discardableResult
        func fail(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let outcome = try run(arguments)
            #expect(outcome.status == 1, "carchain \(arguments.joined(separator: " ")) should fail: \(outcome.stdout)", sourceLocation: sourceLocation)
            return outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func everyNodeCommandWithoutRPC() throws {
        guard let home = Home() else { return }
        // First use deploys CarChain (dev account 0 is the manager) and remembers it in the data dir.
        #expect(try home.succeed(["stats"]) == "registered users: 0\nregistered cars:  0\nrented cars:      0\navailable cars:   0\n")
        let file = home.directory.appendingPathComponent("chain/carchain.json")
        let remembered = try JSONValue(parsing: [UInt8](Data(contentsOf: file)))
        #expect(remembered["contract"]?.stringValue == "0x5FbDB2315678afecb367f032d93F642f64180aa3")
        #expect(!FileManager.default.fileExists(atPath: home.directory.appendingPathComponent("config.json").path))

        try home.succeed(["user", "register", "alice"])
        try home.succeed(["user", "register", "bob", "--dev-account", "1"])
        for plate in ["CAR1", "CAR2"] { try home.succeed(["car", "register", plate, "--plate-format", "any"]) }
        try home.succeed(["credit", "add", "alice", "3"])
        #expect(try home.succeed(["rent", "CAR1", "--user", "alice"]).hasPrefix("rented car CAR1 to alice: tx 0x"))
        #expect(try home.fail(["rent", "CAR2", "--user", "alice"]).hasPrefix("carchain: user already renting a car"))
        #expect(try home.succeed(["profile", "alice"]) == "user:   alice\ncredit: 2\ncar:    CAR1\n")
        #expect(try home.succeed(["stats"]) == "registered users: 2\nregistered cars:  2\nrented cars:      1\navailable cars:   1\n")
        try home.succeed(["return", "CAR1", "--user", "alice"])
        #expect(try home.succeed(["profile", "alice", "--json"]).contains("\"car\":\"-\"") || (try home.succeed(["profile", "alice"])).contains("car:    -"))

        // `deploy` puts a new contract in the data dir (not in config.json); later commands use it.
        let deploy = try home.succeed(["deploy"])
        #expect(deploy.hasPrefix("deployed CarChain (project) at 0x"))
        let again = try JSONValue(parsing: [UInt8](Data(contentsOf: file)))
        #expect(again["contract"]?.stringValue != "0x5FbDB2315678afecb367f032d93F642f64180aa3")
        #expect(try home.succeed(["stats"]) == "registered users: 0\nregistered cars:  0\nrented cars:      0\navailable cars:   0\n")
        #expect(!FileManager.default.fileExists(atPath: home.directory.appendingPathComponent("config.json").path))

        // --data-dir picks another chain.
        let other = home.directory.appendingPathComponent("other")
        try home.succeed(["car", "register", "X1", "--plate-format", "any", "--data-dir", other.path])
        #expect(try home.succeed(["stats", "--data-dir", other.path]).hasPrefix("registered users: 0\nregistered cars:  1\n"))
        // A chain id other than the embedded chain's is refused before anything is signed.
        #expect(try home.fail(["stats", "--chain-id", "1337"]).contains("1337"))
    }

    @Test func stateSurvivesAcrossProcessesAndConcurrentCommands() throws {
        guard let home = Home() else { return }
        try home.succeed(["car", "register", "P1", "--plate-format", "any"])
        try home.succeed(["user", "register", "u1"])
        try home.succeed(["credit", "add", "u1", "2"])
        // Two processes at once: the second waits for the first's lock.
        let group = DispatchGroup()
        nonisolated(unsafe) var statuses: [Int32] = []
        let lock = NSLock()
        for plate in ["P2", "P3"] {
            group.enter()
            DispatchQueue.global().async {
                let status = (try? home.run(["car", "register", plate, "--plate-format", "any"]))?.status ?? -1
                lock.lock()
                statuses.append(status)
                lock.unlock()
                group.leave()
            }
        }
        group.wait()
        #expect(statuses == [0, 0])
        try home.succeed(["rent", "P1", "--user", "u1"])
        #expect(try home.succeed(["stats"]) == "registered users: 1\nregistered cars:  3\nrented cars:      1\navailable cars:   2\n")
        #expect(try home.succeed(["profile", "u1"]) == "user:   u1\ncredit: 1\ncar:    P1\n")
    }

    @Test func runningNodeOnTheDataDirIsUsedOverHTTP() throws {
        guard let home = Home() else { return }
        try home.succeed(["car", "register", "N1", "--plate-format", "any"])
        let log = home.directory.appendingPathComponent("node.out")
        try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
        try Data().write(to: log)
        let out = try FileHandle(forWritingTo: log)
        let node = Process()
        node.executableURL = home.carchain
        node.arguments = ["node", "--port", "0"]
        var env = ProcessInfo.processInfo.environment
        env["CARCHAIN_HOME"] = home.directory.path
        env["CARCHAIN_RPC"] = nil
        node.environment = env
        node.standardOutput = out
        node.standardError = FileHandle.nullDevice
        try node.runWithSignalsUnblocked()
        defer {
            node.end()
            try? out.close()
        }
        var url: String?
        let deadline = Date().addingTimeInterval(60)
        while url == nil && Date() < deadline && node.exitIfEnded() == nil {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: "\n") {
                url = String(text[range.upperBound..<end])
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        let nodeURL = try #require(url, "carchain node did not start")
        // The lock file names the node; the CLI goes through it (the files are locked by the node).
        let lock = try JSONValue(parsing: [UInt8](Data(contentsOf: home.directory.appendingPathComponent("chain/LOCK"))))
        #expect(lock["url"] == .string(nodeURL))
        try home.succeed(["car", "register", "N2", "--plate-format", "any"])
        #expect(try home.succeed(["stats"]).hasPrefix("registered users: 0\nregistered cars:  2\n"))
        // After the node stops, the embedded chain has everything the node mined.
        #expect(node.end()?.terminationStatus == 0)
        #expect(try home.succeed(["stats"]).hasPrefix("registered users: 0\nregistered cars:  2\n"))
    }
}
