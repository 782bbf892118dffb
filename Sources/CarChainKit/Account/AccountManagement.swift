import AuthEmulator
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// What users do to their account after signing up (`carchain account …`, and the web app's settings): change
/// the password, reset a forgotten one with an emailed code, verify the email, delete the account. The account's
/// Ethereum key is encrypted with its own wallet passphrase (see
/// ``AccountFlow/signup(email:password:walletPassphrase:key:paths:auth:chain:settings:fund:kdf:)``), which these flows
/// leave alone; a key encrypted with the login password (`--same-password`) follows a password change.
extension AccountFlow {
    /// What an account step did: lines for people and members for a JSON answer.
    public struct Report: Sendable {
        public var lines: [String]
        public var json: [(String, JSONValue)]

        public init(lines: [String], json: [(String, JSONValue)]) {
            self.lines = lines
            self.json = json
        }
    }

    /// Changes the logged-in user's password. The current password is checked by signing in again (Firebase asks
    /// for a recent sign-in before a password change); a keystore on this machine that opens with it is
    /// re-encrypted with the new password (same KDF), and the new session — Firebase revokes the
    /// others — is saved. Nothing changes when the current password is wrong.
    public static func changePassword(
        paths: AppPaths, auth: AuthConfiguration, currentPassword: String, newPassword: String
    ) async throws -> Report {
        guard let saved = try paths.sessions.read() else {
            throw AppError.failed("not logged in: run `carchain login EMAIL` first")
        }
        let client = try await auth.client(paths: paths, savedURL: saved.savedServiceURL)
        let fresh = try await client.signIn(email: saved.email, password: currentPassword)
        // The keystore: a key encrypted with the login password (`signup --same-password`, or made before wallet
        // passphrases were separate) is re-encrypted with the new one, before the service changes anything, so the
        // slow KDF runs before the point of no return. A key with its own wallet passphrase is left as it is.
        var rekeyed: (file: URL, json: String)?
        var ownPassphrase: URL?
        if let address = try paths.accounts.address(uid: fresh.uid), let file = try paths.keystores.file(for: address) {
            let keystore = try KeystoreDirectory.load(file)
            do {
                let key = try keystore.decrypt(password: currentPassword)
                rekeyed = (file, try Keystore.encrypt(key, password: newPassword, kdf: keystore.kdf).json)
            } catch KeystoreError.wrongPassword {
                ownPassphrase = file
            }
        }
        let session = try await client.changePassword(fresh, to: newPassword)
        try paths.sessions.write(session)
        var lines = ["password changed for \(session.email) (auth: \(client.backend)); other sessions are signed out"]
        var json: [(String, JSONValue)] = [("email", .string(session.email)), ("uid", .string(session.uid))]
        if let rekeyed {
            do {
                try SecureFile.write(rekeyed.json, to: rekeyed.file.path)
            } catch {
                throw AppError.failed(
                    "the password changed, but the account key \(rekeyed.file.path) could not be rewritten (\(error)): it still opens with the old password")
            }
            lines.append("account key \(rekeyed.file.path) re-encrypted with the new password")
            json.append(("keystore", .string(rekeyed.file.path)))
        }
        if let ownPassphrase {
            lines.append("account key \(ownPassphrase.path) unchanged: it has its own wallet passphrase")
        }
        return Report(lines: lines, json: json)
    }

    /// Step one of a reset: asks the service to email a reset code. Against an emulator the code is read back at
    /// once (nothing is really emailed) and returned; against real Firebase it is nil (the user gets an email).
    public static func requestPasswordReset(email: String, paths: AppPaths, auth: AuthConfiguration) async throws
        -> String?
    {
        let client = try await auth.client(paths: paths)
        try await client.sendPasswordReset(email: email)
        guard auth.holdsEmailedCodes else { return nil }
        guard let code = try await client.emailedCode(.passwordReset, to: email, projectId: auth.projectId) else {
            throw AppError.failed("no account for \(email) (the service sent no reset code)")
        }
        return code
    }

    /// Step two of a reset: sets `newPassword` with the emailed `code`. The account key on this machine (if any)
    /// stays encrypted with the old password, which a reset cannot open; the report says so.
    public static func resetPassword(
        email: String, code: String, newPassword: String, paths: AppPaths, auth: AuthConfiguration
    ) async throws -> Report {
        let client = try await auth.client(paths: paths)
        let confirmed = try await client.resetPassword(code: code, newPassword: newPassword) ?? email
        var lines = ["password reset for \(confirmed) (auth: \(client.backend)); log in with the new password"]
        var json: [(String, JSONValue)] = [("email", .string(confirmed))]
        if let saved = try paths.sessions.read(), EmailAddress.normalize(saved.email) == EmailAddress.normalize(confirmed) {
            try paths.sessions.delete()  // Firebase revoked it with the reset.
            lines.append("the saved session was signed out")
        }
        if let uid = try paths.accounts.uid(email: confirmed), let address = try paths.accounts.address(uid: uid),
            let file = try paths.keystores.file(for: address)
        {
            lines.append(
                "note: the account key \(file.path) keeps its wallet passphrase (with --same-password: the OLD password; a reset cannot re-encrypt it)")
            json.append(("keystoreStillOldPassword", .string(file.path)))
        }
        return Report(lines: lines, json: json)
    }

    /// Verifies the logged-in user's email: sends a verification code and, with `code` nil against an emulator,
    /// applies the code it "emailed" at once. Against real Firebase without `code`, it only sends the email.
    public static func verifyEmail(paths: AppPaths, auth: AuthConfiguration, code: String?) async throws -> Report {
        let (user, session) = try await LoggedInUser.currentSession(paths: paths, auth: auth)
        let client = try await auth.client(paths: paths, savedURL: session.savedServiceURL)
        var code = code
        if code == nil {
            try await client.sendEmailVerification(session)
            guard auth.holdsEmailedCodes else {
                return Report(
                    lines: ["verification email sent to \(user.email); run `carchain account verify-email --code CODE` with the code from its link"],
                    json: [("email", .string(user.email)), ("sent", .bool(true)), ("verified", .bool(false))])
            }
            code = try await client.emailedCode(.verifyEmail, to: user.email, projectId: auth.projectId)
        }
        guard let code else { throw AppError.failed("the service sent no verification code for \(user.email)") }
        let verified = try await client.applyEmailVerification(code: code) ?? user.email
        return Report(
            lines: ["email \(verified) verified (auth: \(client.backend))"],
            json: [("email", .string(verified)), ("verified", .bool(true))])
    }

    /// Deletes the logged-in user's auth account after checking `password` (a fresh sign-in, which Firebase asks
    /// for), and forgets the session. The keystore stays (it may hold funds) and the chain keeps the user's
    /// registration (a chain cannot forget); the report says where the key is.
    public static func deleteAccount(paths: AppPaths, auth: AuthConfiguration, password: String) async throws -> Report {
        guard let saved = try paths.sessions.read() else {
            throw AppError.failed("not logged in: run `carchain login EMAIL` first")
        }
        let client = try await auth.client(paths: paths, savedURL: saved.savedServiceURL)
        let fresh = try await client.signIn(email: saved.email, password: password)
        try await client.deleteAccount(fresh)
        try paths.sessions.delete()
        var lines = ["deleted the auth account \(fresh.email) (uid \(fresh.uid), auth: \(client.backend)); logged out"]
        var json: [(String, JSONValue)] = [("email", .string(fresh.email)), ("uid", .string(fresh.uid)), ("deleted", .bool(true))]
        if let address = try paths.accounts.address(uid: fresh.uid) {
            let file = try paths.keystores.file(for: address)
            lines.append(
                "the Ethereum account \(address.checksummed) stays\(file.map { " (key: \($0.path))" } ?? ""), and so does its registration on chain")
            json.append(("address", .string(address.checksummed)))
        }
        return Report(lines: lines, json: json)
    }
}
