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

    /// A run still going at its time limit is ended, and fails with the command and what it printed so far.
    @Test func aRunPastItsLimitIsEndedWithItsOutput() throws {
        let started = ContinuousClock.now
        do {
            let out = try ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "echo started; echo working >&2; exec sleep 60"], timeLimit: 1)
            Issue.record("the run should have timed out, it ended: \(out.status)")
        } catch let timedOut as ProcessRunner.TimedOut {
            #expect(timedOut.stdout == "started\n")
            #expect(timedOut.stderr == "working\n")
            #expect(timedOut.description.hasPrefix("sh -c echo started; "), "\(timedOut)")
            #expect(timedOut.description.contains("after 1 s"), "\(timedOut)")
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    /// Async runs wait on threads of their own: more children than Swift concurrency's pool has threads (as many as
    /// cores) run at the same time. Each child waits (up to 20 s) until all of them have started; with a pool thread
    /// held per wait, the later ones could not start until the first ones ended, and those would fail.
    @Test func asyncRunsDoNotHoldThePool() async throws {
        let width = ProcessInfo.processInfo.activeProcessorCount + 2
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-offpool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let barrier = """
            touch "$0/$1"; n=0
            while [ "$(ls "$0" | wc -l)" -lt \(width) ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
            [ "$(ls "$0" | wc -l)" -ge \(width) ]
            """
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<width {
                group.addTask {
                    try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", barrier, directory.path, "\(index)"]).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: width))
    }
}
