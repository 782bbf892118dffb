import CarChain
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// The user of the saved session: their uid and email, and the Ethereum account the app made for them. The
/// session file holds tokens only; the account's key stays in its keystore, encrypted with the user's
/// password, and is unlocked per command (the password is asked again, nothing is cached).
struct LoggedInUser {
    let session: AuthSession
    let paths: AppPaths

    var uid: String { session.uid }
    var email: String { session.email }

    /// The saved session, refreshed through the auth service when its ID token has expired (or is about to);
    /// throws "not logged in" when there is none.
    static func current(paths: AppPaths, auth: AuthOptions) async throws -> LoggedInUser {
        guard let saved = try paths.sessions.read() else {
            throw CLIError("not logged in: run `carchain login EMAIL` (or `carchain signup EMAIL`)")
        }
        var session = saved
        if saved.isExpired(at: Date(), margin: 300) {
            let client = try await auth.client(paths: paths, url: saved.backend == "in-process" ? nil : saved.backend)
            do {
                session = try await client.refresh(saved)
            } catch {
                throw CLIError("your session has ended (\(error)); run `carchain login \(saved.email)`")
            }
            try paths.sessions.write(session)
        }
        return LoggedInUser(session: session, paths: paths)
    }

    /// The user's address: the one recorded on this machine at signup, else the one bound on chain.
    func address(contract: CarChainContract?) async throws -> Address? {
        if let recorded = try paths.accounts.address(uid: uid) { return recorded }
        guard let contract else { return nil }
        let bound = try await contract.getUserAccount(uid)
        return bound == Address.zero ? nil : bound
    }

    /// Unlocks the user's keystore with `password`.
    func key(address: Address, password: String) throws -> PrivateKey {
        guard let file = try paths.keystores.file(for: address) else {
            throw CLIError("no keystore for \(address.checksummed) in \(paths.keystores.url.path): this machine does not hold \(email)'s key")
        }
        do {
            return try KeystoreDirectory.load(file).decrypt(password: password)
        } catch KeystoreError.wrongPassword {
            throw CLIError("wrong password for \(email)'s account key")
        }
    }

    /// Asks for the password (or reads it as `auth` says) and unlocks the key; also returns the address.
    func unlock(contract: CarChainContract?, auth: AuthOptions, passwordFile: String?) async throws -> (address: Address, key: PrivateKey) {
        guard let address = try await address(contract: contract) else {
            throw CLIError("\(email) has no Ethereum account on this machine or on chain; run `carchain login \(email)` to set it up")
        }
        let password = try auth.password(prompt: "Password for \(email): ", passwordFile: passwordFile)
        return (address, try key(address: address, password: password))
    }
}
