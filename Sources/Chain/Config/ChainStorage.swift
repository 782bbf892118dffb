import Foundation

/// Where a dev chain keeps its data.
public enum ChainStorage: Sendable {
    /// Nothing on disk (`--ephemeral`): an in-memory SQLite database, gone with the process.
    case memory
    /// `<directory>/chain.sqlite` (WAL mode) and `<directory>/LOCK`.
    case directory(URL)
}
