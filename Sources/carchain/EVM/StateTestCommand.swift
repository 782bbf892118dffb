import ArgumentParser
import Conformance
import EthereumPrimitives
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `carchain evm statetest`: runs GeneralStateTests files and reports every post entry. The running and
/// the pass/fail policy are `Conformance`'s ``StateTestSuite``; this parses, calls and prints.
struct StateTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statetest",
        abstract: "Run Ethereum GeneralStateTests (files or directories) and compare post-state roots and logs.",
        discussion: """
            Each test, fork and post entry is one case: the transaction is built from the test's
            secretKey and the entry's data/gas/value indexes, executed on the pre-state, and the state
            root and logs hash compared; an entry with expectException must be rejected with the state
            left as it was. Cases that need something this build lacks (e.g. a missing precompile)
            are reported as skipped with the reason, never as passed.

            Prints failures (and, with --json, one JSON object per case: name, fork, index, pass,
            stateRoot, error, skipped), a pass table per fork, and always a last line
            "N passed, M failed, K skipped". Exits 0 only when nothing failed. Files run in
            parallel on all cores (--jobs to change).

            For CI: --min-pass-rate P fails the run when a fork (each --rate-fork, default every fork
            that ran) passes fewer than P percent of its entries (skipped entries count as not
            passed), and --known-failures FILE accepts the failures listed there (one case label
            "name[fork][index]" per line, then its category and reason; "*" as index matches all) and
            fails on any other. Exit status 0 then means: rates met and no unlisted failure.

            Examples:
              carchain evm statetest ../shared/ethtests/Cancun/GeneralStateTests
              carchain evm statetest ../shared/ethtests/Cancun/GeneralStateTests --min-pass-rate 99.5 \
                --rate-fork Istanbul --rate-fork Cancun --known-failures docs/EVM-known-failures.txt
              carchain evm statetest ../shared/ethtests/Cancun/GeneralStateTests/stSStoreTest --fork Istanbul
              carchain evm statetest path/to/test.json --run 'sstore_.*' --json
            """
    )

    @Argument(help: "State-test JSON files or directories (searched recursively).")
    var paths: [String]

    @Option(name: .customLong("fork"), help: "Only this fork (repeatable). Aliases: EIP150, EIP158, ConstantinopleFix, Merge.")
    var forkNames: [String] = []

    @Option(name: .customLong("run"), help: "Only tests whose name matches this regular expression.")
    var pattern: String?

    @Option(help: "Files to run at once (default: the number of cores; \(OptionRanges.jobs.text)).")
    var jobs: Int?

    @Option(help: "Fail when a fork passes fewer than this percentage of its entries (\(OptionRanges.minPassRate.text)).")
    var minPassRate: Double?

    @Option(name: .customLong("rate-fork"), help: "A fork --min-pass-rate applies to (repeatable; default: all).")
    var rateForkNames: [String] = []

    @Option(help: "A file of accepted failures (case labels with category and reason); any other failure fails.")
    var knownFailures: String?

    @Flag(help: "Print only the summary and failures, without a progress bar.")
    var quiet = false

    @OptionGroup var output: JSONOption

    func validate() throws {
        try OptionRanges.jobs.check(jobs)
        try OptionRanges.minPassRate.check(minPassRate)
    }

    func run() throws {
        let forks = try forkNames.isEmpty ? nil : Set(forkNames.map(EVMCommand.fork))
        var filter: (@Sendable (String) -> Bool)?
        if let pattern {
            let regex: NSRegularExpression
            do { regex = try NSRegularExpression(pattern: pattern) } catch { throw CLIError("bad --run regular expression: \(pattern)") }
            let box = UncheckedSendable(regex)
            filter = { name in
                box.value.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
            }
        }
        let files: [URL]
        do { files = try StateTestRunner.files(at: paths) } catch { throw CLIError(error.description) }
        if files.isEmpty { throw CLIError("no .json files under \(paths.joined(separator: " "))") }

        var policy = StateTestSuite.Policy(minPassRate: minPassRate, rateForks: try Set(rateForkNames.map(EVMCommand.fork)))
        if let knownFailures {
            do { policy.knownFailures = (try KnownFailures.load(knownFailures), knownFailures) } catch { throw CLIError(error.description) }
        }
        let suite = StateTestSuite(
            runner: StateTestRunner(forks: forks, nameFilter: filter), policy: policy,
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let showProgress = !quiet && !output.json && isatty(STDERR_FILENO) != 0
        let outcome = suite.run(files: files) { report in
            if output.json {
                Output.json(report.result)
            } else if report.isFailure {
                print("\(report.isKnown ? "KNOWN" : "FAIL") \(report.result.label): \(report.result.error ?? "")")
            }
        } onProgress: { done, tally in
            if showProgress { Self.drawProgress(done: done, total: files.count, tally: tally) }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
        if !output.json {
            for line in outcome.tally.table() { print(line) }
            if !quiet { print(String(format: "%d files in %.1f s", outcome.files, outcome.seconds)) }
            if let path = knownFailures, forks == nil, pattern == nil {
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
