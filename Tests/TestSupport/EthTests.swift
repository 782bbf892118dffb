import EthereumPrimitives
import Foundation
import Testing

/// Locates the project's directories and the Ethereum conformance vectors for tests.
public enum TestPaths {
    /// The package root: the nearest directory above this source file that holds `Package.swift`.
    public static let packageRoot: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The shared data directory: `CARCHAIN_SHARED_DIR`, default `<package root>/../shared`.
    public static var sharedDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["CARCHAIN_SHARED_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The ethereum/tests vectors: `ETHTESTS_DIR`, default `<package root>/../shared/ethtests`.
    public static var ethTests: URL {
        if let dir = ProcessInfo.processInfo.environment["ETHTESTS_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return sharedDirectory.appendingPathComponent("ethtests")
    }

    /// The file at `relativePath` under the vectors directory, or nil (a ``Prerequisite/missing(_:)``)
    /// when absent.
    public static func ethTest(_ relativePath: String, suite: String) -> URL? {
        let url = ethTests.appendingPathComponent(relativePath)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        Prerequisite.missing("\(suite) not found at \(url.path) (set ETHTESTS_DIR or run `make fetch-ethtests`)")
        return nil
    }

    /// A file under the shared directory (e.g. "seed-carchain/CarChain.json"), or nil (a missing prerequisite)
    /// when absent.
    public static func shared(_ relativePath: String, what: String) -> URL? {
        let url = sharedDirectory.appendingPathComponent(relativePath)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        Prerequisite.missing("\(what) not found at \(url.path) (set CARCHAIN_SHARED_DIR)")
        return nil
    }
}

/// The outcome of one conformance case.
public enum CaseOutcome: Sendable {
    case pass
    /// Failed, with the first difference found.
    case fail(String)
    /// Not run, with the reason.
    case skip(String)
    /// The case does not test this suite's subject (e.g. a transaction vector without a hash in a hashing suite); not counted.
    case notApplicable
}

/// Counts a conformance suite's outcomes; `report()` prints `<suite>: N passed, M failed, K skipped` and records
/// an issue for every failure.
public struct ConformanceTally: Sendable {
    public let suite: String
    public private(set) var passed = 0
    public private(set) var failed = 0
    public private(set) var skipped = 0
    public private(set) var failures: [String] = []
    public private(set) var skipReasons: [String] = []

    public init(suite: String) { self.suite = suite }

    public mutating func record(_ outcome: CaseOutcome, case name: String) {
        switch outcome {
        case .pass: passed += 1
        case .fail(let why):
            failed += 1
            failures.append("\(suite) case \(name): \(why)")
        case .skip(let why):
            skipped += 1
            skipReasons.append("\(name): \(why)")
        case .notApplicable: break
        }
    }

    /// Records a pass when `ok`, else a failure described by `why`.
    public mutating func check(_ ok: Bool, _ name: String, _ why: @autoclosure () -> String) {
        record(ok ? .pass : .fail(why()), case: name)
    }

    /// The summary line, e.g. "RLPTests: 82 passed, 0 failed, 0 skipped".
    public var summary: String { "\(suite): \(passed) passed, \(failed) failed, \(skipped) skipped" }

    /// Prints the summary and records each failure as a test issue.
    public func report(sourceLocation: SourceLocation = #_sourceLocation) {
        print(summary)
        for failure in failures {
            Issue.record(Comment(rawValue: failure))
        }
    }
}

/// Loads Ethereum conformance vector files (JSON objects of named cases) from `TestPaths.ethTests`.
public enum ConformanceVectors {
    /// The vector directory `relative` (e.g. "RLPTests"), or nil (a missing prerequisite) when it is absent.
    public static func directory(_ relative: String, suite: String) -> URL? {
        let dir = TestPaths.ethTests.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            Prerequisite.missing("\(suite) not found at \(dir.path) (set ETHTESTS_DIR or run `make fetch-ethtests`)")
            return nil
        }
        return dir
    }

    /// Every `.json` file under `dir`, recursively, sorted by path.
    public static func jsonFiles(under dir: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker where url.pathExtension == "json" { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }

    /// Parses a JSON file into a ``JSONValue``.
    public static func load(_ file: URL) throws -> JSONValue {
        try JSONValue(parsing: [UInt8](Data(contentsOf: file)))
    }

    /// The cases of one vector file (an object of named cases, or an array), sorted by name.
    public static func cases(in file: URL) throws -> [(name: String, value: JSONValue)] {
        switch try load(file) {
        case .object(let members):
            return members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        case .array(let elements):
            return elements.enumerated().map { ("#\($0.offset)", $0.element) }
        default:
            throw CocoaError(.fileReadCorruptFile)
        }
    }

    /// Runs `body` on every case of every JSON file under `relative` (or only `files` there, when given) and returns
    /// the tally. A missing directory is a missing prerequisite and counts one skip per expected file (or one for
    /// the whole directory); a file that fails to load counts as a failure.
    public static func run(
        suite: String,
        directory relative: String,
        files: [String]? = nil,
        _ body: (_ file: String, _ name: String, _ value: JSONValue) -> CaseOutcome
    ) -> ConformanceTally {
        var tally = ConformanceTally(suite: suite)
        guard let dir = directory(relative, suite: suite) else {
            for name in files ?? [relative] { tally.record(.skip("vectors not found"), case: name) }
            return tally
        }
        let urls = files.map { $0.map { dir.appendingPathComponent($0) } } ?? jsonFiles(under: dir)
        for url in urls {
            let fileName = String(url.path.dropFirst(dir.path.count + 1))
            do {
                for (name, value) in try cases(in: url) {
                    tally.record(body(fileName, name, value), case: "\(fileName):\(name)")
                }
            } catch {
                tally.record(.fail("cannot load \(url.path): \(error)"), case: fileName)
            }
        }
        return tally
    }
}

/// The first position where two byte strings differ, for failure messages.
public func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
    let n = zip(a, b).prefix { $0 == $1 }.count
    if n == a.count && n == b.count { return "equal" }
    func byte(_ x: [UInt8]) -> String { n < x.count ? "0x" + String(x[n], radix: 16) : "end" }
    return "first difference at byte \(n) (got \(byte(a)), expected \(byte(b))); lengths \(a.count) and \(b.count)"
}
