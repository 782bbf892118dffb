import ArgumentParser
import Conformance
import EthereumPrimitives
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `carchain evm statetest` and `carchain evm blocktest` share: the `--run` filter, the file list, and
/// printing a suite run (failure lines or JSON objects, the per-fork table, the gate, the summary line and
/// the exit status).
enum ConformanceCLI {
    /// The `--run` regular expression as a name filter (nil without one).
    static func nameFilter(_ pattern: String?) throws -> (@Sendable (String) -> Bool)? {
        guard let pattern else { return nil }
        let regex: NSRegularExpression
        do { regex = try NSRegularExpression(pattern: pattern) } catch { throw CLIError("bad --run regular expression: \(pattern)") }
        let box = UncheckedSendable(regex)
        return { name in box.value.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil }
    }

    /// Every `.json` file at or under `paths`, or a one-line error.
    static func files(_ paths: [String]) throws -> [URL] {
        let files: [URL]
        do { files = try StateTestRunner.files(at: paths) } catch { throw CLIError(error.description) }
        if files.isEmpty { throw CLIError("no .json files under \(paths.joined(separator: " "))") }
        return files
    }

    /// The known-failures list named by `--known-failures`, or a one-line error.
    static func knownFailures(_ path: String?) throws -> (list: KnownFailures, path: String)? {
        guard let path else { return nil }
        do { return (try KnownFailures.load(path), path) } catch { throw CLIError(error.description) }
    }

    /// Runs `suite` over `files` and prints it; exits 1 when the run does not pass. With `noteKnownNotSeen`
    /// (a whole, unfiltered run) it also names known failures that no longer fail.
    static func run(_ suite: StateTestSuite, files: [URL], quiet: Bool, json: Bool, noteKnownNotSeen: Bool) {
        let showProgress = !quiet && !json && isatty(STDERR_FILENO) != 0
        let outcome = suite.run(files: files) { report in
            if json {
                Output.json(report.result)
            } else if report.isFailure {
                print("\(report.isKnown ? "KNOWN" : "FAIL") \(report.result.label): \(report.result.error ?? "")")
            }
        } onProgress: { done, tally in
            if showProgress { drawProgress(done: done, total: files.count, tally: tally) }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
        if !json {
            for line in outcome.tally.table() { print(line) }
            if !quiet { print(String(format: "%d files in %.1f s", outcome.files, outcome.seconds)) }
            if noteKnownNotSeen, let path = suite.policy.knownFailures?.path {
                for label in outcome.knownNotSeen { print("note: \(path) lists \(label), which no longer fails or did not run") }
            }
        }
        for line in outcome.gateFailures { print("GATE \(line)") }
        print(outcome.tally.summary)
        if !outcome.passed {
            fflush(nil)
            Foundation.exit(1)
        }
    }

    static func drawProgress(done: Int, total: Int, tally: StateTestTally) {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r[\(bar)] \(done)/\(total) files  \(tally.passed) passed, \(tally.failed) failed, \(tally.skipped) skipped"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

/// Carries a value that is only read concurrently (NSRegularExpression is immutable once built).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The run options `carchain evm statetest` and `carchain evm blocktest` share: which tests, how many files at
/// once, the gate (`--min-pass-rate`, `--known-failures`) and the output.
struct ConformanceRunOptions: ParsableArguments {
    @Option(name: .customLong("fork"), help: "Only tests of this fork (repeatable). Aliases: EIP150, EIP158, ConstantinopleFix, Merge.")
    var forkNames: [String] = []

    @Option(name: .customLong("run"), help: "Only tests whose name matches this regular expression.")
    var pattern: String?

    @Option(help: "Files to run at once (default: the number of cores; \(OptionRanges.jobs.text)).")
    var jobs: Int?

    @Option(help: "Fail when a fork passes fewer than this percentage of its tests or entries (\(OptionRanges.minPassRate.text)).")
    var minPassRate: Double?

    @Option(help: "A file of accepted failures (labels with category and reason); any other failure fails.")
    var knownFailures: String?

    @Flag(help: "Print only the summary and failures, without a progress bar.")
    var quiet = false

    @OptionGroup var output: JSONOption

    func validate() throws {
        try OptionRanges.jobs.check(jobs)
        try OptionRanges.minPassRate.check(minPassRate)
    }

    /// The `--fork` selection, nil for every fork.
    func forks() throws -> Set<Hardfork>? { forkNames.isEmpty ? nil : Set(try forkNames.map(EVMCommand.fork)) }

    /// The gate: `--min-pass-rate` (for `rateForks`, default all) and `--known-failures`.
    func policy(rateForks: Set<Hardfork> = []) throws -> StateTestSuite.Policy {
        var policy = StateTestSuite.Policy(minPassRate: minPassRate, rateForks: rateForks)
        policy.knownFailures = try ConformanceCLI.knownFailures(knownFailures)
        return policy
    }

    /// `--jobs`, else the number of cores.
    var jobCount: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    /// Runs `suite` over `files` and prints it (see ``ConformanceCLI/run(_:files:quiet:json:noteKnownNotSeen:)``).
    func run(_ suite: StateTestSuite, files: [URL], forks: Set<Hardfork>?) {
        ConformanceCLI.run(suite, files: files, quiet: quiet, json: output.json, noteKnownNotSeen: forks == nil && pattern == nil)
    }
}
