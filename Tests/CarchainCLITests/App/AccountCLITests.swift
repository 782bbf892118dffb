import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `carchain account …` end to end: the password change re-encrypts the account key, a reset reads the code the
/// emulator "emailed", verification, deletion; on the embedded service and through a running `carchain node`'s
/// auth routes (the emulator's `oobCodes` endpoint over HTTP).
@Suite(.serialized) struct AccountCLITests {
    typealias Home = AppEmbeddedCLITests.AppHome

    static let first = "first-password"
    static let second = "second-password"
    static let third = "third-password"

    /// A 0600 file in the home holding `password` on its first line.
    static func passwordFile(_ home: Home, _ password: String) throws -> String {
        try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
        let file = home.directory.appendingPathComponent("new-password-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw AppEmbeddedCLITests.CLIStartError(description: "cannot write \(file.path)")
        }
        return file.path
    }

    static func flow(_ home: Home, email: String, extra: [String] = []) throws {
        // One secret for login and key (--same-password), so a password change moves the key with it.
        try home.succeed(["signup", email, "--same-password"] + extra, password: first)

        // A wrong current password changes nothing.
        let wrong = try home.fail(["account", "password", "--new-password-file", try passwordFile(home, second)] + extra, password: "not it")
        #expect(wrong.contains("INVALID_LOGIN_CREDENTIALS"), "\(wrong)")
        // The change: the auth password and the key's keystore both move to the new password.
        let changed = try home.succeed(
            ["account", "password", "--new-password-file", try passwordFile(home, second), "--json"] + extra, password: first)
        #expect(changed.contains("\"email\":\"\(email)\"") && changed.contains("\"keystore\":\""), "\(changed)")
        #expect(!changed.contains(first) && !changed.contains(second))
        #expect(try home.fail(["login", email] + extra, password: first).contains("INVALID_LOGIN_CREDENTIALS"))
        // Changing again from the new password proves the keystore opens with it (the command decrypts it first).
        let again = try home.succeed(["account", "password", "--new-password-file", try passwordFile(home, third)] + extra, password: second)
        #expect(again.contains("re-encrypted with the new password"), "\(again)")
        #expect(try home.succeed(["whoami"] + extra).contains(email))

        // Verification reads the emulator's code back and applies it.
        let verified = try home.succeed(["account", "verify-email", "--json"] + extra)
        #expect(verified.contains("\"verified\":true"), "\(verified)")
        #expect(try home.fail(["account", "verify-email", "--code", "bogus"] + extra).contains("INVALID_OOB_CODE"))

        // Reset: the code comes from the emulator, the new password works, the session is signed out, and the
        // report warns that the key still opens with the old password.
        let reset = try home.succeed(["account", "reset", email, "--new-password-file", try passwordFile(home, first), "--json"] + extra)
        #expect(reset.contains("\"keystoreStillOldPassword\":\""), "\(reset)")
        #expect(try home.fail(["whoami"] + extra).contains("not logged in"))
        #expect(try home.succeed(["login", email] + extra, password: first).hasPrefix("logged in as \(email)"))
        #expect(try home.fail(["account", "reset", email, "--code", "bogus", "--new-password-file", try passwordFile(home, first)] + extra)
            .contains("INVALID_OOB_CODE"))

        // Delete: --yes is required; the wrong password deletes nothing; then the account is gone.
        #expect(try home.fail(["account", "delete"] + extra, password: first).contains("add --yes"))
        #expect(try home.fail(["account", "delete", "--yes"] + extra, password: "not it").contains("INVALID_LOGIN_CREDENTIALS"))
        let deleted = try home.succeed(["account", "delete", "--yes", "--json"] + extra, password: first)
        #expect(deleted.contains("\"deleted\":true") && deleted.contains("\"address\":\"0x"), "\(deleted)")
        #expect(try home.fail(["login", email] + extra, password: first).contains("INVALID_LOGIN_CREDENTIALS"))
    }

    @Test func accountFlowOnTheEmbeddedService() throws {
        guard let home = Home() else { return }
        try Self.flow(home, email: "acct@example.com")
        // Options are checked before anything runs.
        #expect(try home.fail(["account", "reset", "x@example.com", "--project-id", "no/slashes"]).contains("--project-id"))
    }

    @Test func accountFlowThroughCarchainNode() throws {
        guard let home = Home() else { return }
        let (node, url) = try home.startNode()
        defer {
            node.end()
        }
        try Self.flow(home, email: "served@example.com", extra: ["--auth-url", url])
        // The node serves every project id, each with its own codes: the reset went to the default project, so
        // another project holds no code for it, which the CLI says in one line.
        #expect(try home.fail(
            ["account", "reset", "served@example.com", "--auth-url", url, "--project-id", "other-project",
             "--new-password-file", try Self.passwordFile(home, Self.first)]).contains("sent no reset code"))
    }

    /// The account key has its own wallet passphrase (the default): the login password does not unlock it, the
    /// wallet passphrase does, a login-password change leaves it alone, and scripts must say where it comes from.
    @Test func theWalletPassphraseIsSeparateFromTheLoginPassword() throws {
        guard let home = Home() else { return }
        let email = "wallet@example.com"
        let wallet = "wallet-passphrase-7"
        // --password-stdin: the login password on the first line, the wallet passphrase on the second.
        let signup = try home.run(["signup", email, "--password-stdin"], stdin: "\(Self.first)\n\(wallet)\n")
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(signup.stdout.contains("encrypted with your wallet passphrase"), "\(signup.stdout)")
        #expect(!signup.stdout.contains(wallet) && !signup.stderr.contains(wallet))
        // Signing for the user takes the wallet passphrase, not the login password.
        let wrong = try home.fail(["credit", "add", "1"], password: Self.first)
        #expect(wrong.contains("wrong wallet passphrase"), "\(wrong)")
        #expect(try home.succeed(["credit", "add", "1"], password: wallet).hasPrefix("added 1 credit to \(email)"))
        // A login-password change leaves the key as it is.
        let changed = try home.succeed(["account", "password", "--new-password-file", try Self.passwordFile(home, Self.second)], password: Self.first)
        #expect(changed.contains("unchanged: it has its own wallet passphrase"), "\(changed)")
        #expect(try home.succeed(["credit", "add", "1"], password: wallet).hasPrefix("added 1 credit"))

        // Non-interactive sign-ups must say where the wallet passphrase comes from.
        let file = try Self.passwordFile(home, Self.first)
        #expect(try home.fail(["signup", "other@example.com", "--password-file", file]).contains("--wallet-password-file"))
        #expect(try home.fail(["signup", "other@example.com"], password: Self.first).contains("second line"))
        #expect(try home.fail(["signup", "other@example.com", "--same-password", "--wallet-password-file", file]).contains("not both"))
        // --same-password works, with a warning.
        let same = try home.run(["signup", "same@example.com", "--password-file", file, "--same-password"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stderr.contains("warning: --same-password"))
        let separate = try home.run(
            ["signup", "files@example.com", "--password-file", file, "--wallet-password-file", try Self.passwordFile(home, wallet)])
        #expect(separate.status == 0, "\(separate.stderr)")
    }
}
