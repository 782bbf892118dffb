import EthereumPrimitives
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The user journey on the embedded default (no --rpc) and against a running `carchain node` serving the same
/// data dir (chain over JSON-RPC, auth through its emulator routes), and the demo on the embedded chain.
@Suite(.serialized) struct AppEmbeddedCLITests {
    static let password = "embedded-secret"

    final class AppHome: @unchecked Sendable {
        let carchain: URL
        let directory: URL

        init?() {
            guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
            self.carchain = carchain
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-app-\(UUID().uuidString)")
        }

        func run(_ arguments: [String], stdin: String? = nil, timeout: Double = 180) throws -> TimedProcess.Outcome {
            let outcome = try TimedProcess.run(
                carchain, arguments, environment: ["CARCHAIN_HOME": directory.path, "CARCHAIN_RPC": ""], timeout: timeout, stdin: stdin)
            #expect(!outcome.timedOut, "carchain \(arguments.joined(separator: " ")) timed out")
            return outcome
        }

        @discardableResult
        func succeed(_ arguments: [String], password: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let outcome = try run(arguments + (password == nil ? [] : ["--password-stdin"]), stdin: password.map { $0 + "\n" })
            #expect(outcome.status == 0, "carchain \(arguments.joined(separator: " ")) failed: \(outcome.stderr)", sourceLocation: sourceLocation)
            return outcome.stdout
        }

        @discardableResult
        func fail(_ arguments: [String], password: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let outcome = try run(arguments + (password == nil ? [] : ["--password-stdin"]), stdin: password.map { $0 + "\n" })
            #expect(outcome.status == 1, "carchain \(arguments.joined(separator: " ")) should fail: \(outcome.stdout)", sourceLocation: sourceLocation)
            let line = outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!line.contains("\n"), "one line expected: \(line)", sourceLocation: sourceLocation)
            return line
        }

        /// Starts `carchain node --port 0` on this home's data dir; returns the process and its URL.
        func startNode() throws -> (Process, String) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let log = directory.appendingPathComponent("node.out")
            try Data().write(to: log)
            let out = try FileHandle(forWritingTo: log)
            let node = Process()
            node.executableURL = carchain
            node.arguments = ["node", "--port", "0"]
            var env = ProcessInfo.processInfo.environment
            env["CARCHAIN_HOME"] = directory.path
            env["CARCHAIN_RPC"] = nil
            node.environment = env
            node.standardOutput = out
            node.standardError = FileHandle.nullDevice
            try node.runWithSignalsUnblocked()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && node.exitIfEnded() == nil {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: "\n") {
                    return (node, String(text[range.upperBound..<end]))
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            node.end()
            throw CLIStartError(description: "carchain node did not start")
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    struct CLIStartError: Error, CustomStringConvertible { let description: String }

    /// signup → credit → rent → return → profile, and the checks common to both backends.
    static func journey(_ home: AppHome, email: String, plate: String) throws {
        let pw = password
        let signup = try home.succeed(["signup", email, "--same-password"], password: pw)
        #expect(signup.contains("signed up \(email): uid ") && signup.contains("funded 0x") && signup.contains("registered "), "\(signup)")
        #expect(!signup.contains(pw))
        #expect(try home.succeed(["credit", "add", "2"], password: pw).hasPrefix("added 2 credit to \(email): tx 0x"))
        let cars = try home.succeed(["cars", "--near", "40.4168,-3.7038"])
        #expect(cars.contains("\n\(plate)  "), "\(cars)")
        #expect(try home.succeed(["rent", plate], password: pw).hasPrefix("rented car \(plate) to \(email): tx 0x"))
        #expect(try home.succeed(["return"], password: pw).hasPrefix("returned car \(plate) from \(email): tx 0x"))
        let profile = try home.succeed(["profile"])
        #expect(profile.hasPrefix("email:   \(email)\nuid:     "), "\(profile)")
        #expect(profile.contains("credit:  1\ncar:     -\nrentals: 1\n  \(plate)  rented in block "))
        #expect(profile.contains("returned in block "))
        #expect(profile.contains("credit top-ups: 1\n  +2 (balance 2) in block "))
        #expect(try home.fail(["login", email], password: "a wrong one") == "carchain: the email or password is incorrect (INVALID_LOGIN_CREDENTIALS)")
    }

    @Test func journeyOnTheEmbeddedChain() throws {
        guard let home = AppHome() else { return }
        // The embedded chain deploys CarChain with dev account 0, the manager, on first use.
        try home.succeed(["car", "register", "6789BBB", "--at", "40.4170,-3.7040"])
        try Self.journey(home, email: "eve@example.com", plate: "6789BBB")
        let whoami = try home.succeed(["whoami"])
        #expect(whoami.contains("role:    user (manager is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266)"), "\(whoami)")
        // The auth service's files live in the data dir, private.
        let auth = home.directory.appendingPathComponent("chain/auth")
        #expect(FileManager.default.fileExists(atPath: auth.appendingPathComponent("auth.sqlite").path))
    }

    @Test func journeyAgainstCarchainNode() throws {
        guard let home = AppHome() else { return }
        try home.succeed(["car", "register", "2353HYP", "--at", "40.4190,-3.7000"])
        let (node, url) = try home.startNode()
        defer {
            node.end()
        }
        // With the node running, the CLI talks to it: chain over JSON-RPC, auth through its emulator routes.
        try Self.journey(home, email: "frank@example.com", plate: "2353HYP")
        let whoami = try home.succeed(["whoami", "--json"])
        #expect(whoami.contains("\"auth\":\"\(url)\""), "\(whoami)")
        // An explicit --auth-url reaches the same service: the account exists there.
        #expect(try home.fail(["signup", "frank@example.com", "--auth-url", url, "--same-password"], password: Self.password).contains("(EMAIL_EXISTS"))
        node.end()
        // After the node stops, the in-process service on the same files knows the user.
        #expect(try home.succeed(["login", "frank@example.com"], password: Self.password).hasPrefix("logged in as frank@example.com"))
    }

    @Test func demoOnTheEmbeddedChain() throws {
        guard let home = AppHome() else { return }
        let demoHome = home.directory.appendingPathComponent("demo")
        let outcome = try home.run(["demo", "--home", demoHome.path], timeout: 300)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("chain id 4, embedded chain"))
        try DemoCLITests.checkDemoOutput(outcome.stdout, home: demoHome)
        // A second run on the same directory is refused: the demo needs a fresh one.
        let again = try home.run(["demo", "--home", demoHome.path])
        #expect(again.status == 1 && again.stderr.contains("is not empty: the demo needs a fresh directory"))
    }
}
