import Foundation
import Hummingbird

/// The headers every answer under `/app/` carries. The Content Security Policy allows this origin only — scripts,
/// styles, images and connections (the API, JSON-RPC and the node's WebSocket on the same port); nothing remote, no
/// inline script or style, no plugins, no framing — so the page cannot be made to load code from elsewhere.
enum AppHeaders {
    /// Origins beyond this one the page may reach: the auth service on a real network (`connect-src`) and the map's
    /// tile server (`img-src`). Checked origins only (``WebOrigin``), never text a header could be split at.
    struct Sources: Sendable, Equatable {
        var connect: [String] = []
        var images: [String] = []
    }

    /// The policy for a page served to a request with `Host: host`.
    static func contentSecurityPolicy(host: String?, sources: Sources = Sources()) -> String {
        // `'self'` covers ws: on the same host in CSP Level 3; the explicit source is for browsers before it.
        // Only a host name or address with a port goes into the header (never a `;` that would add a directive).
        let safe = host.flatMap { name in
            name.utf8.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0 || Array(".-:[]".utf8).contains($0)) } ? name : nil
        }
        let webSocket = safe.map { " ws://\($0)" } ?? ""
        let images = sources.images.map { " " + $0 }.joined()
        let connect = sources.connect.map { " " + $0 }.joined()
        return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:\(images); connect-src 'self'\(webSocket)\(connect); "
            + "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    /// Security headers for any answer (pages, files and the API).
    static func apply(to headers: inout HTTPFields, host: String?, sources: Sources = Sources()) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy(host: host, sources: sources)
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPFields.Element.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPFields.Element.Name("X-Frame-Options")!] = "DENY"
    }
}
