import CarChain
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// The signed-in user: their uid and email, and the Ethereum account the app made for them. The CLI knows the
/// user from its saved session (the file holds tokens only); the web app's server from a verified ID token. The
/// account's key stays in its keystore, encrypted with the user's wallet passphrase, and is unlocked per
/// operation (the passphrase is asked again, nothing is cached).
public struct LoggedInUser: Sendable {
    public let uid: String
    public let email: String
    /// Where the user's keystore and address record are (the CLI's `$CARCHAIN_HOME`, the app's `<data dir>/app`).
    public let paths: AppPaths
    /// The CLI's saved session; nil for a user the web app's server knows from a verified ID token.
    public let session: AuthSession?

    /// The user of a saved session (the CLI).
    public init(session: AuthSession, paths: AppPaths) {
        self.uid = session.uid
        self.email = session.email
        self.paths = paths
        self.session = session
    }

    /// A user identified by a verified ID token's `sub` and `email` (the web app's server), with no saved session.
    public init(uid: String, email: String, paths: AppPaths) {
        self.uid = uid
        self.email = email
        self.paths = paths
        self.session = nil
    }

    /// The saved session, refreshed through the auth service when its ID token has expired (or is about to);
    /// throws "not logged in" when there is none.
    public static func current(paths: AppPaths, auth: AuthConfiguration) async throws -> LoggedInUser {
        try await currentSession(paths: paths, auth: auth).user
    }

    /// ``current(paths:auth:)`` with the (refreshed) saved session it came from.
    static func currentSession(paths: AppPaths, auth: AuthConfiguration) async throws -> (user: LoggedInUser, session: AuthSession) {
        guard let saved = try paths.sessions.read() else {
            throw AppError.failed("not logged in: run `carchain login EMAIL` (or `carchain signup EMAIL`)")
        }
        var session = saved
        if saved.isExpired(at: Date(), margin: 300) {
            let client = try await auth.client(paths: paths, savedURL: saved.savedServiceURL)
            do {
                session = try await client.refresh(saved)
            } catch {
                throw AppError.failed("your session has ended (\(error)); run `carchain login \(saved.email)`")
            }
            try paths.sessions.write(session)
        }
        return (LoggedInUser(session: session, paths: paths), session)
    }

    /// The user's address: the one recorded on this machine at signup, else the one bound on chain.
    public func address(contract: CarChainContract?) async throws -> Address? {
        if let recorded = try paths.accounts.address(uid: uid) { return recorded }
        guard let contract else { return nil }
        let bound = try await contract.getUserAccount(uid)
        return bound == Address.zero ? nil : bound
    }

    /// Why the user's account key could not be unlocked.
    public enum KeyError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The wallet passphrase does not open the keystore.
        case wrongPassphrase(email: String)
        /// This machine (or the app's server) holds no keystore for the user's address.
        case noKeystore(email: String, address: Address, directory: String)
        /// The user has no Ethereum account yet (neither recorded here nor bound on chain).
        case noAccount(email: String)

        public var description: String {
            switch self {
            case .wrongPassphrase(let email): return "wrong wallet passphrase for \(email)'s account key"
            case .noKeystore(let email, let address, let directory):
                return "no keystore for \(address.checksummed) in \(directory): this machine does not hold \(email)'s key"
            case .noAccount(let email):
                return "\(email) has no Ethereum account on this machine or on chain; run `carchain login \(email)` to set it up"
            }
        }
    }

    /// Unlocks the user's keystore with `password`.
    public func key(address: Address, password: String) throws -> PrivateKey {
        guard let file = try paths.keystores.file(for: address) else {
            throw KeyError.noKeystore(email: email, address: address, directory: paths.keystores.url.path)
        }
        do {
            return try KeystoreDirectory.load(file).decrypt(password: password)
        } catch KeystoreError.wrongPassword {
            throw KeyError.wrongPassphrase(email: email)
        }
    }

    /// Asks for the wallet passphrase (`password` gets the prompt) and unlocks the key; also returns the address.
    public func unlock(contract: CarChainContract?, password: (String) throws -> String) async throws -> (address: Address, key: PrivateKey) {
        guard let address = try await address(contract: contract) else { throw KeyError.noAccount(email: email) }
        return (address, try key(address: address, password: try password("Wallet passphrase for \(email)'s account key: ")))
    }
}

extension AuthSession {
    /// The auth service a saved session came from, as a URL to reach it again (nil: the embedded one).
    var savedServiceURL: String? { backend == "in-process" ? nil : backend }
}
