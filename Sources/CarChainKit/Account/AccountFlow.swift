import CarChain
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// The steps behind `signup` and `login`, callable from `carchain demo` too.
enum AccountFlow {
    /// What a signup or login did.
    struct Outcome {
        var lines: [String]
        var json: [(String, JSONValue)]
        var session: AuthSession
        var address: Address?
        /// Gas used by the transactions sent (function or "transfer", gas).
        var gas: [(String, UInt64)] = []

        func emit(json asJSON: Bool) {
            if asJSON {
                print(JSONValue.object(json.map { (key: $0.0, value: $0.1) }).description)
            } else {
                print(lines.joined(separator: "\n"))
            }
        }
    }

    /// Signs `email` up, stores `key` encrypted with `password`, logs in and puts the user on chain.
    static func signup(
        email: String, password: String, key: PrivateKey, paths: AppPaths, auth: AuthOptions, chain: NodeSession,
        transactions: TransactionOptions, fund: UInt256, kdf: Keystore.KDF = .standardScrypt
    ) async throws -> Outcome {
        let address = key.address
        // An imported key may already have a keystore here: it must open with this password, or the user
        // could not unlock their own account later. Checked before the auth account is created.
        let existing = try paths.keystores.file(for: address)
        if let existing {
            do {
                _ = try KeystoreDirectory.load(existing).decrypt(password: password)
            } catch {
                throw CLIError("a keystore for \(address.checksummed) already exists (\(existing.path)) and does not open with this password")
            }
        }
        let client = try await auth.client(paths: paths)
        let session = try await client.signUp(email: email, password: password)
        let file: URL
        if let existing {
            file = existing
        } else {
            file = try paths.keystores.store(try Keystore.encrypt(key, password: password, kdf: kdf))
        }
        try paths.accounts.record(uid: session.uid, email: session.email, address: address)
        try paths.sessions.write(session)
        var lines = [
            "signed up \(session.email): uid \(session.uid) (auth: \(client.backend))",
            "account \(address.checksummed): keystore \(file.path) (mode 0600, encrypted with your password)",
        ]
        var json: [(String, JSONValue)] = [
            ("email", .string(session.email)), ("uid", .string(session.uid)), ("address", .string(address.checksummed)),
            ("keystore", .string(file.path)),
        ]
        let setup = try await AccountSetup.ensureOnChain(
            uid: session.uid, email: session.email, key: key, session: chain, transactions: transactions, fund: fund)
        lines += setup.lines
        json += setup.json
        json.append(("registered", .bool(setup.registered)))
        lines.append("logged in as \(session.email) (session saved in \(paths.sessions.path))")
        return Outcome(lines: lines, json: json, session: session, address: address, gas: setup.gas)
    }

    /// Signs in, saves the session, and (when the chain is reachable) finishes the on-chain setup.
    static func login(
        email: String, password: String, paths: AppPaths, auth: AuthOptions, node: NodeOptions, transactions: TransactionOptions
    ) async throws -> Outcome {
        let client = try await auth.client(paths: paths)
        let session = try await client.signIn(email: email, password: password)
        try paths.sessions.write(session)
        var lines = ["logged in as \(session.email): uid \(session.uid) (auth: \(client.backend))"]
        var json: [(String, JSONValue)] = [("email", .string(session.email)), ("uid", .string(session.uid))]
        let user = LoggedInUser(session: session, paths: paths)
        var address: Address?
        do {
            let chain = try await NodeSession.reading(node)
            let contract = try await chain.contractIfDeployed()
            if let known = try await user.address(contract: contract) {
                address = known
                if let contract, !(try await contract.isUserRegistered(session.uid)) {
                    let key = try user.key(address: known, password: password)
                    let setup = try await AccountSetup.ensureOnChain(
                        uid: session.uid, email: session.email, key: key, session: chain, transactions: transactions, fund: AccountSetup.oneEther)
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
                    uid: session.uid, email: session.email, key: key, session: chain, transactions: transactions, fund: AccountSetup.oneEther)
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
}
