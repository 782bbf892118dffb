import EthereumPrimitives
import Foundation
import Hummingbird

/// The app's pages — HTML, CSS, JavaScript modules, icons — written in this project and shipped as package
/// resources (`Web/`, `Bundle.module`). They are read once when the app opens and served from memory, each with its
/// content type and an ETag (a digest of its bytes), so a revalidation is answered with 304.
struct StaticAssets: Sendable {
    /// One file.
    struct Asset: Sendable {
        var bytes: ByteBuffer
        var contentType: String
        var etag: String
    }

    /// By path under `/app/` (`index.html`, `js/main.js`).
    let assets: [String: Asset]

    /// Why the pages could not be loaded (a broken installation: the resource bundle is missing).
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The resources of this module.
    static func bundled() throws -> StaticAssets {
        guard let root = Bundle.module.resourceURL?.appendingPathComponent("Web") else {
            throw LoadError(description: "the web app's files are missing (no resource bundle next to the executable)")
        }
        return try load(root)
    }

    /// Every file under `root`.
    static func load(_ root: URL) throws -> StaticAssets {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw LoadError(description: "the web app's files are missing (\(root.path))")
        }
        var assets: [String: Asset] = [:]
        let prefix = root.standardizedFileURL.path + "/"
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            guard let type = contentType(of: path) else { continue }
            let data = try Data(contentsOf: url)
            let digest = Keccak256.hash(data).hexString.dropFirst(2).prefix(24)
            assets[path] = Asset(bytes: ByteBuffer(bytes: data), contentType: type, etag: "\"\(digest)\"")
        }
        guard assets["index.html"] != nil else { throw LoadError(description: "the web app's index.html is missing (\(root.path))") }
        return StaticAssets(assets: assets)
    }

    /// The content type served for a file name; nil for files that are not served.
    static func contentType(of path: String) -> String? {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        default: return nil
        }
    }
}
