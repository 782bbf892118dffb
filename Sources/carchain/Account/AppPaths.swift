import CarChain
import EthereumCrypto
import Foundation

/// Where the app's files live. `$CARCHAIN_HOME` (default `~/.carchain`) holds the session (`session.json`), the
/// keystores (`keystore/`), the uid → address book (`accounts.json`) and `config.json`; the data dir holds the
/// embedded auth service's users and signing key (`auth.sqlite`, `auth-signing-key.pem`) and the fleet map
/// (`fleet.json`).
struct AppPaths {
    let home: CarchainHome
    let dataDirectory: URL

    /// The paths for this process's environment.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> AppPaths {
        let home = CarchainHome.current(environment: environment)
        return AppPaths(home: home, dataDirectory: home.directory)
    }

    var sessions: SessionStore { SessionStore(home: home.directory.path) }
    var keystores: KeystoreDirectory { KeystoreDirectory(url: home.directory.appendingPathComponent("keystore")) }
    var accounts: AccountBook { AccountBook(file: home.directory.appendingPathComponent("accounts.json")) }
    var fleet: FleetRegistry { FleetRegistry(directory: dataDirectory.path) }
}
