import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command left running for a test (a `carchain node`, a watcher) with its output in files under `home`, which is
/// also its `CARCHAIN_HOME` (and `CARCHAIN_RPC` is cleared, so it never talks to another node by accident).
public final class BackgroundProcess: @unchecked Sendable {
    public let process = Process()
    public let out: URL
    public let err: URL

    public init(_ executable: URL, _ arguments: [String], home: URL) throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let tag = UUID().uuidString
        out = home.appendingPathComponent("bg-\(tag).out")
        err = home.appendingPathComponent("bg-\(tag).err")
        try Data().write(to: out)
        try Data().write(to: err)
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["CARCHAIN_HOME"] = home.path
        env["CARCHAIN_RPC"] = nil
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
    }

    public var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// The rest of the line after `text` once it shows in stdout; nil if the process ends or `seconds` pass first.
    public func waitFor(_ text: String, seconds: Double = 60) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let now = stdout
            if let range = now.range(of: text), let end = now[range.upperBound...].firstIndex(of: "\n") {
                return String(now[range.upperBound..<end])
            }
            if process.exitIfEnded() != nil { return nil }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// Waits for the exit (SIGKILL after `seconds`); the status.
    @discardableResult
    public func wait(seconds: Double = 60) -> Int32 {
        (process.waitForExit(seconds: seconds) ?? process.end(signal: SIGKILL))?.terminationStatus ?? -1
    }

    /// SIGTERM, then the exit (SIGKILL after 30 s).
    public func stop() {
        process.end(signal: SIGTERM, grace: 30)
    }
}
