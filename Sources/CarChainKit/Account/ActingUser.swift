import CarChain
import EthereumCrypto
import EthereumPrimitives

/// Who a transaction acts for when no user id is given: the logged-in user, signing with their own account
/// (keystore unlocked with their password, asked again for each operation), or with an explicit signer when
/// one is given (e.g. the manager acting for the user).
public struct ActingUser: Sendable {
    public let user: LoggedInUser
    /// The connection that signs.
    public let session: ChainSession
    public let contract: CarChainContract
    /// The signing account.
    public let signer: Address
    /// The contract's manager.
    public let manager: Address
    /// The logged-in user's own account, when known.
    public let account: Address?

    /// Who may act.
    public enum Role: Sendable {
        /// Anyone.
        case any
        /// Not the manager (the manager registers cars and does not rent them).
        case notManager
        /// Only the manager (who registers cars).
        case managerOnly
    }

    /// A role check that failed, before any passphrase was asked or anything signed. The description is the CLI's
    /// line; the web app answers with its own words for each case.
    public enum RoleRefusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The manager tried to rent (the manager runs the fleet).
        case managerCannotRent(email: String, manager: Address)
        /// A user tried what only the manager does.
        case notManager(email: String, account: Address?, manager: Address)

        public var description: String {
            switch self {
            case .managerCannotRent(let email, let manager):
                return "\(email) is the manager (\(manager.checksummed)): the manager registers cars and does not rent them; log in as a user to rent"
            case .notManager(let email, let account, let manager):
                return "only the manager (\(manager.checksummed)) registers cars; \(email) (\(account?.checksummed ?? "no account")) is a user (to act as the manager, give its signer, e.g. --dev-account 0)"
            }
        }
    }

    /// Resolves the logged-in user and the signer, refusing the wrong `role` before any password is asked.
    /// An explicit `signer` signs; otherwise the user's keystore, unlocked with the password `password`
    /// returns for its prompt.
    public static func resolve(
        connection: ChainConnection, auth: AuthConfiguration, signer: SignerSource, settings: SendSettings, role: Role = .any,
        password: (String) throws -> String
    ) async throws -> ActingUser {
        let paths = AppPaths.current(connection)
        let user = try await LoggedInUser.current(paths: paths, auth: auth)
        let reading = try await ChainSession.reading(connection)
        return try await resolve(user: user, reading: reading, signer: signer, settings: settings, role: role, password: password)
    }

    /// The same for a user already known (the web app's server: from a verified ID token) on a reading session.
    public static func resolve(
        user: LoggedInUser, reading: ChainSession, signer: SignerSource = .automatic, settings: SendSettings, role: Role = .any,
        password: (String) throws -> String
    ) async throws -> ActingUser {
        let readContract = try await reading.contract()
        let manager = try await readContract.manager()
        let account = try await user.address(contract: readContract)
        try check(role, account: account, manager: manager, email: user.email)
        let key: PrivateKey
        if signer.isExplicit {
            // The same connection signs: the embedded chain is opened once per process.
            key = try await signer.key(chainID: reading.chainID) { try? await reading.client.clientVersion() }
        } else {
            key = try await user.unlock(contract: readContract, password: password).key
        }
        let session = try await reading.signing(with: key, settings: settings)
        let contract = try await session.contract()
        guard let address = session.sender?.address else { throw AppError.failed("no signer") }
        return ActingUser(user: user, session: session, contract: contract, signer: address, manager: manager, account: account)
    }

    /// Throws ``RoleRefusal`` when `account` may not act in `role`.
    public static func check(_ role: Role, account: Address?, manager: Address, email: String) throws(RoleRefusal) {
        if role == .notManager && account == manager { throw .managerCannotRent(email: email, manager: manager) }
        if role == .managerOnly && account != manager { throw .notManager(email: email, account: account, manager: manager) }
    }
}
