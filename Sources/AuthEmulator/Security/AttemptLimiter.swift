import Crypto
import Foundation

/// In-memory fixed-window counters for the limits that are not per email (per client address, per password):
/// they protect a running server, and a key's count is checked and incremented in one step, so concurrent
/// attempts cannot pass a limit together. Passwords are keyed by an HMAC under a key that exists only in this
/// process, so the table holds nothing that could be tested against a password list offline.
actor AttemptLimiter {
    private struct Window {
        var count: Int
        var opened: Date
    }

    private var windows: [String: Window] = [:]
    private let passwordMACKey = SymmetricKey(size: .bits256)
    /// Entries kept before expired windows are swept.
    private let sweepThreshold = 10_000

    /// Counts an event for `key` and returns true, or returns false without counting when `policy`'s limit is
    /// reached in the current window.
    func attempt(_ key: String, policy: RateLimitPolicy, now: Date) -> Bool {
        sweepIfNeeded(now: now)
        var window = windows[key] ?? Window(count: 0, opened: now)
        if now.timeIntervalSince(window.opened) >= policy.window { window = Window(count: 0, opened: now) }
        guard window.count < policy.limit else { return false }
        window.count += 1
        windows[key] = window
        return true
    }

    /// Takes back an event counted by `attempt` (the sign-in succeeded, so it was no failure).
    func refund(_ key: String) {
        guard var window = windows[key] else { return }
        window.count = max(0, window.count - 1)
        windows[key] = window
    }

    /// The key for failed sign-ins with `password`.
    func passwordKey(_ password: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(password.utf8), using: passwordMACKey)
        return "password:" + Data(mac.prefix(16)).base64EncodedString()
    }

    private func sweepIfNeeded(now: Date) {
        guard windows.count >= sweepThreshold else { return }
        // Windows never exceed a day; anything older is over whatever its policy.
        windows = windows.filter { now.timeIntervalSince($0.value.opened) < 86_400 }
    }
}
