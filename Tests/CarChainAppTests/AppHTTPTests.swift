import AuthEmulator
import CarChainApp
import DevNode
import EthereumPrimitives
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The app on the node's router (DevNodeServer with the app's routes, as `carchain node` mounts them): the pages
/// with their types, caching and security headers, and the API over HTTP.
@Suite("app over HTTP") struct AppHTTPTests {
    private func withServer(_ body: @escaping @Sendable (AppHarness, any TestClientProtocol) async throws -> Void) async throws {
        let h = try await AppHarness.make()
        let app = DevNodeServer.application(
            handler: h.handler, auth: h.auth, host: "127.0.0.1", port: 0, logger: Logger(label: "test"), routes: h.app) { _ in }
        do {
            try await app.test(.router) { client in try await body(h, client) }
        } catch {
            await h.close()
            throw error
        }
        await h.close()
    }

    @Test("pages: index at /app/, modules and styles with their types, ETags, a CSP without remote origins")
    func pages() async throws {
        try await withServer { _, client in
            try await client.execute(uri: "/app", method: .get) { response in
                #expect(response.status == .permanentRedirect)
                #expect(response.headers[.location] == "/app/")
            }
            let etag = try await client.execute(uri: "/app/", method: .get) { response -> String? in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains("<script type=\"module\" src=\"/app/js/main.js\">"))
                // Nothing is loaded from another origin.
                #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))
                let csp = try #require(response.headers[.contentSecurityPolicy])
                #expect(csp.contains("default-src 'self'") && csp.contains("script-src 'self'") && csp.contains("object-src 'none'"))
                #expect(!csp.contains("unsafe-inline") && !csp.contains("*"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.cacheControl] == "no-cache")
                return response.headers[.eTag]
            }
            try await client.execute(uri: "/app/", method: .get, headers: [.ifNoneMatch: try #require(etag)]) { response in
                #expect(response.status == .notModified)
            }
            for (path, type) in [
                ("/app/js/main.js", "text/javascript; charset=utf-8"), ("/app/js/map.js", "text/javascript; charset=utf-8"),
                ("/app/app.css", "text/css; charset=utf-8"), ("/app/icon.svg", "image/svg+xml"),
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == type, "\(path)")
                }
            }
            try await client.execute(uri: "/app/js/nothing.js", method: .get) { response in #expect(response.status == .notFound) }
            try await client.execute(uri: "/app/../Package.swift", method: .get) { response in #expect(response.status != .ok) }
        }
    }

    @Test("every JavaScript module the pages import is served, and none reaches another origin")
    func modulesResolve() async throws {
        try await withServer { _, client in
            var pending = ["/app/js/main.js"]
            var seen: Set<String> = []
            while let path = pending.popLast() {
                guard seen.insert(path).inserted else { continue }
                let source = try await client.execute(uri: path, method: .get) { response -> String in
                    #expect(response.status == .ok, "\(path) is imported but not served")
                    return String(buffer: response.body)
                }
                // The SVG namespace is a name, not a place anything is loaded from.
                let code = source.replacingOccurrences(of: "\"http://www.w3.org/2000/svg\"", with: "")
                #expect(!code.contains("https://") && !code.contains("http://"), "\(path) names another origin")
                let directory = (path as NSString).deletingLastPathComponent
                for line in source.split(separator: "\n") where line.hasPrefix("import ") {
                    guard let quote = line.firstIndex(of: "\""), let end = line[line.index(after: quote)...].firstIndex(of: "\"") else { continue }
                    let relative = String(line[line.index(after: quote)..<end])
                    pending.append(URL(fileURLWithPath: directory).appendingPathComponent(relative).standardized.path)
                }
            }
            #expect(seen.count >= 10)
            // index.html preloads exactly the modules the pages import (none missing, none stale).
            let html = try await client.execute(uri: "/app/", method: .get) { String(buffer: $0.body) }
            var preloaded: Set<String> = ["/app/js/main.js"]
            for part in html.components(separatedBy: "<link rel=\"modulepreload\" href=\"").dropFirst() {
                if let end = part.firstIndex(of: "\"") { preloaded.insert(String(part[..<end])) }
            }
            #expect(preloaded == seen, "preloaded but not imported: \(preloaded.subtracting(seen)); imported but not preloaded: \(seen.subtracting(preloaded))")
        }
    }

    @Test("the API over HTTP: JSON with no-store, the bearer token, 413 for a large body")
    func api() async throws {
        try await withServer { h, client in
            try await client.execute(uri: "/app/api/v1/config", method: .get) { response async throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(try JSONValue(parsing: Array(buffer: response.body))["chainId"]?.description == "4")
            }
            try await client.execute(uri: "/app/api/v1/me", method: .get) { response async throws in
                #expect(response.status == .unauthorized)
                #expect(try JSONValue(parsing: Array(buffer: response.body))["error"]?["code"]?.stringValue == "UNAUTHENTICATED")
            }
            let token = try await h.signUp("http@example.com")
            try await client.execute(uri: "/app/api/v1/me", method: .get, headers: [.authorization: "Bearer \(token)"]) { response async throws in
                #expect(response.status == .ok)
                #expect(try JSONValue(parsing: Array(buffer: response.body))["email"]?.stringValue == "http@example.com")
            }
            try await client.execute(
                uri: "/app/api/v1/cars?near=40.4168,-3.7038&radius=2000", method: .get, headers: [.authorization: "Bearer \(token)"]
            ) { response in
                #expect(response.status == .ok)
            }
            let big = ByteBuffer(repeating: UInt8(ascii: "a"), count: 100_000)
            try await client.execute(uri: "/app/api/v1/rent", method: .post, headers: [.authorization: "Bearer \(token)"], body: big) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(uri: "/app/api/v1/cars", method: .put, headers: [.authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .methodNotAllowed)
            }
            // JSON-RPC is not the router's: the node answers it in the channel pipeline, in front of the router
            // (JSONRPCHTTPEndpoint; over real HTTP, beside the auth routes: HTTPAccessTimingTests, NodeServerTests).
            try await client.execute(
                uri: "/", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_chainId\"}")
            ) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("a page the node serves is same-origin even when --allow-origin restricts other origins")
    func sameOrigin() async throws {
        let policy = HTTPAccessPolicy(boundHost: "127.0.0.1", origins: ["http://localhost:3000"])
        #expect(policy.allowOriginHeader(origin: "http://127.0.0.1:8545", host: "127.0.0.1:8545") == "http://127.0.0.1:8545")
        #expect(policy.allowOriginHeader(origin: "http://evil.example", host: "127.0.0.1:8545") == nil)
        #expect(policy.allowOriginHeader(origin: "http://127.0.0.1:8545") == nil)
        #expect(policy.allowOriginHeader(origin: "http://localhost:3000", host: "127.0.0.1:8545") == "http://localhost:3000")
    }
}
