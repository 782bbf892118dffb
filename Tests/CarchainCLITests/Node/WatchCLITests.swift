import EthereumPrimitives
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `carchain watch`: the events the CLI's own transactions emitted, in order, with the transaction hashes and
/// blocks the sending commands reported — over WebSocket to the `carchain node` serving the data directory (and by
/// `--rpc ws://`), polling `--rpc http://`, and in-process on the embedded chain; replay with `--from-block`
/// while new blocks arrive, `--count`, `--json`, Ctrl-C, and the one-line errors.
@Suite(.serialized) struct WatchCLITests {
    typealias Home = EmbeddedCLITests.Home

    /// A command left running (the watcher, the node) with its output in files.
    typealias Background = BackgroundProcess

    /// One transaction a command reported: "…: tx 0x…, block N, …".
    struct Sent: Equatable {
        var hash: String
        var block: UInt64

        init?(_ line: String) {
            guard let t = line.range(of: ": tx "), let b = line.range(of: ", block ") else { return nil }
            hash = String(line[t.upperBound...].prefix(66))
            guard let block = UInt64(line[b.upperBound...].prefix { $0.isNumber }) else { return nil }
            self.block = block
        }
    }

    /// The seven commands and the event each must be watched as (name, then its fields in the text form).
    static let script: [(arguments: [String], event: String, text: String)] = [
        (["user", "register", "u1"], "UserRegistered", "user=u1 account=none"),
        (["credit", "add", "u1", "3"], "CreditAdded", "user=u1 amount=3 balance=3"),
        (["car", "register", "6789BBB"], "CarRegistered", "plate=6789BBB"),
        (["car", "register", "Q 1=\"x\"", "--plate-format", "any"], "CarRegistered", #"plate="Q 1=\"x\"""#),
        (["rent", "6789BBB", "--user", "u1"], "CarRented", "plate=6789BBB user=u1"),
        (["return", "6789BBB", "--user", "u1"], "CarReturned", "plate=6789BBB user=u1"),
        (["credit", "add", "u1", "2"], "CreditAdded", "user=u1 amount=2 balance=4"),
    ]

    /// Runs `script[range]`, returning what each command reported.
    static func send(_ home: Home, _ range: Range<Int>) throws -> [Sent] {
        try script[range].map { step in
            let line = try home.succeed(step.arguments)
            return try #require(Sent(line), "no transaction report in: \(line)")
        }
    }

    /// The text lines `carchain watch` must print for `sent` (script steps from `first` on).
    static func expectedText(_ sent: [Sent], first: Int = 0) -> [String] {
        zip(sent, script[first...]).map { s, step in
            "block \(s.block)  " + step.event + String(repeating: " ", count: max(1, 15 - step.event.count)) + step.text
        }
    }

    static func startNode(_ home: Home) throws -> (Background, String) {
        let node = try Background(home.carchain, ["node", "--port", "0"], home: home.directory)
        let url = try #require(node.waitFor("listening on "), "carchain node did not start: \(node.stderr)")
        return (node, url)
    }

    @Test func followsTheNodeOnTheDataDirectoryReplayingThenLive() throws {
        guard let home = Home() else { return }
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let (node, _) = try Self.startNode(home)
        defer { node.stop() }
        var sent = try Self.send(home, 0..<3)
        // Replays the three past events, then the four sent while it watches, as JSON.
        let watch = try Background(home.carchain, ["watch", "--from-block", "0", "--count", "7", "--json"], home: home.directory)
        defer { watch.stop() }
        sent += try Self.send(home, 3..<7)
        #expect(watch.wait() == 0, "watch failed: \(watch.stderr)")
        let lines = watch.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(lines)")
        for (i, line) in lines.enumerated() where i < sent.count {
            let json = try JSONValue(parsing: line)
            #expect(json["event"]?.stringValue == Self.script[i].event, "\(line)")
            #expect(json["transaction"]?.stringValue == sent[i].hash, "\(line)")
            #expect(json["block"] == .number(String(sent[i].block)), "\(line)")
        }
        let last = try JSONValue(parsing: try #require(lines.last))
        #expect(last["userId"] == .string("u1") && last["amount"] == .string("2") && last["newBalance"] == .string("4"))
        #expect(watch.stderr.isEmpty, "\(watch.stderr)")
    }

    @Test func webSocketAndPollingURLsPrintTheSameLines() throws {
        guard let home = Home() else { return }
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let (node, url) = try Self.startNode(home)
        defer { node.stop() }
        let sent = try Self.send(home, 0..<7)
        let contract = try Self.contract(node)
        let expected = Self.expectedText(sent)
        let ws = try home.run(["watch", "--rpc", url.replacingOccurrences(of: "http://", with: "ws://"), "--contract", contract,
            "--from-block", "0", "--count", "7"])
        #expect(ws.status == 0 && ws.stderr.isEmpty, "\(ws.stderr)")
        #expect(ws.stdout.split(separator: "\n").map(String.init) == expected)
        let http = try home.run(["watch", "--rpc", url, "--contract", contract, "--from-block", String(sent[1].block), "--count", "6", "--poll-interval", "0.1"])
        #expect(http.status == 0, "\(http.stderr)")
        #expect(http.stdout.split(separator: "\n").map(String.init) == Array(expected.dropFirst()))
        #expect(http.stderr.hasPrefix("carchain: note: \(url) is HTTP, which has no notifications: polling eth_getLogs every 0.1 s"))
    }

    @Test func embeddedChainInProcess() throws {
        guard let home = Home() else { return }
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let sent = try Self.send(home, 0..<3)
        #expect(try home.succeed(["watch", "--from-block", "0", "--count", "3"]).split(separator: "\n").map(String.init) == Self.expectedText(sent))
        // From a later block: only what follows.
        let tail = try home.succeed(["watch", "--from-block", String(sent[2].block), "--count", "1"])
        #expect(tail.split(separator: "\n").map(String.init) == [Self.expectedText(sent)[2]])
    }

    @Test func ctrlCExitsZero() throws {
        guard let home = Home() else { return }
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let (node, _) = try Self.startNode(home)
        defer { node.stop() }
        let sent = try Self.send(home, 0..<1)
        let watch = try Background(home.carchain, ["watch", "--from-block", "0"], home: home.directory)
        #expect(watch.waitFor("block \(sent[0].block)  ") != nil, "\(watch.stderr)")
        kill(watch.process.processIdentifier, SIGINT)
        #expect(watch.wait() == 0)
        #expect(watch.stderr.isEmpty, "\(watch.stderr)")
    }

    @Test func failuresAreOneLineAndExit1() throws {
        guard let home = Home() else { return }
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let (node, url) = try Self.startNode(home)
        let ws = url.replacingOccurrences(of: "http://", with: "ws://")
        let contract = try Self.contract(node)
        let devAccount = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        #expect(try home.fail(["watch", "--rpc", ws, "--contract", devAccount]).hasPrefix("carchain: no contract at \(devAccount)"))
        #expect(try home.fail(["watch", "--rpc", ws, "--contract", contract, "--poll-interval", "1"])
            .hasPrefix("carchain: --poll-interval applies to http:// nodes only"))
        #expect(try home.fail(["watch", "--count", "0"]).hasPrefix("carchain: --count must be 1 to 2^64-1"))
        #expect(try home.fail(["watch", "--poll-interval", "nan"]).hasPrefix("carchain: --poll-interval must be 0.01 to 3600 seconds, got nan"))
        #expect(try home.fail(["watch", "--from-block=-1"]).hasPrefix("carchain: The value '-1' is invalid for '--from-block <N>'"))
        #expect(try home.fail(["watch", "--rpc", "ws://", "--contract", contract]).hasPrefix("carchain: invalid WebSocket URL"))
        // A connection that drops while watching: the node stops.
        let watch = try Background(home.carchain, ["watch", "--rpc", ws, "--contract", contract], home: home.directory)
        Thread.sleep(forTimeInterval: 2)
        node.stop()
        #expect(watch.wait() == 1)
        let line = watch.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("carchain: connection to \(ws) lost: ") && !line.contains("\n"), "\(line)")
        // Nothing listening.
        if let refusing = RefusingPort() {
            #expect(try home.fail(["watch", "--rpc", "ws://127.0.0.1:\(refusing.port)", "--contract", contract])
                == "carchain: cannot reach ws://127.0.0.1:\(refusing.port): connection refused")
        }
    }

    /// The CarChain address the node's banner names.
    static func contract(_ node: Background) throws -> String {
        try #require(node.waitFor("CarChain: "), "no CarChain line in the banner")
    }
}
