/// How much one struct-log trace (`debug_traceTransaction`) may hold: each step copies the stack (and,
/// on request, memory and storage), so a long loop would otherwise exhaust the node's memory. Past the
/// limit the trace fails with a clear error that names the options that make it smaller.
public struct TraceLimits: Sendable, Equatable {
    /// The most bytes of JSON the steps may take (estimated while tracing); 0 means no limit.
    public var maxBytes: Int

    /// 100 MB.
    public static let standard = TraceLimits(maxBytes: 100_000_000)

    /// Creates limits.
    public init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }
}
