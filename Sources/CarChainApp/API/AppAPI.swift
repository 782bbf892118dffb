import AuthEmulator
import CarChain
import CarChainKit
import EthereumPrimitives
import EthereumRPC
import Foundation

/// The app's JSON API under `/app/api/v1` (docs/APP.md, "The web app"): it decodes a request, calls the
/// CarChainKit flow the CLI calls for the same step, and encodes the result. Every route but `GET /config` needs
/// a Firebase ID token (`Authorization: Bearer`), verified with the auth service's published keys as a backend
/// verifies real Firebase's (``IDTokenVerifier``: RS256, issuer, audience, expiry). Writes sign with the user's
/// keystore, unlocked by the wallet passphrase of that request and forgotten after it, one write at a time; a page
/// with its own wallet asks `POST /prepare` for the transaction and sends it itself.
public struct AppAPI: Sendable {
    let configuration: AppConfiguration
    /// The node, for reads (writes get a signing session from it).
    let reading: ChainSession
    /// The server's files: keystores and the uid → address book under `home` (`<data dir>/app`), the fleet registry
    /// in the data directory.
    let paths: AppPaths
    let tokens: TokenKeys
    let snapshots: FleetSnapshots
    let writes: WriteQueue
    let codeCheck: ContractCodeCheck

    /// How ID tokens are checked: with a fixed key set (the node's own auth emulator, in process), or with the keys an
    /// auth service publishes, fetched over HTTP (real Firebase, or an emulator elsewhere).
    public enum TokenKeys: Sendable {
        case fixed(IDTokenVerifier)
        case published(FirebaseTokenKeys)

        func verify(_ token: String) async throws -> IDTokenClaims {
            switch self {
            case .fixed(let verifier): return try await verifier.verify(token)
            case .published(let keys): return try await keys.verify(token)
            }
        }
    }

    /// An API over `client` (the node, usually in-process), with the files in `paths` and the auth service's keys
    /// `jwksJSON` (the JWK set document it publishes).
    public static func open(
        client: RPCClient, chainID: UInt64, contract: Address?, paths: AppPaths, jwksJSON: String, configuration: AppConfiguration
    ) async throws -> AppAPI {
        let verifier = try await IDTokenVerifier(jwksJSON: jwksJSON, projectId: configuration.projectId)
        return try await open(client: client, chainID: chainID, contract: contract, paths: paths, tokens: .fixed(verifier), configuration: configuration)
    }

    /// An API over `client`, checking ID tokens with `tokens`.
    public static func open(
        client: RPCClient, chainID: UInt64, contract: Address?, paths: AppPaths, tokens: TokenKeys, configuration: AppConfiguration
    ) async throws -> AppAPI {
        var connection = ChainConnection(url: nil, dataDirectory: paths.dataDirectory, chainID: chainID)
        connection.contract = contract
        let reading = try await ChainSession.reading(connection, over: client)
        return AppAPI(
            configuration: configuration, reading: reading, paths: paths, tokens: tokens,
            snapshots: FleetSnapshots(registry: paths.fleet), writes: WriteQueue(), codeCheck: ContractCodeCheck())
    }

    /// Answers one request; every failure is an ``AppAPIError`` body, never a thrown error.
    public func handle(_ request: AppRequest) async -> AppResponse {
        do {
            return try await route(request)
        } catch {
            var failure = AppAPIError.from(error)
            // A failure no route expects (500), or a contract call that did not answer as CarChain's ABI says, may
            // mean the contract is gone or replaced (`anvil_reset`, `anvil_setCode`): then that is the answer.
            if failure.status == 500 || error is CarChainError, let missing = await contractMissing() { failure = missing }
            return AppResponse(status: failure.status, body: failure.json)
        }
    }

    /// Why the chain has no CarChain this API can use, when that is so: none known, no code at the known address, or
    /// code there that does not answer CarChain's `manager()` (`anvil_setCode` put other code there); nil when the
    /// contract answers (or the chain does not: that is another failure).
    func contractMissing() async -> AppAPIError? {
        let contract: CarChainContract
        do { contract = try await reading.contract() } catch {
            let failure = AppAPIError.from(error)
            return failure.code == "NO_CONTRACT" ? failure : nil
        }
        do {
            _ = try await contract.manager()
            return nil
        } catch let error as CarChainError {
            return AppAPIError(
                status: 503, code: "NO_CONTRACT",
                message: "No CarChain contract is deployed on this chain: the code at \(contract.address.checksummed) does not answer as CarChain (\(error)).")
        } catch {
            return nil
        }
    }

    private func route(_ request: AppRequest) async throws -> AppResponse {
        let path = request.segments
        switch (request.method, path.first ?? "", path.count) {
        case ("GET", "config", 1): return AppResponse(body: try await config())
        case ("GET", "head", 1): return AppResponse(body: try await head())
        case ("GET", "me", 1): return AppResponse(body: try await me(try await user(request)))
        case ("GET", "me", 2) where path[1] == "history": return AppResponse(body: try await history(try await user(request)))
        case ("GET", "cars", 1): return AppResponse(body: try await cars(try await user(request), query: request.query))
        case ("GET", "availability", 1): return AppResponse(body: try await availability(try await user(request)))
        case ("GET", "stats", 1): return AppResponse(body: try await stats(try await user(request)))
        case ("GET", "users", 1): return AppResponse(body: try await users(try await user(request)))
        case ("GET", "quote", 1): return AppResponse(body: try await quote(try await user(request), query: request.query))
        case ("GET", "transactions", 2): return AppResponse(body: try await transaction(try await user(request), hash: path[1]))
        case ("POST", "transactions", 1): return AppResponse(body: try await relay(try await user(request), try request.jsonBody()))
        case ("POST", "account", 1): return AppResponse(body: try await setUpAccount(try await user(request), try request.jsonBody()))
        case ("POST", "rent", 1): return AppResponse(body: try await rent(try await user(request), try request.jsonBody()))
        case ("POST", "return", 1): return AppResponse(body: try await returnCar(try await user(request), try request.jsonBody()))
        case ("POST", "credit", 1): return AppResponse(body: try await buyCredit(try await user(request), try request.jsonBody()))
        case ("POST", "cars", 1): return AppResponse(body: try await registerCar(try await user(request), try request.jsonBody()))
        case ("POST", "cars", 3) where path[2] == "position":
            return AppResponse(body: try await placeCar(try await user(request), plate: path[1], try request.jsonBody()))
        case ("POST", "prepare", 1): return AppResponse(body: try await prepare(try await user(request), try request.jsonBody()))
        default:
            if Self.knownPaths.contains(path.first ?? "") {
                throw AppAPIError(status: 405, code: "METHOD_NOT_ALLOWED", message: "\(request.method) is not served at \(request.path).")
            }
            throw AppAPIError.notFound("There is no API endpoint \(request.path.prefix(200)).")
        }
    }

    private static let knownPaths: Set<String> = [
        "config", "head", "me", "cars", "availability", "stats", "users", "quote", "transactions", "account", "rent", "return",
        "credit", "prepare",
    ]

    /// The user whose verified ID token the request carries.
    func user(_ request: AppRequest) async throws -> LoggedInUser {
        guard let token = request.bearerToken else { throw AppAPIError.unauthenticated }
        let claims = try await tokens.verify(token)
        guard let email = claims.email else {
            throw AppAPIError(status: 403, code: "NO_EMAIL", message: "CarChain accounts sign in with an email and a password.")
        }
        return LoggedInUser(uid: claims.userId, email: email, paths: paths)
    }

    /// The CarChain contract, checked to be CarChain: code at its address (a chain reset or `anvil_setCode` can take it
    /// away) that answers as CarChain does (``ContractCodeCheck``). Either failure is `503 NO_CONTRACT`.
    func contract() async throws -> CarChainContract {
        let (contract, code) = try await reading.contractAndCode()
        try await codeCheck.check(contract, code: code, chainID: reading.chainID)
        return contract
    }

    /// The contract, the manager and the user's account: what every role decision starts from.
    func standing(of user: LoggedInUser) async throws -> (contract: CarChainContract, manager: Address, account: Address?) {
        let contract = try await self.contract()
        let manager = try await contract.manager()
        return (contract, manager, try await user.address(contract: contract))
    }

    /// The prices fees are shown at: the node's gas price and the configured ETH price.
    func pricing(gasPrice: UInt256) -> GasPricing {
        GasPricing(gasPrice: gasPrice, ethPriceMicros: configuration.ethPriceMicros)
    }

    /// Whether the server keeps users' keys (the dev node's mode).
    var serverSigns: Bool { configuration.signing == .server }
}

/// Runs the API's writes one at a time: each may unlock a keystore (scrypt, 256 MiB with the standard KDF) and
/// sends from a nonce it reads from the node, so two at once would only compete for memory and nonces.
actor WriteQueue {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy = true
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
