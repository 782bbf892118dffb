import Foundation

/// Locates the project's directories and the Ethereum conformance vectors for tests.
public enum TestPaths {
    /// The package root (the directory holding Package.swift), found from this file's location.
    public static let packageRoot: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The shared data directory (`../shared` next to the package) or `CARCHAIN_SHARED_DIR`.
    public static var sharedDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["CARCHAIN_SHARED_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The ethereum/tests vectors: `ETHTESTS_DIR`, default `<package root>/../shared/ethtests`.
    public static var ethTestsDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["ETHTESTS_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return sharedDirectory.appendingPathComponent("ethtests")
    }

    /// The file at `relativePath` under the vectors directory, or nil (after printing SKIPPED) when absent.
    public static func ethTest(_ relativePath: String, suite: String) -> URL? {
        let url = ethTestsDirectory.appendingPathComponent(relativePath)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        print("SKIPPED: \(suite) not found at \(url.path) (set ETHTESTS_DIR or run `make fetch-ethtests`)")
        return nil
    }

    /// All `.json` files under a directory of the vectors, sorted, or nil (after printing SKIPPED) when absent.
    public static func ethTestFiles(under relativeDirectory: String, suite: String) -> [URL]? {
        let dir = ethTestsDirectory.appendingPathComponent(relativeDirectory)
        guard let enumerator = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else {
            print("SKIPPED: \(suite) not found at \(dir.path) (set ETHTESTS_DIR or run `make fetch-ethtests`)")
            return nil
        }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "json" { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }

    /// A file under `../shared` (e.g. "seed-carchain/CarChain.json"), or nil (after printing SKIPPED) when absent.
    public static func shared(_ relativePath: String, what: String) -> URL? {
        let url = sharedDirectory.appendingPathComponent(relativePath)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        print("SKIPPED: \(what) not found at \(url.path)")
        return nil
    }
}

/// Counts conformance cases and prints the summary line `<suite>: N passed, M failed, K skipped`.
public struct ConformanceTally: Sendable {
    public let suite: String
    public private(set) var passed = 0
    public private(set) var failed = 0
    public private(set) var skipped = 0
    /// The first few failures, "case: what differed".
    public private(set) var failures: [String] = []

    public init(suite: String) { self.suite = suite }

    public mutating func pass() { passed += 1 }
    public mutating func skip(_ count: Int = 1) { skipped += count }
    public mutating func fail(_ name: String, _ why: String) {
        failed += 1
        if failures.count < 20 { failures.append("\(name): \(why)") }
    }

    /// Records the outcome of a check.
    public mutating func check(_ ok: Bool, _ name: String, _ why: @autoclosure () -> String) {
        if ok { pass() } else { fail(name, why()) }
    }

    public var summary: String { "\(suite): \(passed) passed, \(failed) failed, \(skipped) skipped" }

    /// Prints the summary and the recorded failures.
    public func report() {
        print(summary)
        for f in failures { print("  FAIL \(f)") }
    }
}
