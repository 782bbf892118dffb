import ArgumentParser
import CarChainApp
import CarChainKit
import EthereumPrimitives
import Foundation

/// The web app's options on `carchain node` (and `carchain app`): serve it or not, the ETH price its fee estimates
/// show in USD, the map's tiles, and whether to open it in a browser once the node listens.
struct AppOptions: ParsableArguments {
    @Flag(help: "Do not serve the CarChain web app at /app/.") var noApp = false
    @Option(help: ArgumentHelp(
        "The price of one ETH in USD: the app's fee estimates show USD next to ETH (a decimal, e.g. 3000 or 3512.25).",
        valueName: "usd"))
    var ethPrice: String?
    @Option(help: ArgumentHelp(
        "An XYZ raster tile server for the map, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (default: an offline grid; give --map-attribution with it).",
        valueName: "url-template"))
    var mapTiles: String?
    @Option(help: ArgumentHelp("Who the tiles are from, shown on the map as their licence asks (e.g. \"© OpenStreetMap contributors\").", valueName: "text"))
    var mapAttribution: String?
    @Option(help: ArgumentHelp("The tile server's highest zoom level (0 to 22).", valueName: "z")) var mapMaxZoom: Int = 19
    @Flag(help: "Open the web app in a browser once the node listens ($BROWSER, else xdg-open).") var open = false

    func validate() throws {
        if let ethPrice, (try? GasPricing(gasPrice: "1gwei", ethPrice: ethPrice)) == nil {
            throw ValidationError("--eth-price must be a decimal number of USD such as 3000 or 3512.25 (at most 6 decimals), got \(ethPrice.prefix(40))")
        }
        if noApp && (open || ethPrice != nil || mapTiles != nil) {
            throw ValidationError("--no-app serves no app: give --open, --eth-price and --map-tiles without it")
        }
        if mapAttribution != nil && mapTiles == nil { throw ValidationError("--map-attribution names the tiles of --map-tiles: give both") }
        _ = try tiles()
    }

    /// The tiles of `--map-tiles` (with its attribution), nil without.
    func tiles() throws -> AppConfiguration.MapTiles? {
        guard let mapTiles else { return nil }
        guard let mapAttribution else {
            throw ValidationError("--map-tiles needs --map-attribution: tile servers ask to be credited on the map (e.g. \"© OpenStreetMap contributors\")")
        }
        do { return try AppConfiguration.MapTiles(template: mapTiles, attribution: mapAttribution, maxZoom: mapMaxZoom) } catch {
            throw ValidationError(error.description)
        }
    }

    /// The configuration these options describe (both modes).
    func configuration() throws -> AppConfiguration {
        var configuration = AppConfiguration()
        configuration.ethPriceMicros = try ethPrice.map { try GasPricing(gasPrice: "1gwei", ethPrice: $0).ethPriceMicros } ?? nil
        configuration.tiles = try tiles()
        return configuration
    }

    /// The app for `node`, nil with `--no-app`.
    func webApp(for node: LocalNode) async throws -> CarChainWebApp? {
        if noApp { return nil }
        let configuration = try configuration()
        do {
            return try await CarChainWebApp.open(node: node, configuration: configuration)
        } catch {
            throw CLIError("cannot start the web app: \(error)")
        }
    }
}

/// Opens a URL in the user's browser: `$BROWSER` (the convention of Debian's sensible-browser), else `xdg-open`.
enum Browser {
    /// Starts the browser (without waiting for it); returns why it could not, or nil.
    static func open(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates: [String] = []
        if let browser = environment["BROWSER"], !browser.isEmpty { candidates.append(browser) }
        candidates.append("xdg-open")
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in candidates {
            let executable = name.contains("/") ? name : path.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let executable, FileManager.default.isExecutableFile(atPath: executable) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [url]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
                return nil
            } catch {
                return "\(name) did not start (\(error.localizedDescription))"
            }
        }
        return "no browser found (set $BROWSER or install xdg-utils)"
    }
}
