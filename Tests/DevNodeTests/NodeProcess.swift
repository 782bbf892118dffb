import EthereumRPC
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A `carchain node` started from the built binary with `--port 0`; its URL is read from the banner's
/// first line ("carchain node listening on http://…"). The rest of stdout is drained into ``output``.
final class NodeProcess: @unchecked Sendable {
    let process: Process
    let url: String
    private let lock = NSLock()
    private var stopped = false
    private var exit: ProcessExit?

    enum StartError: Error, CustomStringConvertible {
        case noBanner(String)
        var description: String {
            switch self {
            case .noBanner(let why): return "carchain node did not start: \(why)"
            }
        }
    }

    private init(process: Process, url: String) {
        self.process = process
        self.url = url
    }

    /// Starts `carchain node --port 0 <arguments>` with `environment` added; nil (after SKIPPED) when
    /// the binary is not built. With `keepingErrors`, what it writes on stderr stays readable (``errors``).
    static func start(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60, keepingErrors: Bool = false
    ) throws -> NodeProcess? {
        guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
        let process = Process()
        process.executableURL = carchain
        process.arguments = ["node", "--port", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["CARCHAIN_RPC"] = nil
        env.merge(environment) { _, new in new }
        process.environment = env
        let stdout = Pipe()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-node-\(UUID().uuidString).log")
        try Data().write(to: log)
        let stderr = try FileHandle(forWritingTo: log)
        defer { try? stderr.close() }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()

        let drain = PipeDrain(stdout.fileHandleForReading)
        let banner = drain.wait(seconds: timeout) { text -> String? in
            guard let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: "\n") else { return nil }
            return String(text[range.upperBound..<end])
        }
        guard let url = banner else {
            process.end(signal: SIGTERM, grace: 5)
            let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw StartError.noBanner(errors.isEmpty ? "no banner within \(timeout) s" : errors)
        }
        if !keepingErrors { try? FileManager.default.removeItem(at: log) }
        let node = NodeProcess(process: process, url: url)
        node.drain = drain
        node.errorLog = keepingErrors ? log : nil
        return node
    }

    private var drain: PipeDrain?
    private var errorLog: URL?

    /// What the node wrote on stderr so far (started with `keepingErrors`).
    var errors: String { errorLog.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "" }

    /// Everything the node printed on stdout so far.
    var output: String { drain?.text ?? "" }

    /// A JSON-RPC client over HTTP to the node.
    func client() throws -> RPCClient { try RPCClient(url: url, timeout: 30, retryPolicy: .none) }

    /// Sends raw bytes over HTTP and returns the answer body.
    func post(_ body: [UInt8]) async throws -> [UInt8] {
        try await HTTPTransport(url: url, timeout: 60, maxResponseBytes: 256 << 20).send(body)
    }

    /// SIGTERM (or `signal`), then wait; SIGKILL after 10 s. Returns the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if !stopped {
            stopped = true
            exit = process.end(signal: signal, grace: 10)
        }
        return exit?.terminationStatus ?? -1
    }

    /// Removes the kept stderr file (after ``stop(signal:)``).
    func removeErrorLog() {
        if let errorLog { try? FileManager.default.removeItem(at: errorLog) }
    }

    deinit {
        stop()
        removeErrorLog()
    }
}
