import CarChain
import EthereumCrypto
import Foundation

/// Where the app's files live. `$CARCHAIN_HOME` (default `~/.carchain`) holds the session (`session.json`), the
/// keystores (`keystore/`), the uid → address book (`accounts.json`) and `config.json`; the data dir (the
/// embedded chain's, `--data-dir`, default `$CARCHAIN_HOME/chain`) holds the auth service's users and signing
/// key (`auth/`, the directory `carchain node` serves them from) and the fleet map (`fleet.json`).
struct AppPaths {
    let home: CarchainHome
    let dataDirectory: URL

    /// The paths for this process's environment and the command's node options.
    static func current(node: NodeOptions? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> AppPaths {
        let home = CarchainHome.current(environment: environment)
        let data = node?.dataDirectory(environment: environment) ?? home.directory.appendingPathComponent("chain")
        return AppPaths(home: home, dataDirectory: data)
    }

    /// The auth service's directory inside the data dir.
    var authDirectory: URL { dataDirectory.appendingPathComponent("auth") }

    var sessions: SessionStore { SessionStore(home: home.directory.path) }
    var keystores: KeystoreDirectory { KeystoreDirectory(url: home.directory.appendingPathComponent("keystore")) }
    var accounts: AccountBook { AccountBook(file: home.directory.appendingPathComponent("accounts.json")) }
    var fleet: FleetRegistry { FleetRegistry(directory: dataDirectory.path) }
}
