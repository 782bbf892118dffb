import EthereumWire
/// When and how often the client repeats a failed call: exponential backoff with jitter, for idempotent
/// reads only, and only after transport failures (the node not reached, a dropped connection, HTTP 429,
/// 502, 503 or 504). A JSON-RPC error is the node's answer and is never retried; a timeout is retried only
/// when ``retryOnTimeout`` is set, so a hanging node costs one timeout, not several.
///
/// A node that says when to come back (`Retry-After` on a 429 or 503) is waited for that long, if it is longer
/// than the backoff and at most ``maxRetryAfter``; a longer wait than that is not attempted: the call fails at once
/// with the error, which names the wait, rather than hanging or hammering a node that asked for quiet.
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
    /// The longest `Retry-After` waited for, in seconds; a node asking for more gets no retry.
    public var maxRetryAfter: Double

    public init(
        maxAttempts: Int = 3, initialDelay: Double = 0.1, multiplier: Double = 2, maxDelay: Double = 2,
        jitter: Double = 0.5, retryOnTimeout: Bool = false, maxRetryAfter: Double = 30
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(0, maxDelay)
        self.jitter = min(max(jitter, 0), 1)
        self.retryOnTimeout = retryOnTimeout
        self.maxRetryAfter = maxRetryAfter.isNaN ? 0 : max(0, maxRetryAfter)
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

    /// The delay before retry number `retry` after `failure`, or nil when the failure is not to be retried: the
    /// backoff of ``delay(beforeRetry:random:)``, or the node's `Retry-After` when that is longer (nil when it is
    /// longer than ``maxRetryAfter``).
    public func delay(after failure: RPCError, retry: Int, random: Double) -> Double? {
        let backoff = delay(beforeRetry: retry, random: random)
        guard case .transport(.http(_, _, let retryAfter?), _, _) = failure else { return backoff }
        guard retryAfter <= maxRetryAfter else { return nil }
        return max(backoff, retryAfter)
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
        case .http(let status, _, _): return [429, 502, 503, 504].contains(status)
        case .cancelled: return false
        }
    }
}
