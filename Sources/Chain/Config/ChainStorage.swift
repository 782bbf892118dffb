import Foundation

/// Where a dev chain keeps its data.
public enum ChainStorage: Sendable {
    /// Nothing on disk (`--ephemeral`): an in-memory SQLite database, gone with the process.
    case memory
    /// `<directory>/chain.sqlite` (WAL mode) and `<directory>/LOCK`.
    case directory(URL)

    /// `$CARCHAIN_HOME/chain`, or `~/.carchain/chain` when CARCHAIN_HOME is unset.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["CARCHAIN_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent("chain")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".carchain/chain")
    }
}
