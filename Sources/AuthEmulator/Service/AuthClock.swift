import Foundation

/// The source of "now" for token expiry and rate limiting, injected so tests control time without sleeping.
public protocol AuthClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The wall clock.
public struct SystemAuthClock: AuthClock {
    /// Creates the wall clock.
    public init() {}

    /// The current wall-clock time.
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to: for tests and deterministic simulations.
public final class ManualAuthClock: AuthClock, @unchecked Sendable {
    // @unchecked: every access to `current` goes through `lock`.
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock that reads `start` until it is advanced.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.current = start
    }

    /// The clock's current reading.
    public func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        current = current.addingTimeInterval(seconds)
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        lock.lock()
        defer { lock.unlock() }
        current = date
    }
}
