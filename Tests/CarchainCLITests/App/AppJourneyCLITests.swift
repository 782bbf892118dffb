import EthereumPrimitives
import Foundation
import Testing
import TestSupport

extension NodeCLIHarness {
    /// Runs `carchain arguments` with `input` on stdin (for `--password-stdin`).
    func run(_ arguments: [String], stdin input: String, environment: [String: String] = [:]) throws -> TimedProcess.Outcome {
        let outcome = try TimedProcess.run(
            carchain, arguments,
            environment: ["CARCHAIN_RPC": node.url, "CARCHAIN_HOME": home.path].merging(environment) { _, new in new },
            timeout: 180, stdin: input)
        #expect(!outcome.timedOut, "carchain \(arguments.joined(separator: " ")) timed out")
        return outcome
    }

    /// A command given a password on stdin that must succeed; returns stdout.
    @discardableResult
    func succeed(_ arguments: [String], password: String, environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let outcome = try run(arguments + ["--password-stdin"], stdin: password + "\n", environment: environment)
        #expect(outcome.status == 0, "carchain \(arguments.joined(separator: " ")) failed: \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(!outcome.stdout.contains(password) && !outcome.stderr.contains(password), "the password was printed", sourceLocation: sourceLocation)
        return outcome.stdout
    }

    /// A command given a password on stdin that must fail with exit 1 and one line on stderr; returns the line.
    @discardableResult
    func fail(_ arguments: [String], password: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let outcome = try run(arguments + ["--password-stdin"], stdin: password + "\n")
        #expect(outcome.status == 1, "carchain \(arguments.joined(separator: " ")) should fail: \(outcome.stdout)", sourceLocation: sourceLocation)
        let line = outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!line.contains("\n"), "expected one line on stderr, got: \(line)", sourceLocation: sourceLocation)
        #expect(!outcome.stdout.contains(password) && !line.contains(password), "the password was printed", sourceLocation: sourceLocation)
        return line
    }
}

/// The app through the CLI against tools/pyevm-node.py: sign-up, credit, the fleet map, renting and returning
/// as the logged-in user, the profile rebuilt from events, roles from the chain, and the auth errors.
@Suite(.serialized) struct AppJourneyCLITests {
    static let password = "correct horse battery"

    static func mode(_ url: URL) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }

    @Test func signupCreditRentReturnProfile() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain app CLI tests") else { return }
        defer { cli.stop() }
        let pw = Self.password
        try cli.succeed(["deploy"])
        // The manager (dev account 0, the deployer) places two cars; a third is on chain only.
        #expect(try cli.succeed(["car", "register", "6789BBB", "--at", "40.4170,-3.7040"]).contains("placed 6789BBB at 40.417000,-3.704000"))
        try cli.succeed(["car", "register", "2353HYP", "--at", "40.4190,-3.7000"])
        #expect(try cli.fail(["car", "register", "BAD1"]).hasPrefix("carchain: invalid plate \"BAD1\": expected four digits and three capital letters"))

        let signup = try cli.succeed(["signup", "alice@example.com", "--same-password"], password: pw)
        let lines = signup.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("signed up alice@example.com: uid ") == true, "\(signup)")
        #expect(lines.contains { $0.hasPrefix("funded 0x") && $0.contains("with 1 ETH from dev account 0") })
        #expect(lines.contains { $0.hasPrefix("registered ") && $0.contains(" on chain 4 from 0x") })
        #expect(lines.last?.hasPrefix("logged in as alice@example.com") == true)

        // Files: the session (tokens only) and the keystore are private.
        let session = cli.home.appendingPathComponent("session.json")
        #expect(try Self.mode(session) == 0o600)
        let sessionText = try String(contentsOf: session, encoding: .utf8)
        #expect(sessionText.contains("idToken") && !sessionText.contains(pw))
        let keystores = try FileManager.default.contentsOfDirectory(at: cli.home.appendingPathComponent("keystore"), includingPropertiesForKeys: nil)
        #expect(keystores.count == 1)
        for file in keystores { #expect(try Self.mode(file) == 0o600) }

        let whoami = try JSONValue(parsing: try cli.succeed(["whoami", "--json"]))
        #expect(whoami["email"] == .string("alice@example.com"))
        #expect(whoami["role"] == .string("user"))
        #expect(whoami["registered"] == .bool(true))
        let uid = try #require(whoami["uid"]?.stringValue)
        #expect(uid.count == 28)

        #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["credit", "add", "3"], password: pw), summary: "added 3 credit to alice@example.com"))
        let cars = try cli.succeed(["cars", "--near", "40.4168,-3.7038"])
        let rows = cars.split(separator: "\n").map(String.init)
        #expect(rows.first == "2 available cars within 2 km of 40.416800,-3.703800 (of 2):")
        #expect(rows.count == 4 && rows[2].hasPrefix("6789BBB  28 m") && rows[3].hasPrefix("2353HYP"), "\(cars)")

        #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["rent", "6789BBB"], password: pw), summary: "rented car 6789BBB to alice@example.com"))
        #expect(try cli.fail(["rent", "2353HYP"], password: pw).hasPrefix("carchain: user already renting a car"))
        #expect(try cli.fail(["rent", "2353HYP"], password: "not-her-password").hasPrefix("carchain: wrong wallet passphrase for alice@example.com's account key"))
        let all = try JSONValue(parsing: try cli.succeed(["cars", "--all", "--json"]))
        let listed = try #require(all.arrayValue)
        #expect(listed.count == 2)
        #expect(listed.first?["plate"] == .string("2353HYP") && listed.first?["status"] == .string("available"))
        #expect(listed.last?["plate"] == .string("6789BBB") && listed.last?["status"] == .string("rented") && listed.last?["renter"] == .string(uid))

        let mapFile = cli.home.appendingPathComponent("map.svg")
        #expect(try cli.succeed(["map", "--near", "40.4168,-3.7038", "--out", mapFile.path]).hasPrefix("wrote \(mapFile.path): 2 cars (1 available)"))
        let svg = try String(contentsOf: mapFile, encoding: .utf8)
        #expect(svg.contains(">6789BBB</text>") && svg.contains(">2353HYP</text>") && svg.contains(">you</text>"))

        #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["return"], password: pw), summary: "returned car 6789BBB from alice@example.com"))
        #expect(try cli.fail(["return"], password: pw) == "carchain: alice@example.com is not renting a car")
        try cli.succeed(["car", "move", "6789BBB", "--at", "40.4200,-3.7100"])

        let profileText = try cli.succeed(["profile"])
        #expect(profileText.hasPrefix("email:   alice@example.com\nuid:     \(uid)\naccount: 0x"), "\(profileText)")
        #expect(profileText.contains("credit:  2\ncar:     -\nrentals: 1\n  6789BBB  rented in block "))
        #expect(profileText.contains("credit top-ups: 1\n  +3 (balance 3) in block "))
        let profile = try JSONValue(parsing: try cli.succeed(["profile", "--json"]))
        #expect(profile["credit"] == .string("2") && profile["car"] == .string("-"))
        let rental = try #require(profile["rentals"]?.arrayValue?.first)
        #expect(rental["plate"] == .string("6789BBB"))
        #expect(rental["returnedBlock"]?.description.allSatisfy(\.isNumber) == true)
        #expect(profile["topUps"]?.arrayValue?.first?["amount"] == .string("3"))
        // The id-based form still works and agrees.
        #expect(try cli.succeed(["profile", uid]) == "user:   \(uid)\ncredit: 2\ncar:    -\n")

        // Roles: a user does not get `car register`.
        #expect(try cli.fail(["car", "register", "5432TPK"]).hasPrefix("carchain: only the manager (0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266) registers cars; alice@example.com (0x"))

        // Sessions.
        #expect(try cli.succeed(["logout"]) == "logged out alice@example.com\n")
        #expect(try cli.succeed(["logout"]) == "not logged in\n")
        #expect(try cli.fail(["profile"]) == "carchain: not logged in: run `carchain login EMAIL` (or `carchain signup EMAIL`)")
        let wrong = try cli.fail(["login", "alice@example.com"], password: "not the password")
        let unknown = try cli.fail(["login", "nobody@example.com"], password: "not the password")
        #expect(wrong == "carchain: the email or password is incorrect (INVALID_LOGIN_CREDENTIALS)", "\(wrong)")
        #expect(unknown == wrong, "an unknown email must read like a wrong password")
        let login = try cli.succeed(["login", "alice@example.com"], password: pw)
        #expect(login.hasPrefix("logged in as alice@example.com: uid \(uid)"))
        #expect(login.contains(", role user on chain 4"))
        #expect(try cli.succeed(["profile", "--json"]).contains("\"credit\":\"2\""))
    }

    @Test func managerRoleAndAuthErrors() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain app CLI tests") else { return }
        defer { cli.stop() }
        let pw = Self.password
        try cli.succeed(["deploy"])
        try cli.succeed(["car", "register", "6789BBB", "--at", "40.4170,-3.7040"])
        // The deployer signs up with its own key: the chain makes it the manager.
        let deployer = ["K0": "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"]
        try cli.succeed(["signup", "manager@example.com", "--import-private-key-env", "K0", "--same-password"], password: pw, environment: deployer)
        let whoami = try cli.succeed(["whoami"])
        #expect(whoami.contains("account: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\nrole:    manager"), "\(whoami)")
        #expect(try cli.fail(["rent", "6789BBB"], password: pw)
            == "carchain: manager@example.com is the manager (0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266): the manager registers cars and does not rent them; log in as a user to rent")
        // The logged-in manager registers cars with their own key.
        #expect(NodeCLIHarness.isTransactionLine(
            try cli.succeed(["car", "register", "2353HYP", "--at", "40.4190,-3.7000"], password: pw).split(separator: "\n").first.map(String.init) ?? "",
            summary: "registered car 2353HYP"))

        // Auth errors: one line, exit 1, Firebase's codes.
        #expect(try cli.fail(["signup", "manager@example.com", "--same-password"], password: pw).hasPrefix("carchain: ") == true)
        #expect(try cli.fail(["signup", "manager@example.com", "--same-password"], password: pw).contains("(EMAIL_EXISTS"))
        #expect(try cli.fail(["signup", "not-an-email", "--same-password"], password: pw).contains("(INVALID_EMAIL"))
        #expect(try cli.fail(["signup", "bob@example.com", "--same-password"], password: "12345").contains("(WEAK_PASSWORD"))
        #expect(try cli.fail(["login", "manager@example.com"], password: "bad one") == "carchain: the email or password is incorrect (INVALID_LOGIN_CREDENTIALS)")
        let empty = try cli.run(["login", "manager@example.com", "--password-stdin"], stdin: "")
        #expect(empty.status == 1 && empty.stderr == "carchain: --password-stdin: no password on standard input\n")
        // Repeated failures lock sign-in for that email.
        var last = ""
        for _ in 0..<12 {
            last = try cli.fail(["login", "manager@example.com"], password: "bad one")
            if last.contains("TOO_MANY_ATTEMPTS_TRY_LATER") { break }
        }
        #expect(last.contains("(TOO_MANY_ATTEMPTS_TRY_LATER"), "\(last)")
    }
}
