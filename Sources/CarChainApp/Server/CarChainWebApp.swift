import AuthEmulator
import CarChainKit
import DevNode
import EthereumPrimitives
import EthereumRPC
import Foundation
import Hummingbird

/// The CarChain web app as `carchain node` serves it: the pages at `/app/` and the JSON API at `/app/api/v1/`,
/// mounted on the node's router through DevNode's ``DevNodeRoutes`` seam. The server side keeps the keystores it
/// creates and its uid → address book in `<data dir>/app/` (0700 directory, 0600 files; in a temporary directory
/// removed by ``close()`` for an in-memory node), and the fleet registry in the data directory the CLI reads too.
public struct CarChainWebApp: DevNodeRoutes {
    /// The API, also callable without HTTP (tests, benchmarks).
    public let api: AppAPI
    let assets: StaticAssets
    /// A temporary directory to remove on close (in-memory nodes).
    let temporaryDirectory: URL?
    /// The origins beyond its own the page reaches (auth service, map tiles).
    let sources: AppHeaders.Sources

    /// The path the app is served at.
    public static let path = "/app/"

    /// The app of a node opened by ``LocalNode``: its chain in-process, its auth emulator's published keys.
    public static func open(node: LocalNode, configuration: AppConfiguration = AppConfiguration()) async throws -> CarChainWebApp {
        let client = RPCClient(transport: InProcessTransport(handler: node.handler, endpoint: "the node's chain"))
        let jwks = String(decoding: try JSONEncoder().encode(AuthWire.JSONWebKeySet(keys: [node.auth.signer.jwk])), as: UTF8.self)
        var configuration = configuration
        configuration.projectId = node.auth.projectId
        configuration.devAccounts = node.chain.config.devAccounts.map(\.address)
        return try await open(
            client: client, chainID: node.chain.chainId, contract: node.contract, dataDirectory: node.directory, jwksJSON: jwks,
            configuration: configuration)
    }

    /// The app over any node `client` reaches, with its files in `dataDirectory` (nil: a temporary directory).
    public static func open(
        client: RPCClient, chainID: UInt64, contract: Address?, dataDirectory: URL?, jwksJSON: String, configuration: AppConfiguration
    ) async throws -> CarChainWebApp {
        let verifier = try await IDTokenVerifier(jwksJSON: jwksJSON, projectId: configuration.projectId)
        return try await open(
            client: client, chainID: chainID, contract: contract, dataDirectory: dataDirectory, tokens: .fixed(verifier),
            configuration: configuration)
    }

    /// The app over any node `client` reaches, checking ID tokens with `tokens` (a real network: the keys the auth
    /// service publishes, `configuration.auth` naming where the browser reaches it).
    public static func open(
        client: RPCClient, chainID: UInt64, contract: Address?, dataDirectory: URL?, tokens: AppAPI.TokenKeys,
        configuration: AppConfiguration
    ) async throws -> CarChainWebApp {
        let assets = try StaticAssets.bundled()
        var temporary: URL?
        let directory: URL
        if let dataDirectory {
            directory = dataDirectory
        } else {
            let made = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-app-\(UUID().uuidString)")
            try SecureFile.createDirectory(made.path)
            temporary = made
            directory = made
        }
        let home = directory.appendingPathComponent("app")
        try SecureFile.createDirectory(home.path)
        let paths = AppPaths(home: CarchainHome(directory: home), dataDirectory: directory)
        var sources = AppHeaders.Sources()
        sources.connect = configuration.auth?.origins ?? []
        if let tiles = configuration.tiles { sources.images = [tiles.origin] }
        do {
            let api = try await AppAPI.open(
                client: client, chainID: chainID, contract: contract, paths: paths, tokens: tokens, configuration: configuration)
            return CarChainWebApp(api: api, assets: assets, temporaryDirectory: temporary, sources: sources)
        } catch {
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
            throw error
        }
    }

    /// Removes the temporary directory of an in-memory node's app (its keystores go with it).
    public func close() {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    public func addRoutes(to router: Router<AuthEmulatorRequestContext>, bodyTimeout: Duration) {
        let api = self.api
        let assets = self.assets
        let sources = self.sources
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/app/api/v1/**", method: method) { request, _ in
                await Self.answerAPI(request, api: api, bodyTimeout: bodyTimeout, sources: sources)
            }
        }
        router.get("/app") { request, _ in Self.answerFile(request, assets: assets, sources: sources) }
        router.get("/app/**") { request, _ in Self.answerFile(request, assets: assets, sources: sources) }
    }

    /// An API request over HTTP: read the body (bounded in size and time), answer, encode.
    static func answerAPI(_ request: Request, api: AppAPI, bodyTimeout: Duration, sources: AppHeaders.Sources) async -> Response {
        let prefix = "/app/api/v1"
        let path = String(request.uri.path.dropFirst(prefix.count))
        var body: [UInt8] = []
        if request.method == .post {
            do {
                body = try await request.collectBody(upTo: AppRequest.maxBodyBytes, within: bodyTimeout)
            } catch {
                let failure: AppAPIError
                switch error {
                case .tooLarge: failure = AppAPIError(status: 413, code: "TOO_LARGE", message: "The request body is larger than 64 KiB.")
                case .timedOut: failure = AppAPIError(status: 408, code: "TIMEOUT", message: "The request body did not arrive in time.")
                }
                var response = json(failure.json, status: failure.status, host: request.head.authority, sources: sources)
                response.headers[.connection] = "close"
                return response
            }
        }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        let answer = await api.handle(AppRequest(
            method: request.method.rawValue, path: path, query: query, body: body, authorization: request.headers[.authorization]))
        return json(answer.body, status: answer.status, host: request.head.authority, sources: sources)
    }

    static func json(_ value: JSONValue, status: Int, host: String?, sources: AppHeaders.Sources) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        AppHeaders.apply(to: &headers, host: host, sources: sources)
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: value.description)))
    }

    /// A page or file: `/app` redirects to `/app/`, which is `index.html`.
    static func answerFile(_ request: Request, assets: StaticAssets, sources: AppHeaders.Sources) -> Response {
        let full = request.uri.path
        var headers: HTTPFields = [:]
        AppHeaders.apply(to: &headers, host: request.head.authority, sources: sources)
        if full == "/app" {
            headers[.location] = path
            return Response(status: .permanentRedirect, headers: headers)
        }
        var name = String(full.dropFirst(path.count))
        if name.isEmpty { name = "index.html" }
        guard let asset = assets.assets[name] else {
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .notFound, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "not found: \(full.prefix(200))\n")))
        }
        headers[.eTag] = asset.etag
        // Revalidated on every load (the names carry no version), answered with 304 while unchanged.
        headers[.cacheControl] = "no-cache"
        if request.headers[.ifNoneMatch] == asset.etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.bytes))
    }
}
