import Foundation

/// Runs a program to completion for tests (the built `carchain` binary, the project venv's Python).
public enum ProcessRunner {
    /// What a finished process left behind.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments`, feeding `stdin`, with `environment` added to (or replacing entries of)
    /// this process's environment. Output is read concurrently, so large outputs do not block the child.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        removingEnvironment: [String] = []
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
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = outPipe.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = errPipe.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try inPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The built `carchain` executable next to the test bundle (`.build/<config>/carchain`), or nil after printing
    /// SKIPPED when it has not been built.
    public static func carchainExecutable() -> URL? {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("carchain"))
        }
        if let arg0 = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: arg0).deletingLastPathComponent().appendingPathComponent("carchain"))
        }
        for config in ["debug", "release"] {
            candidates.append(TestPaths.packageRoot.appendingPathComponent(".build/\(config)/carchain"))
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        print("SKIPPED: carchain CLI tests (no built carchain binary; run `swift build --product carchain`)")
        return nil
    }
}

/// The project's Python venv (vyper, py-evm, eth-account, …) for cross-implementation tests.
public enum PythonVenv {
    /// `$CARCHAIN_VENV/bin/python` (default `<package root>/.venv`), or nil after printing
    /// `SKIPPED: <what> (no Python venv; run make venv)`.
    public static func python(for what: String) -> URL? {
        let env = ProcessInfo.processInfo.environment["CARCHAIN_VENV"].flatMap { $0.isEmpty ? nil : $0 }
        let venv = env.map { URL(fileURLWithPath: $0) } ?? TestPaths.packageRoot.appendingPathComponent(".venv")
        let python = venv.appendingPathComponent("bin/python")
        if FileManager.default.isExecutableFile(atPath: python.path) { return python }
        print("SKIPPED: \(what) (no Python venv; run make venv)")
        return nil
    }

    /// Runs `tools/xcheck/<script>` with `request` as JSON on stdin and decodes its JSON output.
    public static func runJSON<Request: Encodable, Response: Decodable>(
        _ python: URL, script: String, request: Request, as: Response.Type
    ) throws -> Response {
        let scriptURL = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/\(script)")
        let output = try ProcessRunner.run(python, [scriptURL.path], stdin: try JSONEncoder().encode(request))
        guard output.status == 0 else {
            throw PythonError(description: "\(script) exited \(output.status): \(output.stderr.suffix(2000))")
        }
        return try JSONDecoder().decode(Response.self, from: Data(output.stdout.utf8))
    }

    /// A failed helper script.
    public struct PythonError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }
}
