import AuthEmulator
import Benchmark
import CarChainApp
import CarChainKit
import Chain
import DevNode
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import Foundation

/// The web app's API reads in process (request in, JSON out: token verification, chain reads, encoding) on the
/// demo's fleet of 18 cars, next to `eth_blockNumber` through the node's handler, the cheapest request the node
/// answers (the reference of the same run). tools/bench-app.py measures the same reads over loopback HTTP and the
/// page's first load and redraws in Chromium.
func registerAppBenchmarks() {
    for path in ["/cars", "/availability", "/me"] {
        Benchmark(
            "app API read GET \(path) (18 cars)",
            configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(2))
        ) { benchmark async in
            // One fixture for every sample (it registers 18 cars); the first reads make the fleet's snapshot.
            guard let fixture = try? await AppBenchmarkFixture.shared.value else { return }
            let request = AppRequest(method: "GET", path: path, authorization: "Bearer \(fixture.token)")
            for _ in 0..<5 { _ = await fixture.app.api.handle(request) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(await fixture.app.api.handle(request)) }
            benchmark.stopMeasurement()
        }
    }
    Benchmark(
        "app API reference: node handler eth_blockNumber",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(2))
    ) { benchmark async in
        guard let fixture = try? await AppBenchmarkFixture.shared.value else { return }
        let body = Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_blockNumber\",\"params\":[]}".utf8)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(await fixture.handler.handle(body)) }
        benchmark.stopMeasurement()
    }
}

/// A chain with the demo's 18 cars registered through the app's API by the manager, and a signed-in user's token.
struct AppBenchmarkFixture: Sendable {
    let chain: DevChain
    let handler: NodeRPCHandler
    let app: CarChainWebApp
    let token: String

    /// Made once per benchmark process, on first use.
    static let shared = Task { try await make() }

    static func make() async throws -> AppBenchmarkFixture {
        let chain = try await DevChain(config: .deterministic())
        let contract = try await EmbeddedChain.deploy(on: chain, dataDirectory: nil)
        let handler = NodeRPCHandler(chain: chain)
        let client = RPCClient(transport: InProcessTransport(handler: handler, endpoint: "bench"))
        let auth = try await AuthEmulator.ephemeral(policy: AuthPolicy(scrypt: ScryptParameters(logN: 10, r: 8, p: 1)))
        let jwks = String(decoding: try JSONEncoder().encode(AuthWire.JSONWebKeySet(keys: [auth.signer.jwk])), as: UTF8.self)
        let app = try await CarChainWebApp.open(
            client: client, chainID: chain.chainId, contract: contract, dataDirectory: nil, jwksJSON: jwks,
            configuration: AppConfiguration(kdf: .lightScrypt))
        let manager = try await AuthClient.inProcess(auth).signUp(email: "manager@example.com", password: "manager-pw").idToken
        let managerKey = Hex.encode(try DevAccounts.key(index: 0).rawBytes)
        _ = await app.api.handle(AppRequest(
            method: "POST", path: "/account", body: Array("{\"walletPassphrase\":\"m\",\"privateKey\":\"\(managerKey)\"}".utf8),
            authorization: "Bearer \(manager)"))
        for (index, plate) in DemoFleet.plates.enumerated() {
            let point = DemoFleet.position(index: index)
            let body = "{\"walletPassphrase\":\"m\",\"plate\":\"\(plate)\",\"latitude\":\(point.latitude),\"longitude\":\(point.longitude)}"
            _ = await app.api.handle(AppRequest(method: "POST", path: "/cars", body: Array(body.utf8), authorization: "Bearer \(manager)"))
        }
        let user = try await AuthClient.inProcess(auth).signUp(email: "user@example.com", password: "user-pw").idToken
        _ = await app.api.handle(AppRequest(
            method: "POST", path: "/account", body: Array("{\"walletPassphrase\":\"u\"}".utf8), authorization: "Bearer \(user)"))
        return AppBenchmarkFixture(chain: chain, handler: handler, app: app, token: user)
    }
}
