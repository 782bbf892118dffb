import CarChainKit
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// What the web app is configured with: the fiat price its fee estimates show, who signs (the server's keystores on
/// a dev node, the browser on a real network), how the keystores it creates are encrypted, what a new account is
/// funded with on a development chain, how transactions are sent and confirmed, which Firebase project's ID tokens
/// it accepts and where the browser reaches that auth service, and the map's tiles.
public struct AppConfiguration: Sendable {
    /// Who signs the users' transactions.
    public enum Signing: String, Sendable {
        /// The server keeps each user's keystore (encrypted with their wallet passphrase) and signs with it for one
        /// action at a time: the dev node's convenience. A browser wallet may sign instead.
        case server
        /// The server holds no user key: the browser signs, with an injected EIP-1193 wallet or a keystore the browser
        /// keeps encrypted (WebCrypto). The server prepares, checks and relays transactions. Real networks.
        case browser
    }

    /// The price of one ETH in USD, in millionths (`--eth-price 3000` → 3_000_000_000); nil: fees in ETH only.
    public var ethPriceMicros: UInt256?
    /// Who signs.
    public var signing: Signing
    /// The KDF of the keystores the server creates (geth's standard scrypt by default; unused when the browser signs).
    public var kdf: Keystore.KDF
    /// What a new account gets from dev account 0 on a development chain (nothing when the browser signs).
    public var fund: UInt256
    /// Gas, fees and receipts of the transactions the server sends or prepares; `confirmations` is also what the page
    /// waits for on transactions the browser sends.
    public var settings: SendSettings
    /// The Firebase project whose ID tokens the API accepts (the node's auth emulator serves `demo-carchain`).
    public var projectId: String
    /// Where the page calls the auth service; nil: on its own origin (the node's emulator routes).
    public var auth: BrowserAuth?
    /// The plates cars may be registered with.
    public var plateFormat: PlateFormat
    /// Seconds between the page's polls of the chain head when it has no WebSocket.
    public var pollInterval: Double
    /// The raster tiles under the map; nil: the offline grid.
    public var tiles: MapTiles?
    /// The node's dev accounts, so the page can say "the manager is dev account 0" (empty on a real network).
    public var devAccounts: [Address]

    public init(
        ethPriceMicros: UInt256? = nil, signing: Signing = .server, kdf: Keystore.KDF = .standardScrypt, fund: UInt256 = AccountSetup.oneEther,
        settings: SendSettings = SendSettings(receiptTimeout: 30), projectId: String = "demo-carchain", auth: BrowserAuth? = nil,
        plateFormat: PlateFormat = .spanish, pollInterval: Double = 1, tiles: MapTiles? = nil, devAccounts: [Address] = []
    ) {
        self.ethPriceMicros = ethPriceMicros
        self.signing = signing
        self.kdf = kdf
        self.fund = fund
        self.settings = settings
        self.projectId = projectId
        self.auth = auth
        self.plateFormat = plateFormat
        self.pollInterval = pollInterval
        self.tiles = tiles
        self.devAccounts = devAccounts
    }

    /// The auth service as the browser reaches it: a Firebase Auth emulator's base URL (`http://127.0.0.1:9099`) or
    /// real Firebase (`https://identitytoolkit.googleapis.com`), with the project's web API key.
    public struct BrowserAuth: Sendable, Equatable {
        /// The base URL without a trailing slash.
        public let url: String
        /// The web API key (`?key=`); public by design (Firebase's web config carries it).
        public let apiKey: String
        /// Whether requests go to Google's production hosts (each endpoint on its own host).
        public let isProduction: Bool
        /// The origins the page connects to (for the Content Security Policy).
        public let origins: [String]
        /// Where the page sends `accounts:*` (…`/v1/accounts:signUp` is appended) and the token refresh (…`/v1/token`).
        public let identityBase: String
        public let tokenBase: String

        /// Checks `url` (http or https, a host, no query) and `apiKey` (printable, at most 200 characters).
        public init(url: String, apiKey: String) throws(AppConfigurationError) {
            var base = url
            while base.hasSuffix("/") { base.removeLast() }
            guard let origin = WebOrigin(base), URLComponents(string: base)?.query == nil else {
                throw AppConfigurationError("--auth-url must be an http(s) URL such as http://127.0.0.1:9099 or https://identitytoolkit.googleapis.com, got \(url.prefix(200))")
            }
            guard !apiKey.isEmpty, apiKey.count <= 200, apiKey.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw AppConfigurationError("--api-key must be the project's web API key (letters, digits, - _ .), at most 200 characters")
            }
            self.url = base
            self.apiKey = apiKey
            self.isProduction = origin.host.hasSuffix("googleapis.com")
            self.origins = isProduction ? ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"] : [origin.text]
            // Real Firebase has a host per API; an emulator serves each under its host's name as the first path part.
            self.identityBase = isProduction ? "https://identitytoolkit.googleapis.com" : base + "/identitytoolkit.googleapis.com"
            self.tokenBase = isProduction ? "https://securetoken.googleapis.com" : base + "/securetoken.googleapis.com"
        }
    }

    /// An XYZ raster tile server: `https://tile.example.org/{z}/{x}/{y}.png`, with the attribution its licence asks
    /// for (shown on the map).
    public struct MapTiles: Sendable, Equatable {
        public let template: String
        public let attribution: String
        public let maxZoom: Int
        /// The tiles' origin (for the Content Security Policy's `img-src`).
        public let origin: String

        /// Checks the template (http(s), with `{z}`, `{x}` and `{y}`, no quote or space a policy header could be split
        /// at), the attribution (1–300 characters) and the zoom (0–22).
        public init(template: String, attribution: String, maxZoom: Int = 19) throws(AppConfigurationError) {
            let placeholders = ["{z}", "{x}", "{y}"]
            guard let origin = WebOrigin(template), placeholders.allSatisfy(template.contains),
                template.count <= 500, !template.contains(where: { $0 == "\"" || $0 == "'" || $0 == ";" || $0 == "," || $0.isWhitespace || !$0.isASCII })
            else {
                throw AppConfigurationError(
                    "--map-tiles must be an http(s) URL template with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png, got \(template.prefix(200))")
            }
            let text = attribution.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...300).contains(text.count) else {
                throw AppConfigurationError("--map-attribution must say whose tiles they are (1 to 300 characters), e.g. \"© OpenStreetMap contributors\"")
            }
            guard (0...22).contains(maxZoom) else { throw AppConfigurationError("--map-max-zoom must be 0 to 22, got \(maxZoom)") }
            self.template = template
            self.attribution = text
            self.maxZoom = maxZoom
            self.origin = origin.text
        }
    }
}

/// A configuration value the app refuses, in words for the command line.
public struct AppConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The origin (`scheme://host[:port]`) of an http(s) URL, as a Content Security Policy names it.
struct WebOrigin: Sendable, Equatable {
    let text: String
    let host: String

    init?(_ url: String) {
        // The template's braces are not URL characters: read the part before the path only.
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@"),
            authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        else { return nil }
        let host = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.prefix { $0 != ":" })
        guard !host.isEmpty, host != "[]" else { return nil }
        self.text = "\(scheme)://\(authority.lowercased())"
        self.host = host.lowercased()
    }
}
