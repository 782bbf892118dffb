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
        let readContract = try await reading.contract()
        let manager = try await readContract.manager()
        let account = try await user.address(contract: readContract)
        if role == .notManager && account == manager {
            throw AppError.failed(
                "\(user.email) is the manager (\(manager.checksummed)): the manager registers cars and does not rent them; log in as a user to rent")
        }
        if role == .managerOnly && account != manager {
            throw AppError.failed(
                "only the manager (\(manager.checksummed)) registers cars; \(user.email) (\(account?.checksummed ?? "no account")) is a user (to act as the manager, give its signer, e.g. --dev-account 0)")
        }
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
}
