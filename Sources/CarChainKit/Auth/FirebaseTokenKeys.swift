import AsyncHTTPClient
import AuthEmulator
import EthereumRPC
import Foundation

/// Verifies Firebase ID tokens with the public keys the auth service publishes, fetched over HTTP as a backend does
/// against real Firebase: Google's JWK set (`https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`)
/// for an auth URL under `googleapis.com`, the same path on the emulator's host otherwise. The set is kept for the
/// `max-age` its answer gives (an hour when it gives none) and fetched again early when a token names a key it
/// does not hold (Google rotates its keys), at most once per ``refetchInterval``. The checks themselves are
/// ``IDTokenVerifier``'s. (An auth service that signs nothing — the Firebase Emulator Suite's `alg: none` tokens — has
/// no keys to fetch and is refused.)
public actor FirebaseTokenKeys {
    /// Where the JWK set is fetched.
    public let url: String
    /// The Firebase project whose tokens are accepted.
    public let projectId: String
    /// The least time between two fetches that a token's unknown key causes (30 s unless given).
    public let refetchInterval: Duration
    /// The largest JWK set document read (Google's is about 2 KiB).
    static let maxBytes = 256 * 1024

    private let client: HTTPClient
    private let timeout: Int64
    private var current: (verifier: IDTokenVerifier, fetched: ContinuousClock.Instant, maxAge: Duration)?
    private var fetching: Task<(IDTokenVerifier, Duration), any Error>?

    /// Why the keys could not be had.
    public struct FetchError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Keys for the auth service at `authURL` (an emulator's base URL, or `https://identitytoolkit.googleapis.com`).
    public init(
        authURL: String, projectId: String, httpClient: HTTPClient = .shared, timeout: Int64 = 15, refetchInterval: Duration = .seconds(30)
    ) throws(FetchError) {
        guard let url = Self.keySetURL(authURL: authURL) else {
            throw FetchError(description: "auth URL \(authURL.prefix(200)) is not an http(s) URL like http://127.0.0.1:9099")
        }
        self.url = url
        self.projectId = projectId
        self.client = httpClient
        self.timeout = timeout
        self.refetchInterval = refetchInterval
    }

    /// The JWK set's URL for an auth service's base URL; nil for a URL that is not http(s).
    public static func keySetURL(authURL: String) -> String? {
        var base = authURL
        while base.hasSuffix("/") { base.removeLast() }
        guard let components = URLComponents(string: base), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        // The emulator serves Google's host name as the path's first part (AuthRoute.jwksPath).
        let path = AuthRoute.jwksPath
        if host.hasSuffix("googleapis.com") { return "https:/" + path }
        return base + path
    }

    /// The token's claims when it verifies now.
    public func verify(_ token: String, now: Date = Date()) async throws -> IDTokenClaims {
        let verifier = try await keys(fresh: false)
        let failure: IDTokenError
        do {
            return try await verifier.verify(token, now: now)
        } catch {
            failure = error
        }
        // A key the set does not hold yet: fetch again (at most once per refetchInterval), then decide.
        guard Self.mayBeNewKey(failure), let current, ContinuousClock.now - current.fetched >= refetchInterval else {
            throw failure
        }
        return try await keys(fresh: true).verify(token, now: now)
    }

    /// Fetches the keys now (a server checks its `--auth-url` at start this way).
    public func prefetch() async throws {
        _ = try await keys(fresh: true)
    }

    /// A signature that does not verify, or a key id jwt-kit does not know: what a rotated key looks like.
    private static func mayBeNewKey(_ error: IDTokenError) -> Bool {
        switch error {
        case .badSignature, .malformed: return true
        default: return false
        }
    }

    /// The current keys, fetched when there are none, when they are older than their max-age, or when `fresh`.
    private func keys(fresh: Bool) async throws -> IDTokenVerifier {
        if !fresh, let current, ContinuousClock.now - current.fetched < current.maxAge { return current.verifier }
        let task: Task<(IDTokenVerifier, Duration), any Error>
        if let fetching {
            task = fetching
        } else {
            let (url, projectId, client, timeout) = (self.url, self.projectId, self.client, self.timeout)
            task = Task { try await Self.fetch(url: url, projectId: projectId, client: client, timeout: timeout) }
            fetching = task
        }
        defer { fetching = nil }
        let (verifier, maxAge) = try await task.value
        current = (verifier, ContinuousClock.now, maxAge)
        return verifier
    }

    private static func fetch(url: String, projectId: String, client: HTTPClient, timeout: Int64) async throws -> (IDTokenVerifier, Duration) {
        let text: String
        let maxAge: Duration
        do {
            let end = ContinuousClock.now + .seconds(timeout)
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(timeout))
            guard response.status == .ok else {
                throw FetchError(description: "the auth service's keys (\(url)) answered HTTP \(response.status.code)")
            }
            let body = try await HTTPTransport.collect(response.body, upTo: maxBytes, before: end, timeout: Double(timeout))
            text = String(decoding: body.readableBytesView, as: UTF8.self)
            maxAge = cacheLifetime(response.headers.first(name: "cache-control"))
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError(description: "the auth service's keys (\(url)) could not be fetched: \(error)")
        }
        do {
            return (try await IDTokenVerifier(jwksJSON: text, projectId: projectId), maxAge)
        } catch {
            throw FetchError(description: "the auth service's keys (\(url)) are not a JWK set: \(error)")
        }
    }

    /// `max-age` of a Cache-Control header, kept between a minute and a day; an hour without one.
    public static func cacheLifetime(_ header: String?) -> Duration {
        guard let header else { return .seconds(3600) }
        for part in header.split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces).lowercased()
            if item.hasPrefix("max-age="), let seconds = Int(item.dropFirst("max-age=".count)) {
                return .seconds(min(max(seconds, 60), 86_400))
            }
        }
        return .seconds(3600)
    }
}
