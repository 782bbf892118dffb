import Foundation
import Testing

/// The outcome of one conformance case.
enum CaseOutcome: Sendable {
    case pass
    /// Failed, with the first difference found.
    case fail(String)
    /// Not run, with the reason.
    case skip(String)
    /// The case does not test this suite's subject (e.g. a transaction vector without a hash in a
    /// hashing suite); not counted.
    case notApplicable
}

/// Counts of one conformance suite's outcomes; `report()` prints the summary line and records an
/// issue for every failure.
struct ConformanceTally: Sendable {
    let suite: String
    var passed = 0
    var failed = 0
    var skipped = 0
    var failures: [String] = []
    var skipReasons: [String] = []

    init(suite: String) { self.suite = suite }

    mutating func record(_ outcome: CaseOutcome, case name: String) {
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

    /// The summary line, e.g. "RLPTests: 82 passed, 0 failed, 0 skipped".
    var summary: String { "\(suite): \(passed) passed, \(failed) failed, \(skipped) skipped" }

    /// Prints the summary and records each failure as a test issue.
    func report(sourceLocation: SourceLocation = #_sourceLocation) {
        print(summary)
        for failure in failures {
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        }
    }
}

/// Loads Ethereum conformance vector files (JSON objects of named cases) from `TestPaths.ethTests`.
enum ConformanceVectors {
    /// The vector directory `relative` (e.g. "RLPTests"), or nil after printing a SKIPPED line when
    /// it is absent.
    static func directory(_ relative: String, suite: String) -> URL? {
        let dir = TestPaths.ethTests.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            print("SKIPPED: \(suite) not found at \(dir.path)")
            return nil
        }
        return dir
    }

    /// Every `.json` file under `dir`, recursively, sorted by path.
    static func jsonFiles(under dir: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker where url.pathExtension == "json" { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }

    /// The cases of one vector file, sorted by name.
    static func cases(in file: URL) throws -> [(name: String, value: JSONValue)] {
        let data = try Data(contentsOf: file)
        let root = try JSONDecoder().decode(JSONValue.self, from: data)
        switch root {
        case .object(let members):
            return members.keys.sorted().map { ($0, members[$0] ?? .null) }
        case .array(let elements):
            return elements.enumerated().map { ("#\($0.offset)", $0.element) }
        default:
            throw CocoaError(.fileReadCorruptFile)
        }
    }

    /// Runs `body` on every case of every JSON file under `relative` (or only `files` there, when
    /// given) and returns the tally. A missing directory prints SKIPPED and counts one skip per
    /// expected file (or one for the whole directory); a file that fails to load counts as a failure.
    static func run(
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
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
    let n = zip(a, b).prefix { $0 == $1 }.count
    if n == a.count && n == b.count { return "equal" }
    func byte(_ x: [UInt8]) -> String { n < x.count ? String(format: "0x%02x", x[n]) : "end" }
    return "first difference at byte \(n) (got \(byte(a)), expected \(byte(b))); lengths \(a.count) and \(b.count)"
}
