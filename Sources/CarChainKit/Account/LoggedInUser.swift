import CarChain
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// The user of the saved session: their uid and email, and the Ethereum account the app made for them. The
/// session file holds tokens only; the account's key stays in its keystore, encrypted with the user's
/// password, and is unlocked per operation (the password is asked again, nothing is cached).
public struct LoggedInUser: Sendable {
    public let session: AuthSession
    public let paths: AppPaths

    public init(session: AuthSession, paths: AppPaths) {
        self.session = session
        self.paths = paths
    }

    public var uid: String { session.uid }
    public var email: String { session.email }

    /// The saved session, refreshed through the auth service when its ID token has expired (or is about to);
    /// throws "not logged in" when there is none.
    public static func current(paths: AppPaths, auth: AuthConfiguration) async throws -> LoggedInUser {
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
        return LoggedInUser(session: session, paths: paths)
    }

    /// The user's address: the one recorded on this machine at signup, else the one bound on chain.
    public func address(contract: CarChainContract?) async throws -> Address? {
        if let recorded = try paths.accounts.address(uid: uid) { return recorded }
        guard let contract else { return nil }
        let bound = try await contract.getUserAccount(uid)
        return bound == Address.zero ? nil : bound
    }

    /// Unlocks the user's keystore with `password`.
    public func key(address: Address, password: String) throws -> PrivateKey {
        guard let file = try paths.keystores.file(for: address) else {
            throw AppError.failed("no keystore for \(address.checksummed) in \(paths.keystores.url.path): this machine does not hold \(email)'s key")
        }
        do {
            return try KeystoreDirectory.load(file).decrypt(password: password)
        } catch KeystoreError.wrongPassword {
            throw AppError.failed("wrong wallet passphrase for \(email)'s account key")
        }
    }

    /// Asks for the wallet passphrase (`password` gets the prompt) and unlocks the key; also returns the address.
    public func unlock(contract: CarChainContract?, password: (String) throws -> String) async throws -> (address: Address, key: PrivateKey) {
        guard let address = try await address(contract: contract) else {
            throw AppError.failed("\(email) has no Ethereum account on this machine or on chain; run `carchain login \(email)` to set it up")
        }
        return (address, try key(address: address, password: try password("Wallet passphrase for \(email)'s account key: ")))
    }
}

extension AuthSession {
    /// The auth service a saved session came from, as a URL to reach it again (nil: the embedded one).
    var savedServiceURL: String? { backend == "in-process" ? nil : backend }
}
