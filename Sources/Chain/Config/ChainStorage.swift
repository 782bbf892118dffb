import Foundation

/// Where a dev chain keeps its data.
public enum ChainStorage: Sendable {
    /// Nothing on disk (`--ephemeral`, `TestChain`): the history is kept in memory as the chain made it (no database),
    /// gone with the process.
    case memory
    /// `<directory>/chain.sqlite` (WAL mode) and `<directory>/LOCK`.
    case directory(URL)
}
