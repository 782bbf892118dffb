import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The test suite's child processes are started with no signal blocked and waited for with `waitid(WNOWAIT)`
/// (TestSupport's ChildProcesses), not with Foundation's notice, which a grandchild holding the child's inherited
/// descriptors delays.
@Suite struct ProcessExitTests {
    static func start(_ script: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        return process
    }

    /// The child exits at once with 7 and leaves a grandchild that keeps Foundation's socket for 4 s: the exit is seen
    /// while Foundation still reports the child running; later Foundation agrees.
    @Test func anExitIsSeenWhileAGrandchildHoldsTheChildsDescriptors() throws {
        let process = try Self.start("sleep 4 & exit 7")
        let started = ContinuousClock.now
        let exit = try #require(process.waitForExit(seconds: 3))
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(exit == ProcessExit(signalled: false, value: 7))
        #expect(exit.shellStatus == 7)
        #expect(process.isRunning, "Foundation noticed the end before the grandchild ended; the case no longer tests anything")
        #expect(process.waitForExit(seconds: 1) == exit)  // asked again, the same answer
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!process.isRunning)
        #expect(process.exitIfEnded() == exit)  // now from Foundation's own record
    }

    /// `end` signals, and escalates to SIGKILL for a child that ignores the first signal. A child started with
    /// `runWithSignalsUnblocked()` from a thread of the cooperative pool (which blocks nearly every signal) ends on
    /// SIGTERM; started with Foundation's `run()` it would have SIGTERM blocked and end only on the SIGKILL.
    @Test func endSignalsAndEscalates() throws {
        let plain = try Self.start("exec sleep 60")
        #expect(plain.exitIfEnded() == nil)
        usleep(100_000)
        let signals = (try? String(contentsOfFile: "/proc/\(plain.processIdentifier)/status", encoding: .utf8))?
            .split(separator: "\n").filter { $0.hasPrefix("Sig") }.joined(separator: ", ") ?? ""
        let ended = try #require(plain.end(signal: SIGTERM, grace: 10))
        #expect(ended == ProcessExit(signalled: true, value: SIGTERM), "\(signals)")
        #expect(ended.shellStatus == 128 + SIGTERM)

        let stubborn = try Self.start("trap '' TERM; while :; do sleep 0.05; done")
        usleep(200_000)  // the trap is set
        let started = ContinuousClock.now
        #expect(stubborn.end(signal: SIGTERM, grace: 0.5) == ProcessExit(signalled: true, value: SIGKILL))
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}

