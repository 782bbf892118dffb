import AuthEmulator
import CarChainApp
import CarChainKit
import Chain
import DevNode
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import Foundation
import Testing

/// One RSA key for the suites (generation is slow).
enum AppTestKeys {
    static let shared = Task { try await TokenSigner.generate().signer }
}

/// A chain with CarChain in memory, an auth emulator whose clock the test sets, and the web app over both, as
/// `carchain node` assembles them (the app reads the chain in-process and trusts the emulator's published keys).
struct AppHarness {
    let chain: DevChain
    let handler: NodeRPCHandler
    let client: RPCClient
    let auth: AuthEmulator
    let clock: ManualAuthClock
    let app: CarChainWebApp
    let contract: Address

    /// The contract's deployer: dev account 0, the manager.
    static let managerKey = try! DevAccounts.key(index: 0)

    static func make(ethPriceMicros: UInt256? = nil) async throws -> AppHarness {
        let chain = try await DevChain(config: ChainConfig(), storage: .memory)
        let contract = try await EmbeddedChain.deploy(on: chain, dataDirectory: nil)
        let handler = NodeRPCHandler(chain: chain)
        let client = RPCClient(transport: InProcessTransport(handler: handler, endpoint: "test chain"))
        let clock = ManualAuthClock(start: Date())
        let auth = try AuthEmulator(
            store: try AuthStore.inMemory(), signer: try await AppTestKeys.shared.value, clock: clock, projectId: "demo-carchain",
            policy: AuthPolicy(scrypt: ScryptParameters(logN: 10, r: 8, p: 1)))
        let jwks = String(decoding: try JSONEncoder().encode(AuthWire.JSONWebKeySet(keys: [auth.signer.jwk])), as: UTF8.self)
        let configuration = AppConfiguration(ethPriceMicros: ethPriceMicros, kdf: .lightScrypt)
        let app = try await CarChainWebApp.open(
            client: client, chainID: chain.chainId, contract: contract, dataDirectory: nil, jwksJSON: jwks, configuration: configuration)
        return AppHarness(chain: chain, handler: handler, client: client, auth: auth, clock: clock, app: app, contract: contract)
    }

    func close() async {
        app.close()
        await chain.close()
    }

    /// Signs a user up with the auth service (as the page does) and returns the ID token.
    func signUp(_ email: String, password: String = "login-password") async throws -> String {
        try await AuthClient.inProcess(auth).signUp(email: email, password: password).idToken
    }

    /// Signs up and sets up the account with a key on the server (or `privateKey`), as the sign-up page does.
    func user(_ email: String, passphrase: String = "wallet-pass", privateKey: String? = nil) async throws -> String {
        let token = try await signUp(email)
        var body: [(String, JSONValue)] = [("walletPassphrase", .string(passphrase))]
        if let privateKey { body.append(("privateKey", .string(privateKey))) }
        let answer = await call("POST", "/account", token: token, body: .object(body))
        #expect(answer.status == 200, "account setup for \(email): \(answer.body)")
        return token
    }

    /// The manager, signed up with the deployer's key.
    func manager() async throws -> String {
        try await user("manager@example.com", passphrase: "manager-pass", privateKey: Hex.encode(Self.managerKey.rawBytes))
    }

    /// One API request.
    func call(_ method: String, _ path: String, token: String? = nil, body: JSONValue? = nil, query: [String: String] = [:]) async
        -> AppResponse
    {
        await app.api.handle(AppRequest(
            method: method, path: path, query: query, body: body.map { Array($0.description.utf8) } ?? [],
            authorization: token.map { "Bearer \($0)" }))
    }

    /// Registers a car as the manager.
    func registerCar(_ plate: String, manager: String, at point: (Double, Double) = (40.4168, -3.7038)) async {
        let answer = await call("POST", "/cars", token: manager, body: .object([
            ("plate", .string(plate)), ("latitude", .number(String(point.0))), ("longitude", .number(String(point.1))),
            ("walletPassphrase", .string("manager-pass")),
        ]))
        #expect(answer.status == 200, "register \(plate): \(answer.body)")
    }
}

/// The API error code of an answer.
func code(_ response: AppResponse) -> String? { response.body["error"]?["code"]?.stringValue }

/// `{"walletPassphrase": …}` plus fields.
func write(_ passphrase: String, _ fields: (String, JSONValue)...) -> JSONValue {
    .object([("walletPassphrase", .string(passphrase))] + fields)
}

extension JSONValue {
    /// An array's item, nil out of range or for a non-array.
    subscript(index: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
