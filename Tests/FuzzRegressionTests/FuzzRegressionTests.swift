import Foundation
import FuzzHarnesses
import Testing
import TestSupport

/// Every input the fuzzers found a crash or a broken invariant with (`Fuzz/regressions/<harness>/`) replayed through
/// the harness that found it, each in a child process (a Swift exit test), so a crash that comes back fails one
/// test instead of killing the run. Inputs listed in `Fuzz/regressions/KNOWN-OPEN` are crashes whose fix is owned
/// elsewhere: they are expected to fail until fixed, and the test says so once they pass.
@Suite struct FuzzRegressionTests {
    @Test(arguments: RegressionInput.all)
    func replay(_ input: RegressionInput) async throws {
        let bytes = try [UInt8](Data(contentsOf: input.file))
        let target = input.target.rawValue
        let body = {
            _ = await #expect(processExitsWith: .success, "\(input.name) still fails") { [target = target as String, bytes = bytes as [UInt8]] in
                await RegressionInput.replayInChild(target: target, inputs: [bytes])
            }
        }
        if let reason = RegressionInput.knownOpen[input.name] {
            await withKnownIssue("open crash (\(reason)); remove it from Fuzz/regressions/KNOWN-OPEN once fixed") {
                await body()
            }
        } else {
            await body()
        }
    }

    /// The seed corpus of each harness runs clean: the inputs `make fuzz` starts from stay valid starting points.
    @Test(arguments: FuzzTarget.allCases)
    func corpus(_ target: FuzzTarget) async throws {
        let files = RegressionInput.files(in: "Fuzz/corpus/\(target.rawValue)")
        #expect(!files.isEmpty, "no seed corpus for \(target.rawValue): run tools/fuzz_corpus.py")
        let inputs = try files.map { try [UInt8](Data(contentsOf: $0)) }
        let name = target.rawValue
        await #expect(processExitsWith: .success, "a seed input of \(name) fails") { [name = name as String, inputs = inputs as [[UInt8]]] in
            await RegressionInput.replayInChild(target: name, inputs: inputs)
        }
    }
}

/// One saved input: `Fuzz/regressions/<harness>/<file>`.
struct RegressionInput: Sendable, CustomTestStringConvertible {
    let target: FuzzTarget
    let file: URL
    /// `<harness>/<file>`, as KNOWN-OPEN names it.
    var name: String { "\(target.rawValue)/\(file.lastPathComponent)" }
    var testDescription: String { name }

    static let all: [RegressionInput] = FuzzTarget.allCases.flatMap { target in
        files(in: "Fuzz/regressions/\(target.rawValue)").map { RegressionInput(target: target, file: $0) }
    }

    /// `harness/file  reason` lines of Fuzz/regressions/KNOWN-OPEN (# starts a comment).
    static let knownOpen: [String: String] = {
        let url = TestPaths.packageRoot.appendingPathComponent("Fuzz/regressions/KNOWN-OPEN")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var entries: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard let name = parts.first else { continue }
            entries[String(name)] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "known"
        }
        return entries
    }()

    static func files(in relative: String) -> [URL] {
        let dir = TestPaths.packageRoot.appendingPathComponent(relative)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// Runs in the exit test's child process: replays the inputs; a failed invariant exits with status 1 after
    /// printing it, a crash ends the process with its signal.
    static func replayInChild(target name: String, inputs: [[UInt8]]) async {
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("unknown harness \(name)\n".utf8))
            exit(2)
        }
        for bytes in inputs {
            do { try await FuzzHarness.run(target, bytes) } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        }
    }
}
