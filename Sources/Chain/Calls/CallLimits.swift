import EthereumPrimitives

/// What one `eth_call`, `eth_estimateGas`, `eth_createAccessList` or `debug_traceTransaction` may spend:
/// the node's answer to a request asking for a loop with unbounded gas. geth's `--rpc.gascap` and
/// `--rpc.evmtimeout`, with geth's defaults and semantics.
///
/// - The gas cap lowers the gas a call asks for (or, when it asks for none, the block gas limit): a call
///   asking more is capped, not refused, as geth does. It bounds the call's memory too: memory costs
///   3·w + w²/512 gas for w words, so 50,000,000 gas buys at most about 157,000 words (5 MB).
/// - The timeout stops the EVM, which then fails the request with "execution aborted (timeout = 5s)"; the
///   chain answers other requests right after. It is checked on jumps back (loops) and call entries, so a loop
///   stops within a millisecond of it. It covers the whole request (every run of `eth_estimateGas`'s search).
public struct CallLimits: Sendable, Equatable {
    /// The most gas a call may use; 0 means no cap (then only the gas asked for, or the block's limit).
    public var gasCap: UInt64
    /// How long the EVM may run for one request; nil means no limit.
    public var timeout: Duration?

    /// geth's defaults: 50,000,000 gas, 5 seconds.
    public static let standard = CallLimits(gasCap: 50_000_000, timeout: .seconds(5))
    /// No cap and no time limit (for trusted in-process use: tests, simulations).
    public static let unlimited = CallLimits(gasCap: 0, timeout: nil)

    /// Creates limits.
    public init(gasCap: UInt64, timeout: Duration?) {
        self.gasCap = gasCap
        self.timeout = timeout
    }

    /// `gas` lowered to the cap.
    public func capped(_ gas: UInt64) -> UInt64 {
        gasCap == 0 ? gas : Swift.min(gas, gasCap)
    }

    /// The instant a request starting now must stop at.
    func deadline() -> ContinuousClock.Instant? {
        timeout.map { ContinuousClock.now.advanced(by: $0) }
    }

    /// A duration as geth prints a timeout: "5s", "1.5s", "250ms".
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if seconds == 0 && milliseconds > 0 { return "\(milliseconds)ms" }
        if milliseconds == 0 { return "\(seconds)s" }
        var fraction = String(milliseconds)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)s"
    }
}
