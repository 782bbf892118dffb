/// A fixed-window limit: at most `limit` counted events per key within `window` seconds; the window opens with the
/// key's first counted event. Used for failed sign-ins per email (counted whether or not the account exists, so a
/// refusal says nothing about existence; a success clears the counter), per client address and per password
/// (spraying), and for sign-ups per client address.
public struct RateLimitPolicy: Sendable, Equatable {
    /// Events allowed within one window; the next one is refused.
    public var limit: Int
    /// The window's length in seconds.
    public var window: Double

    /// The per-email default: 5 failed sign-ins within 15 minutes.
    public static let `default` = RateLimitPolicy(maxFailures: 5, window: 15 * 60)
    /// Failed sign-ins per client address: 50 within 15 minutes (one address guessing across many emails).
    public static let addressFailures = RateLimitPolicy(limit: 50, window: 15 * 60)
    /// Failed sign-ins with one password, across all emails and addresses: 10 within 15 minutes (password
    /// spraying: one common password tried against many accounts).
    public static let passwordSpraying = RateLimitPolicy(limit: 10, window: 15 * 60)
    /// Sign-ups per client address: 100 per hour, Firebase's documented quota for new accounts per IP address.
    public static let addressSignUps = RateLimitPolicy(limit: 100, window: 3600)

    /// Creates a policy.
    public init(limit: Int, window: Double) {
        self.limit = limit
        self.window = window
    }

    /// Creates a failure limit (the original spelling, kept for callers of the per-email policy).
    public init(maxFailures: Int, window: Double) {
        self.init(limit: maxFailures, window: window)
    }

    /// The limit, as a number of failures.
    public var maxFailures: Int { limit }
}
