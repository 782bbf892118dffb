import Foundation
import Testing

/// tools/pyevm-node.py running as a subprocess on a free port of 127.0.0.1 for one test: started with
/// `--port 0 --exit-with-parent --lifetime`, so it cannot outlive the test run even if the test crashes, and
/// stopped by ``stop()`` (also on deinit). ``start(...)`` returns nil after printing a SKIPPED line when
/// the Python venv is missing.
public final class ProcessPyEVMNode: @unchecked Sendable {
    // @unchecked: `Process` is not Sendable; it is only touched in start() and under `lock` in stop().
    private let process: Process
    private let lock = NSLock()
    private var stopped = false
    /// The bound port.
    public let port: Int

    /// The node's URL.
    public var url: String { "http://127.0.0.1:\(port)" }

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    public enum StartError: Error, CustomStringConvertible {
        case noPort(String)
        public var description: String {
            switch self {
            case .noPort(let why): return "pyevm-node did not report its port: \(why)"
            }
        }
    }

    /// Starts a node; `arguments` are extra options (`--chain-id 5`, `--hang`). Waits up to `startupTimeout`
    /// seconds for the port line.
    public static func start(_ arguments: [String] = [], for what: String, startupTimeout: Double = 90) throws -> ProcessPyEVMNode? {
        guard let python = PythonVenv.python(for: what) else { return nil }
        let script = TestPaths.packageRoot.appendingPathComponent("tools/pyevm-node.py")
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, "--port", "0", "--exit-with-parent", "--lifetime", "1800"] + arguments
        let stdout = Pipe()
        // stderr goes to a file: a pipe nobody reads could fill and stall the node.
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("pyevm-node-\(UUID().uuidString).log")
        try Data().write(to: errorLog)
        let stderr = try FileHandle(forWritingTo: errorLog)
        defer {
            try? stderr.close()
        }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()

        // The first line is the port.
        let drain = PipeDrain(stdout.fileHandleForReading)
        let line = drain.wait(seconds: startupTimeout) { text in text.firstIndex(of: "\n").map { String(text[..<$0]) } }
            ?? (drain.text.isEmpty ? nil : drain.text)
        guard let line, let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.end(signal: SIGTERM, grace: 5)
            let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: errorLog)
            throw StartError.noPort(line == nil ? "nothing within \(startupTimeout) s. \(errors)" : "got \(line ?? ""). \(errors)")
        }
        try? FileManager.default.removeItem(at: errorLog)  // the node keeps its descriptor; the name is not needed
        return ProcessPyEVMNode(process: process, port: port)
    }

    /// Stops the node (SIGTERM, then SIGKILL after 5 s) and waits for it to exit.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        process.end(signal: SIGTERM, grace: 5)
    }

    deinit { stop() }
}
