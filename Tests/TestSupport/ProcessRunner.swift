import Foundation
import Testing

/// Runs a program to completion for tests (the built `carchain` binary, the project venv's Python).
public enum ProcessRunner {
    /// What a finished process left behind.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// How long a run may take before the child is ended and the run fails with what it printed (`TimedOut`): far
    /// beyond any child's run on a loaded 2-core machine (the longest, web3.py's ENS checks, take about 3 minutes
    /// there), short of the Makefile's watchdog on the whole phase, so a stuck child fails its own test, by name.
    public static let defaultTimeLimit: Double = 600

    /// A child still running after its time limit: ended (SIGTERM, then SIGKILL), with what it had printed.
    public struct TimedOut: Error, CustomStringConvertible {
        public let command: String
        public let seconds: Double
        public let stdout: String
        public let stderr: String
        public var description: String {
            "\(command) was still running after \(Int(seconds)) s and was ended; its stderr ended with: \(stderr.suffix(2000)); its stdout with: \(stdout.suffix(1000))"
        }
    }

    /// Runs `executable` with `arguments`, feeding `stdin`, with `environment` added to (or replacing entries of)
    /// this process's environment. Output is read concurrently, so large outputs do not block the child. A child
    /// still running after `timeLimit` seconds is ended and the run throws ``TimedOut``.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        removingEnvironment: [String] = [], timeLimit: Double = defaultTimeLimit
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for name in removingEnvironment { env[name] = nil }
        env.merge(environment) { _, new in new }
        process.environment = env
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.runWithSignalsUnblocked()
        let out = PipeDrain(outPipe.fileHandleForReading), err = PipeDrain(errPipe.fileHandleForReading)
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try inPipe.fileHandleForWriting.close()
        guard let exit = process.waitForExit(seconds: timeLimit) else {
            process.end(grace: 5)
            throw TimedOut(
                command: ([executable.lastPathComponent] + arguments).joined(separator: " "), seconds: timeLimit,
                stdout: out.text(within: 5), stderr: err.text(within: 5))
        }
        // A grandchild that inherited the pipes and outlives the child would hold them open: the output is what
        // arrived by end-of-file, or 30 s after the exit.
        return Output(status: exit.terminationStatus, stdout: out.text(within: 30), stderr: err.text(within: 30))
    }

    /// ``run(_:_:stdin:environment:removingEnvironment:timeLimit:)`` for async code: the wait happens on a thread of its own, not
    /// on one of Swift concurrency's pool threads (two on a 2-core machine). A child that talks back to a server this
    /// test process hosts (a node, a CCIP-read gateway) needs those threads free, and a sync wait on one of them is
    /// how a slow child on a loaded machine starves every other test's servers.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        removingEnvironment: [String] = [], timeLimit: Double = defaultTimeLimit
    ) async throws -> Output {
        try await OffPool.run {
            try run(
                executable, arguments, stdin: stdin, environment: environment, removingEnvironment: removingEnvironment,
                timeLimit: timeLimit)
        }
    }

    /// The built `carchain` executable next to the test bundle (`.build/<config>/carchain`), or nil (a missing
    /// prerequisite) when it has not been built.
    public static func carchainExecutable() -> URL? {
        builtExecutable("carchain", for: "carchain CLI tests")
    }

    /// An executable product of this package built next to the test bundle (or in `.build/debug|release`), or
    /// nil (a missing prerequisite) when it has not been built.
    public static func builtExecutable(_ name: String, for what: String) -> URL? {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        if let arg0 = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: arg0).deletingLastPathComponent().appendingPathComponent(name))
        }
        for config in ["debug", "release"] {
            candidates.append(TestPaths.packageRoot.appendingPathComponent(".build/\(config)/\(name)"))
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        Prerequisite.missing("\(what) (no built \(name); run `swift build --product \(name)`)")
        return nil
    }
}

/// The project's Python venv (vyper, py-evm, eth-account, eth-abi, web3.py, …) for cross-implementation tests:
/// one place that finds it and runs its scripts.
public enum PythonVenv {
    /// `$CARCHAIN_VENV`, or `<package root>/.venv` when unset.
    public static var directory: URL {
        if let dir = ProcessInfo.processInfo.environment["CARCHAIN_VENV"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return TestPaths.packageRoot.appendingPathComponent(".venv")
    }

    /// The venv's interpreter, or nil (a missing prerequisite) when there is no venv.
    public static func python(for what: String) -> URL? {
        let python = directory.appendingPathComponent("bin/python")
        if FileManager.default.isExecutableFile(atPath: python.path) { return python }
        Prerequisite.missing("\(what) (no Python venv at \(directory.path); run make venv)")
        return nil
    }

    /// The venv's vyper on `path` (`-p sitePackages` when given, for imports such as snekmate's) with output format
    /// `format`: its stdout; a failed compile throws with vyper's stderr.
    public static func vyper(_ path: String, format: String = "combined_json", sitePackages: String? = nil) throws -> String {
        let vyper = directory.appendingPathComponent("bin/vyper")
        let out = try ProcessRunner.run(vyper, (sitePackages.map { ["-p", $0] } ?? []) + [path, "-f", format])
        guard out.status == 0 else { throw PythonError(description: "vyper \(path) failed: \(out.stderr.suffix(1500))") }
        return out.stdout
    }

    /// Runs `tools/xcheck/<script>` with `request` as JSON on stdin and decodes its JSON output, waiting off Swift
    /// concurrency's pool (see ``ProcessRunner/run(_:_:stdin:environment:removingEnvironment:timeLimit:)-async``).
    public static func runJSON<Request: Encodable, Response: Decodable & Sendable>(
        _ python: URL, script: String, request: Request, as: Response.Type
    ) async throws -> Response {
        let body = try JSONEncoder().encode(request)
        let scriptURL = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/\(script)")
        let output = try await ProcessRunner.run(python, [scriptURL.path], stdin: body)
        guard output.status == 0 else {
            throw PythonError(description: "\(script) exited \(output.status): \(output.stderr.suffix(2000))")
        }
        return try JSONDecoder().decode(Response.self, from: Data(output.stdout.utf8))
    }

    /// Runs `tools/<script>` with `input` on stdin and returns its stdout; nil (a missing prerequisite) when there
    /// is no venv. A non-zero exit throws with the script's stderr.
    public static func run(
        script: String, input: Data, arguments: [String] = [], what: String
    ) throws -> Data? {
        guard let python = python(for: what) else { return nil }
        return try run(python, script: script, input: input, arguments: arguments)
    }

    /// Runs `tools/<script>` with `python` (from ``python(for:)``) and `input` on stdin and returns its stdout. A
    /// non-zero exit throws with the script's stderr.
    public static func run(_ python: URL, script: String, input: Data, arguments: [String] = []) throws -> Data {
        let path = TestPaths.packageRoot.appendingPathComponent("tools").appendingPathComponent(script).path
        let out = try ProcessRunner.run(python, [path] + arguments, stdin: input)
        guard out.status == 0 else {
            throw PythonError(description: "\(script) exited with \(out.status): \(out.stderr.suffix(2000))")
        }
        return Data(out.stdout.utf8)
    }

    /// A failed helper script.
    public struct PythonError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }
}
