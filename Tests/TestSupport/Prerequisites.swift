import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a test needs from outside the package — the conformance vectors, `../shared`, the Python venv, a
/// built binary, a system tool — and what happens when it is missing. By default the test (or the part of it)
/// is skipped: `SKIPPED: <reason>` is printed, and when the test process exits one summary line counts every
/// skip. With `CARCHAIN_STRICT=1` (set by `.ci/run`) a missing prerequisite is a test failure with the reason,
/// so a suite cannot silently stop running in CI.
public enum Prerequisite {
    /// True under `CARCHAIN_STRICT=1`.
    public static var isStrict: Bool { ProcessInfo.processInfo.environment["CARCHAIN_STRICT"] == "1" }

    /// Reports that `reason` keeps the calling test from running (the caller then returns or skips the part).
    public static func missing(_ reason: String) {
        if isStrict {
            Issue.record(Comment(rawValue: "missing prerequisite (CARCHAIN_STRICT=1): \(reason)"))
        } else {
            print("SKIPPED: \(reason)")
            SkipLedger.shared.record(reason)
        }
    }

    /// A system program by name: the first executable among `candidates`, else on `PATH`; nil after
    /// ``missing(_:)`` (saying `install` — the Debian package to get it) when there is none.
    public static func tool(
        _ name: String, candidates: [String] = [], install: String, for what: String
    ) -> URL? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
        if let found = (candidates + path).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return URL(fileURLWithPath: found)
        }
        missing("\(what) (no \(name); `make deps` installs it, or apt-get install \(install))")
        return nil
    }
}

/// The skips of this test process, summed up in one line at exit (`carchain tests: N skipped …`).
final class SkipLedger: @unchecked Sendable {
    static let shared = SkipLedger()
    private let lock = NSLock()
    private var reasons: [String] = []

    func record(_ reason: String) {
        lock.lock()
        defer { lock.unlock() }
        if reasons.isEmpty { atexit { SkipLedger.shared.printSummary() } }
        reasons.append(reason)
    }

    func printSummary() {
        lock.lock()
        defer { lock.unlock() }
        guard !reasons.isEmpty else { return }
        let distinct = Array(Set(reasons)).sorted()
        var line = "carchain tests: \(reasons.count) skipped (CARCHAIN_STRICT=1 makes each a failure): "
        line += distinct.prefix(5).joined(separator: "; ")
        if distinct.count > 5 { line += "; and \(distinct.count - 5) more reasons" }
        print(line)
        fflush(nil)
    }
}
