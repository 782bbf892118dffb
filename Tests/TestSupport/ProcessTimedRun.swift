import Foundation

/// Runs a program as a subprocess with a time limit (for tests that talk to nodes, which must never hang the
/// run) and captures what it prints. Output goes to temporary files (no pipe can fill up and block the
/// child); a child still running at the limit is killed.
public enum TimedProcess {
    /// What a finished (or killed) subprocess did.
    public struct Outcome: Sendable {
        /// Exit status (the signal number plus 128 when it was killed).
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// True when the time limit killed it.
        public var timedOut: Bool
        /// Wall-clock seconds from start to exit.
        public var seconds: Double
    }

    /// Runs `executable` with `arguments` and the current environment plus `environment`.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60,
        stdin: String? = nil
    ) throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        let start = Date()
        try process.runWithSignalsUnblocked()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()

        var timedOut = false
        var exit = process.waitForExit(seconds: timeout)
        if exit == nil {
            timedOut = true
            exit = process.end(signal: SIGTERM, grace: 5)
        }
        let seconds = Date().timeIntervalSince(start)
        let status = exit?.shellStatus ?? 128 + SIGKILL
        return Outcome(
            status: status,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
            timedOut: timedOut,
            seconds: seconds
        )
    }
}
