import EthereumWire
/// When and how often the client repeats a failed call: exponential backoff with jitter, for idempotent
/// reads only, and only after transport failures (the node not reached, a dropped connection, HTTP 429,
/// 502, 503 or 504). A JSON-RPC error is the node's answer and is never retried; a timeout is retried only
/// when ``retryOnTimeout`` is set, so a hanging node costs one timeout, not several.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included (1 disables retries).
    public var maxAttempts: Int
    /// Delay before the first retry, in seconds.
    public var initialDelay: Double
    /// Each further retry waits this many times longer.
    public var multiplier: Double
    /// Upper bound of one delay, in seconds.
    public var maxDelay: Double
    /// Fraction of each delay that is random (0: none; 1: "full jitter", anywhere in 0...delay), so that
    /// clients that failed together do not retry together.
    public var jitter: Double
    /// Whether a timeout counts as a retryable transport failure.
    public var retryOnTimeout: Bool

    public init(
        maxAttempts: Int = 3, initialDelay: Double = 0.1, multiplier: Double = 2, maxDelay: Double = 2,
        jitter: Double = 0.5, retryOnTimeout: Bool = false
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(0, maxDelay)
        self.jitter = min(max(jitter, 0), 1)
        self.retryOnTimeout = retryOnTimeout
    }

    /// The default: 3 attempts, 0.1 s then 0.2 s (each up to half shorter at random), timeouts not retried.
    public static let `default` = RetryPolicy()

    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The delay before retry number `retry` (1 for the first retry), given a uniform random number in 0..<1.
    public func delay(beforeRetry retry: Int, random: Double) -> Double {
        var base = initialDelay
        for _ in 1..<max(1, retry) {
            base *= multiplier
            if base >= maxDelay { break }
        }
        base = min(base, maxDelay)
        return base * (1 - jitter * min(max(random, 0), 1))
    }

    /// Whether a failure of a call is worth repeating under this policy.
    public func shouldRetry(_ error: RPCError, idempotent: Bool) -> Bool {
        guard idempotent, case .transport(let transport, _, _) = error else { return false }
        return isRetryable(transport)
    }

    /// Whether a transport failure is one that a later attempt may not have.
    public func isRetryable(_ error: TransportError) -> Bool {
        switch error {
        case .unreachable: return true
        case .timeout: return retryOnTimeout
        case .http(let status, _): return [429, 502, 503, 504].contains(status)
        case .cancelled: return false
        }
    }
}
