import Foundation

/// Runs tools as subprocesses for tests: the built `carchain` binary and the project's Python scripts.
///
/// Standard input, output and error go through temporary files, so large outputs cannot deadlock on a
/// full pipe.
public enum ProcessRunner {
    /// What a finished process left behind.
    public struct Output: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: Data
        /// Everything written to standard error.
        public var stderr: Data

        /// Standard output as UTF-8 text.
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Errors from starting a process.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` with `arguments`, feeding `stdin`, and waits for it.
    public static func run(
        _ executable: URL, arguments: [String], stdin: Data = Data(), currentDirectory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> Output {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("stdin")
        let outURL = dir.appendingPathComponent("stdout")
        let errURL = dir.appendingPathComponent("stderr")
        try stdin.write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try FileHandle(forWritingTo: outURL)
        let error = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if let environment { process.environment = environment }
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(executable.path): \(error)")
        }
        process.waitUntilExit()
        try? input.close()
        try? output.close()
        try? error.close()
        return Output(
            status: process.terminationStatus,
            stdout: (try? Data(contentsOf: outURL)) ?? Data(),
            stderr: (try? Data(contentsOf: errURL)) ?? Data())
    }

    /// A product built next to the test bundle (e.g. the `carchain` executable), or nil when absent.
    public static func builtProduct(_ name: String) -> URL? {
        let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments.first ?? "")]
            + Bundle.allBundles.map(\.bundleURL)
        for case let start? in candidates {
            var dir = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let url = dir.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return url
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }
}

/// The project's Python venv (vyper, py-evm, eth-abi, …) and its cross-implementation scripts.
public enum PythonTools {
    /// `CARCHAIN_VENV`, or `<package root>/.venv` when unset.
    public static var venv: URL {
        if let dir = ProcessInfo.processInfo.environment["CARCHAIN_VENV"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return TestPaths.packageRoot.appendingPathComponent(".venv")
    }

    /// The venv's interpreter, or nil after printing `SKIPPED: <what> (no Python venv; run make venv)`.
    public static func python(for what: String) -> URL? {
        let python = venv.appendingPathComponent("bin/python")
        if FileManager.default.isExecutableFile(atPath: python.path) { return python }
        print("SKIPPED: \(what) (no Python venv at \(venv.path); run make venv)")
        return nil
    }

    /// Runs `tools/<script>` with `input` on stdin and returns its stdout; nil (after printing SKIPPED)
    /// when there is no venv. A non-zero exit throws with the script's stderr.
    public static func run(script: String, input: Data, arguments: [String] = [], what: String) throws -> Data? {
        guard let python = python(for: what) else { return nil }
        let path = TestPaths.packageRoot.appendingPathComponent("tools").appendingPathComponent(script).path
        let out = try ProcessRunner.run(python, arguments: [path] + arguments, stdin: input, currentDirectory: TestPaths.packageRoot)
        guard out.status == 0 else {
            throw ProcessRunner.Failure(description: "\(script) exited with \(out.status): \(out.stderrText.suffix(2000))")
        }
        return out.stdout
    }
}
