import EVM

/// Which tracer a `debug_trace*` request runs, with its options: geth's `tracer` and `tracerConfig` (the struct
/// logger's options sit in the trace config itself, as geth has them). One value serves `debug_traceTransaction`,
/// `debug_traceBlockByNumber`/`ByHash` and `debug_traceCall`.
public enum TracerConfiguration: Sendable, Equatable {
    /// geth's default struct logger: one entry per instruction.
    case structLogger(StructLogOptions)
    /// `callTracer`: the tree of call frames.
    case callTracer(CallTracerOptions)
    /// `prestateTracer`: the accounts the transaction touched, as they were before it (or, in diff mode, what it
    /// changed).
    case prestateTracer(PrestateTracerOptions)
    /// `4byteTracer`: how often each function selector was called, by calldata size.
    case fourByteTracer
    /// `noopTracer`: runs the transaction and answers `{}`.
    case noopTracer
}

/// `callTracer`'s `tracerConfig`.
public struct CallTracerOptions: Sendable, Equatable {
    /// Record the outermost frame only (no `calls`).
    public var onlyTopCall: Bool
    /// Record the logs each frame emitted (`logs`, with their `position` among the frame's calls); a failed frame's
    /// logs, and its children's, are dropped as the chain drops them.
    public var withLog: Bool

    /// Creates options (geth's defaults: every frame, no logs).
    public init(onlyTopCall: Bool = false, withLog: Bool = false) {
        self.onlyTopCall = onlyTopCall
        self.withLog = withLog
    }
}

/// `prestateTracer`'s `tracerConfig`.
public struct PrestateTracerOptions: Sendable, Equatable {
    /// Answer `{pre, post}`: the changed accounts before and after the transaction, instead of every touched
    /// account before it.
    public var diffMode: Bool
    /// Leave out contract code (the `codeHash` stays).
    public var disableCode: Bool
    /// Leave out storage.
    public var disableStorage: Bool
    /// Keep accounts that were empty (no balance, nonce, code) before the transaction; not with `diffMode`.
    public var includeEmpty: Bool

    /// Creates options (geth's defaults: all off).
    public init(diffMode: Bool = false, disableCode: Bool = false, disableStorage: Bool = false, includeEmpty: Bool = false) {
        self.diffMode = diffMode
        self.disableCode = disableCode
        self.disableStorage = disableStorage
        self.includeEmpty = includeEmpty
    }
}
