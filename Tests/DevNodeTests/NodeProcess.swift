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
    private var collected: [UInt8] = []
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
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: log)
        defer { try? stderr.close() }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()

        let found = DispatchSemaphore(value: 0)
        let box = LineBox()
        let handle = stdout.fileHandleForReading
        Thread.detachNewThread {
            var pending: [UInt8] = []
            var signalled = false
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(contentsOf: chunk)
                box.append(chunk)
                if !signalled, let text = String(validating: pending, as: UTF8.self), let range = text.range(of: "listening on ") {
                    let rest = text[range.upperBound...]
                    if let end = rest.firstIndex(of: "\n") {
                        box.setURL(String(rest[..<end]))
                        signalled = true
                        found.signal()
                    }
                }
            }
            if !signalled { found.signal() }
        }
        guard found.wait(timeout: .now() + timeout) == .success, let url = box.url else {
            process.end(signal: SIGTERM, grace: 5)
            let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw StartError.noBanner(errors.isEmpty ? "no banner within \(timeout) s" : errors)
        }
        if !keepingErrors { try? FileManager.default.removeItem(at: log) }
        let node = NodeProcess(process: process, url: url)
        node.box = box
        node.errorLog = keepingErrors ? log : nil
        return node
    }

    private var box: LineBox?
    private var errorLog: URL?

    /// What the node wrote on stderr so far (started with `keepingErrors`).
    var errors: String { errorLog.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "" }

    /// Everything the node printed on stdout so far.
    var output: String { box?.text ?? "" }

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

/// Thread-safe accumulation of the node's stdout.
final class LineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var found: String?

    func append(_ data: Data) {
        lock.lock()
        bytes.append(contentsOf: data)
        lock.unlock()
    }

    func setURL(_ url: String) {
        lock.lock()
        found = url
        lock.unlock()
    }

    var url: String? {
        lock.lock()
        defer { lock.unlock() }
        return found
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
