import Foundation
import Hummingbird

/// The headers every answer under `/app/` carries. The Content Security Policy allows this origin only — scripts,
/// styles, images and connections (the API, JSON-RPC and the node's WebSocket on the same port); nothing remote, no
/// inline script or style, no plugins, no framing — so the page cannot be made to load code from elsewhere.
enum AppHeaders {
    /// The policy for a page served to a request with `Host: host`.
    static func contentSecurityPolicy(host: String?) -> String {
        // `'self'` covers ws: on the same host in CSP Level 3; the explicit source is for browsers before it.
        // Only a host name or address with a port goes into the header (never a `;` that would add a directive).
        let safe = host.flatMap { name in
            name.utf8.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0 || Array(".-:[]".utf8).contains($0)) } ? name : nil
        }
        let webSocket = safe.map { " ws://\($0)" } ?? ""
        return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'\(webSocket); "
            + "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    /// Security headers for any answer (pages, files and the API).
    static func apply(to headers: inout HTTPFields, host: String?) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy(host: host)
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPFields.Element.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPFields.Element.Name("X-Frame-Options")!] = "DENY"
    }
}
