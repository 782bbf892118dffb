import CarChain
import EthereumCrypto
import EthereumPrimitives

/// Who a transaction command acts for when no user id is typed: the logged-in user, signing with their own
/// account (keystore unlocked with their password, asked again for each command), or with the explicit signer
/// when one is given (`--dev-account`, `--keystore`, `--private-key-env`: e.g. the manager acting for the user).
struct ActingUser {
    let user: LoggedInUser
    let session: NodeSession
    let contract: CarChainContract
    /// The signing account.
    let signer: Address
    /// The contract's manager.
    let manager: Address

    /// The logged-in user's own account, when known.
    let account: Address?

    /// Whether the logged-in user is the manager: their account is the contract's `manager()`.
    var isManager: Bool { account == manager }

    /// Resolves the logged-in user and the signer. With `refuseManager` a manager is refused, with
    /// `requireManager` anyone else, before any password is asked.
    static func resolve(
        node: NodeOptions, signer: NodeSignerOptions, transactions: TransactionOptions, auth: AuthOptions,
        refuseManager: Bool = false, requireManager: Bool = false
    ) async throws -> ActingUser {
        let paths = AppPaths.current(node: node)
        let user = try await LoggedInUser.current(paths: paths, auth: auth)
        let explicit = signer.privateKeyEnv != nil || signer.keystore != nil || signer.devAccount != nil
        let reading = try await NodeSession.reading(node)
        let readContract = try await reading.contract()
        let manager = try await readContract.manager()
        let account = try await user.address(contract: readContract)
        if refuseManager && account == manager {
            throw CLIError("\(user.email) is the manager (\(manager.checksummed)): the manager registers cars and does not rent them; log in as a user to rent")
        }
        if requireManager && account != manager {
            throw CLIError("only the manager (\(manager.checksummed)) registers cars; \(user.email) (\(account?.checksummed ?? "no account")) is a user (to act as the manager, give its signer, e.g. --dev-account 0)")
        }
        let session: NodeSession
        if explicit {
            // The same connection signs: the embedded chain is opened once per process.
            let key = try await signer.loadKey(chainID: reading.chainID) { try? await reading.client.clientVersion() }
            session = try await reading.signing(with: key, transactions: transactions)
        } else {
            let unlocked = try await user.unlock(contract: readContract, auth: auth, passwordFile: signer.password.passwordFile)
            session = try await reading.signing(with: unlocked.key, transactions: transactions)
        }
        let contract = try await session.contract()
        guard let address = session.sender?.address else { throw CLIError("no signer") }
        return ActingUser(user: user, session: session, contract: contract, signer: address, manager: manager, account: account)
    }
}
