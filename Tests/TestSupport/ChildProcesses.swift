import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
public struct ProcessExit: Sendable, Equatable, CustomStringConvertible {
    /// True when a signal ended it; `value` is then the signal number, else the exit code.
    public let signalled: Bool
    public let value: Int32

    public init(signalled: Bool, value: Int32) {
        self.signalled = signalled
        self.value = value
    }

    /// What Foundation's `terminationStatus` says: the exit code, or the signal's number.
    public var terminationStatus: Int32 { value }

    /// What a shell says: the exit code, or 128 plus the signal's number.
    public var shellStatus: Int32 { signalled ? 128 + value : value }

    public var description: String { signalled ? "killed by signal \(value)" : "exit \(value)" }
}

/// Starting a child with no signal blocked, and waiting for it without Foundation's notice of its end.
///
/// Foundation's `run()` spawns the child with the calling thread's signal mask, and the threads of Swift's
/// cooperative pool (libdispatch's workers) block nearly every signal: a child started from a test would ignore
/// SIGTERM and SIGINT (unless it unblocks them itself, as `carchain` does), so every stop would wait out its grace and
/// end in SIGKILL. ``runWithSignalsUnblocked()`` clears the mask around the spawn.
///
/// On Linux, Foundation learns that a child ended when a socket the child inherited reaches end-of-file, and only
/// then reaps it and clears `isRunning`; `waitUntilExit()` and `terminationHandler` wait for that. A grandchild that
/// inherited the same socket and outlives the child delays the notice until it ends too (a child running
/// `sleep 3 & exit 7` is seen to end 3 s late), and a thread of Swift's cooperative pool parked in `waitUntilExit()`
/// meanwhile is lost to every other test (on two cores the pool has two). These functions ask the
/// kernel instead: `waitid(…, WEXITED | WNOHANG | WNOWAIT)` reports a child that has ended (a zombie) without
/// reaping it, so Foundation's own bookkeeping still completes whenever its notice arrives. Test code never calls
/// `waitUntilExit()`, `terminationStatus` or `terminationHandler` directly.
extension Process {
    /// `run()` with the calling thread's signal mask cleared for the spawn, so the child starts with no signal
    /// blocked (as from a shell).
    public func runWithSignalsUnblocked() throws {
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try run()
    }

    /// How the child ended, or nil while it runs (or before it was started).
    public func exitIfEnded() -> ProcessExit? {
        guard processIdentifier > 0 else { return nil }
        if !isRunning { return foundationExit() }
        var info = siginfo_t()
        if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
            // With WNOHANG and a child still running, waitid answers 0 and leaves si_pid zero.
            guard info._sifields._sigchld.si_pid == processIdentifier else { return nil }
            let status = info._sifields._sigchld.si_status
            return ProcessExit(signalled: info.si_code != CLD_EXITED, value: status)
        }
        // ECHILD: Foundation reaped it between the two checks and is about to clear `isRunning`.
        let deadline = Date().addingTimeInterval(5)
        while isRunning && Date() < deadline { usleep(1_000) }
        return isRunning ? nil : foundationExit()
    }

    private func foundationExit() -> ProcessExit {
        ProcessExit(signalled: terminationReason == .uncaughtSignal, value: terminationStatus)
    }

    /// Waits up to `seconds` for the child to end (polling every 2 ms); how it ended, or nil if it still runs.
    public func waitForExit(seconds: Double) -> ProcessExit? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let exit = exitIfEnded() { return exit }
            if Date() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// Waits for the child to end, however long it takes (a program run to completion).
    public func waitForExit() -> ProcessExit {
        while true {
            if let exit = waitForExit(seconds: 3600) { return exit }
        }
    }

    /// Sends `signal`, waits up to `grace` seconds, then SIGKILL; how the child ended. Nil only if it survives SIGKILL
    /// for 60 s (a process stuck in the kernel). A child that already ended is not signalled.
    @discardableResult
    public func end(signal: Int32 = SIGTERM, grace: Double = 10) -> ProcessExit? {
        guard processIdentifier > 0 else { return nil }
        if let exit = exitIfEnded() { return exit }
        kill(processIdentifier, signal)
        if let exit = waitForExit(seconds: grace) { return exit }
        kill(processIdentifier, SIGKILL)
        return waitForExit(seconds: 60)
    }
}

/// A child's output pipe, read to its end on a thread of its own (so the child never blocks on a full pipe), with
/// what arrived so far readable at any time and waits that end at a deadline.
public final class PipeDrain: @unchecked Sendable {
    // @unchecked: `bytes` and `ended` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var bytes = Data()
    private var ended = false

    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty { ended = true } else { bytes.append(chunk) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    /// What arrived so far.
    public var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits until `found` gives a value for what arrived so far (asked after each chunk), the pipe ends, or `seconds`
    /// pass; the value, or nil.
    public func wait<T>(seconds: Double, for found: (String) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = found(String(decoding: bytes, as: UTF8.self)) { return value }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    /// What arrived by end-of-file, or by `seconds` from now if the pipe stays open that long.
    public func text(within seconds: Double) -> String {
        _ = wait(seconds: seconds) { _ in nil as Bool? }
        return text
    }
}

/// Blocking work (a wait for a child, a pipe, a socket) done from async code on a thread of its own, so that Swift
/// concurrency's pool threads (as many as cores: two here) stay free for the servers and actors the test process runs.
public enum OffPool {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
