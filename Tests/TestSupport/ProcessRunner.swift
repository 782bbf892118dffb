import Foundation

/// Runs a program as a subprocess with a time limit and captures what it prints. Output goes to temporary
/// files (no pipe can fill up and block the child); a child still running at the limit is killed.
public enum ProcessRunner {
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
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
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
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let start = Date()
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()

        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(
            status: status,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
            timedOut: timedOut,
            seconds: seconds
        )
    }

    /// The Python of the project's venv: `$CARCHAIN_VENV/bin/python`, default `<package root>/.venv`; nil
    /// (after printing `SKIPPED: <what> (no Python venv; run make venv)`) when it is missing.
    public static func venvPython(for what: String) -> URL? {
        let venv: URL
        if let dir = ProcessInfo.processInfo.environment["CARCHAIN_VENV"], !dir.isEmpty {
            venv = URL(fileURLWithPath: dir)
        } else {
            venv = TestPaths.packageRoot.appendingPathComponent(".venv")
        }
        let python = venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            print("SKIPPED: \(what) (no Python venv; run make venv)")
            return nil
        }
        return python
    }

    /// The built `carchain` executable, next to the test bundle in `.build/<config>/`.
    public static var carchainExecutable: URL {
        let bundle = Bundle.main.bundleURL
        var dir = bundle.hasDirectoryPath ? bundle : bundle.deletingLastPathComponent()
        // The xctest bundle is `.build/<config>/carchainPackageTests.xctest`; the tool sits beside it.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("carchain")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return bundle.deletingLastPathComponent().appendingPathComponent("carchain")
    }
}
