import ArgumentParser
import CarChainKit

/// Where the auth service is: the embedded service on the data dir by default, a served emulator or real
/// Firebase with `--auth-url` (and `--api-key`).
struct AuthOptions: ParsableArguments {
    @Option(name: .customLong("auth-url"), help: ArgumentHelp("A served auth emulator (e.g. http://127.0.0.1:8545) or https://identitytoolkit.googleapis.com (default: the embedded service on the data dir).", valueName: "url"))
    var authURL: String?

    @Option(name: .customLong("api-key"), help: ArgumentHelp("The Firebase web API key (needed for real Firebase).", valueName: "key"))
    var apiKey: String?

    /// The configuration these options describe.
    var configuration: AuthConfiguration { AuthConfiguration(url: authURL, apiKey: apiKey) }
}
