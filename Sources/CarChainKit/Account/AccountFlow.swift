import CarChain
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// The account steps of the app — sign up, log in, log out, who am I — as library calls: the CLI's
/// `signup`, `login`, `logout` and `whoami` (and `carchain demo`) parse their options, call these and print
/// the outcome; a web app calls the same.
public enum AccountFlow {
    /// What a step did: lines for people, members for a JSON answer, and the session it leaves.
    public struct Outcome: Sendable {
        public var lines: [String]
        public var json: [(String, JSONValue)]
        public var session: AuthSession
        public var address: Address?
        /// Gas used by the transactions sent (function or "transfer", gas).
        public var gas: [(String, UInt64)] = []
    }

    /// Signs `email` up, stores `key` encrypted with `password`, logs in and puts the user on chain (funded on
    /// a development chain, then registered from their own account).
    ///
    /// The key's keystore is encrypted with `walletPassphrase`, asked separately from the auth `password` so that a
    /// leaked login password does not unlock the key (the CLI's `--same-password` passes the same text).
    public static func signup(
        email: String, password: String, walletPassphrase: String, key: PrivateKey, paths: AppPaths,
        auth: AuthConfiguration, chain: ChainSession, settings: SendSettings, fund: UInt256,
        kdf: Keystore.KDF = .standardScrypt
    ) async throws -> Outcome {
        // Checked before the auth account is created.
        let existing = try existingKeystore(for: key, walletPassphrase: walletPassphrase, paths: paths)
        let client = try await auth.client(paths: paths)
        let session = try await client.signUp(email: email, password: password)
        let account = try await createAccount(
            uid: session.uid, email: session.email, walletPassphrase: walletPassphrase, key: key, existing: existing,
            samePassword: walletPassphrase == password, saving: session, paths: paths, chain: chain, settings: settings, fund: fund,
            kdf: kdf)
        var lines = ["signed up \(session.email): uid \(session.uid) (auth: \(client.backend))"] + account.lines
        lines.append("logged in as \(session.email) (session saved in \(paths.sessions.path))")
        let json: [(String, JSONValue)] = [("email", .string(session.email)), ("uid", .string(session.uid))] + account.json
        return Outcome(lines: lines, json: json, session: session, address: account.address, gas: account.gas)
    }

    /// What ``createAccount(uid:email:walletPassphrase:key:paths:chain:settings:fund:kdf:)`` did.
    public struct AccountCreation: Sendable {
        public var lines: [String]
        public var json: [(String, JSONValue)]
        public var address: Address
        /// True when the uid is registered on chain at the end.
        public var registered: Bool
        /// Gas used by the transactions sent (function or "transfer", gas).
        public var gas: [(String, UInt64)]
    }

    /// The second half of a sign-up, for an auth account that exists: `key`'s keystore (encrypted with
    /// `walletPassphrase`, mode 0600, in `paths`' keystore directory), the uid → address record, and the account put
    /// on chain (funded on a development chain, then registered from its own account). The CLI's `signup` runs it
    /// after creating the auth account; the web app's server after the page signed up with the auth service.
    public static func createAccount(
        uid: String, email: String, walletPassphrase: String, key: PrivateKey, paths: AppPaths, chain: ChainSession,
        settings: SendSettings, fund: UInt256, kdf: Keystore.KDF = .standardScrypt
    ) async throws -> AccountCreation {
        let existing = try existingKeystore(for: key, walletPassphrase: walletPassphrase, paths: paths)
        return try await createAccount(
            uid: uid, email: email, walletPassphrase: walletPassphrase, key: key, existing: existing, samePassword: false,
            saving: nil, paths: paths, chain: chain, settings: settings, fund: fund, kdf: kdf)
    }

    /// An imported key may already have a keystore here: it must open with this passphrase, or the user could not
    /// unlock their own account later. Returns the existing file, if any.
    static func existingKeystore(for key: PrivateKey, walletPassphrase: String, paths: AppPaths) throws -> URL? {
        let address = key.address
        guard let existing = try paths.keystores.file(for: address) else { return nil }
        do {
            _ = try KeystoreDirectory.load(existing).decrypt(password: walletPassphrase)
        } catch {
            throw AppError.failed(
                "a keystore for \(address.checksummed) already exists (\(existing.path)) and does not open with this wallet passphrase")
        }
        return existing
    }

    private static func createAccount(
        uid: String, email: String, walletPassphrase: String, key: PrivateKey, existing: URL?, samePassword: Bool,
        saving session: AuthSession?, paths: AppPaths, chain: ChainSession, settings: SendSettings, fund: UInt256, kdf: Keystore.KDF
    ) async throws -> AccountCreation {
        let address = key.address
        let file: URL
        if let existing {
            file = existing
        } else {
            file = try paths.keystores.store(try Keystore.encrypt(key, password: walletPassphrase, kdf: kdf))
        }
        try paths.accounts.record(uid: uid, email: email, address: address)
        // The CLI is logged in from here on, so a registration that fails below is finished by `carchain login`.
        if let session { try paths.sessions.write(session) }
        var lines = [
            "account \(address.checksummed): keystore \(file.path) (mode 0600, encrypted with your "
                + (samePassword ? "password)" : "wallet passphrase)")
        ]
        var json: [(String, JSONValue)] = [("address", .string(address.checksummed)), ("keystore", .string(file.path))]
        let setup = try await AccountSetup.ensureOnChain(uid: uid, email: email, key: key, session: chain, settings: settings, fund: fund)
        lines += setup.lines
        json += setup.json
        json.append(("registered", .bool(setup.registered)))
        return AccountCreation(lines: lines, json: json, address: address, registered: setup.registered, gas: setup.gas)
    }

    /// Signs in, saves the session, and (when the chain is reachable) finishes the on-chain setup: an account
    /// made elsewhere gets a new Ethereum account on this machine, an unregistered uid is registered.
    public static func login(
        email: String, password: String, paths: AppPaths, auth: AuthConfiguration, connection: ChainConnection,
        settings: SendSettings
    ) async throws -> Outcome {
        let client = try await auth.client(paths: paths)
        let session = try await client.signIn(email: email, password: password)
        try paths.sessions.write(session)
        var lines = ["logged in as \(session.email): uid \(session.uid) (auth: \(client.backend))"]
        var json: [(String, JSONValue)] = [("email", .string(session.email)), ("uid", .string(session.uid))]
        let user = LoggedInUser(session: session, paths: paths)
        var address: Address?
        do {
            let chain = try await ChainSession.reading(connection)
            let contract = try await chain.contractIfDeployed()
            if let known = try await user.address(contract: contract) {
                address = known
                if let contract, !(try await contract.isUserRegistered(session.uid)) {
                    let key = try user.key(address: known, password: password)
                    let setup = try await AccountSetup.ensureOnChain(
                        uid: session.uid, email: session.email, key: key, session: chain, settings: settings, fund: AccountSetup.oneEther)
                    lines += setup.lines
                    json += setup.json
                }
            } else {
                // An account made elsewhere: this machine gets a new Ethereum account for it.
                let key = PrivateKey.random()
                let file = try paths.keystores.store(try Keystore.encrypt(key, password: password))
                try paths.accounts.record(uid: session.uid, email: session.email, address: key.address)
                address = key.address
                lines.append("new account \(key.address.checksummed) for this machine: keystore \(file.path)")
                let setup = try await AccountSetup.ensureOnChain(
                    uid: session.uid, email: session.email, key: key, session: chain, settings: settings, fund: AccountSetup.oneEther)
                lines += setup.lines
                json += setup.json
            }
            if let address, let contract {
                let role = try await contract.manager() == address ? "manager" : "user"
                lines.append("account \(address.checksummed), role \(role) on chain \(chain.chainID)")
                json.append(("role", .string(role)))
            }
        } catch {
            lines.append("(the chain could not be reached for the account check: \(error))")
        }
        if let address { json.append(("address", .string(address.checksummed))) }
        return Outcome(lines: lines, json: json, session: session, address: address)
    }

    /// Forgets the saved session (the account and its keystore stay); returns the email it was for, if any.
    public static func logout(paths: AppPaths) throws -> String? {
        let saved = try? paths.sessions.read()
        try paths.sessions.delete()
        return saved?.email
    }

    /// The logged-in user: the session checked with the auth service (`accounts:lookup`, refreshed when its ID
    /// token has expired), and, when the chain answers, the account and the role the contract gives it.
    public static func whoami(paths: AppPaths, auth: AuthConfiguration, connection: ChainConnection) async throws -> (lines: [String], json: JSONValue) {
        let (user, session) = try await LoggedInUser.currentSession(paths: paths, auth: auth)
        let client = try await auth.client(paths: paths, savedURL: session.savedServiceURL)
        let checked: (session: AuthSession, account: AuthAccount)
        do {
            checked = try await client.currentAccount(session)
        } catch {
            throw AppError.failed("the saved session is no longer valid (\(error)); run `carchain login \(user.email)`")
        }
        if checked.session != session { try paths.sessions.write(checked.session) }
        var members: [(key: String, value: JSONValue)] = [
            ("email", .string(checked.account.email)), ("uid", .string(checked.account.uid)),
            ("idTokenExpires", .string(ISO8601DateFormatter().string(from: checked.session.expiresAt))),
            ("auth", .string(checked.session.backend)),
        ]
        var lines = ["email:   \(checked.account.email)", "uid:     \(checked.account.uid)"]
        var chainNote: String?
        do {
            let chain = try await ChainSession.reading(connection)
            let contract = try await chain.contractIfDeployed()
            let address = try await user.address(contract: contract)
            lines.append("account: \(address?.checksummed ?? "-")")
            members.append(("address", address.map { .string($0.checksummed) } ?? .null))
            if let contract {
                let manager = try await contract.manager()
                let role = address == manager ? "manager" : "user"
                lines.append("role:    \(role) (manager is \(manager.checksummed))")
                members.append(("role", .string(role)))
                let registered = try await contract.isUserRegistered(user.uid)
                members.append(("registered", .bool(registered)))
                if !registered { lines.append("         not registered on chain yet: run `carchain login \(user.email)`") }
            }
        } catch {
            chainNote = "(chain not reachable: \(error))"
        }
        lines.append("session: ID token valid until \(checked.session.expiresAt), auth \(checked.session.backend)")
        if let chainNote { lines.append(chainNote) }
        return (lines, .object(members))
    }
}
