import CarChain
import EthereumCrypto
import Foundation

/// Where the app's files live. `$CARCHAIN_HOME` (default `~/.carchain`, ``CarchainHome``) holds the session
/// (`session.json`), the keystores (`keystore/`), the uid → address book (`accounts.json`) and `config.json`;
/// the data dir (the embedded chain's, default `$CARCHAIN_HOME/chain`) holds the auth service's users and
/// signing key (`auth/`, the directory `carchain node` serves them from) and the fleet map (`fleet.json`).
public struct AppPaths: Sendable {
    /// `$CARCHAIN_HOME`.
    public let home: CarchainHome
    /// The data directory.
    public let dataDirectory: URL

    public init(home: CarchainHome, dataDirectory: URL) {
        self.home = home
        self.dataDirectory = dataDirectory
    }

    /// The paths for this process's environment, with `dataDirectory` (nil: `$CARCHAIN_HOME/chain`).
    public static func current(dataDirectory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> AppPaths {
        let home = CarchainHome.current(environment: environment)
        return AppPaths(home: home, dataDirectory: dataDirectory ?? home.chainDirectory)
    }

    /// The paths of a chain connection (its data directory).
    public static func current(_ connection: ChainConnection) -> AppPaths { current(dataDirectory: connection.dataDirectory) }

    /// The auth service's directory inside the data dir.
    public var authDirectory: URL { dataDirectory.appendingPathComponent("auth") }

    public var sessions: SessionStore { home.sessions }
    public var keystores: KeystoreDirectory { home.keystores }
    public var accounts: AccountBook { home.accounts }
    public var fleet: FleetRegistry { FleetRegistry(directory: dataDirectory.path) }
}
