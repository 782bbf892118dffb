/// How many sign-in attempts an email may fail before sign-in for that email is refused with
/// `TOO_MANY_ATTEMPTS_TRY_LATER`. The counter is kept per email whether or not an account exists, so the refusal
/// says nothing about existence. A success clears the counter; the lock lifts when the window that the first
/// counted failure opened has passed.
public struct RateLimitPolicy: Sendable, Equatable {
    /// Failures allowed within one window; the next attempt is refused.
    public var maxFailures: Int
    /// The window's length in seconds.
    public var window: Double

    /// The default: 5 failures within 15 minutes.
    public static let `default` = RateLimitPolicy(maxFailures: 5, window: 15 * 60)

    /// Creates a policy.
    public init(maxFailures: Int, window: Double) {
        self.maxFailures = maxFailures
        self.window = window
    }
}
