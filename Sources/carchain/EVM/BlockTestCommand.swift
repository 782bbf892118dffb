import ArgumentParser
import Conformance
import EthereumPrimitives
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `carchain evm blocktest`: runs blockchain-test fixtures through the chain's block processor (the path a
/// chain import takes) and reports each test. Running and gating are `Conformance`'s (``BlockTestRunner``,
/// ``StateTestSuite``); this parses, calls and prints.
struct BlockTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blocktest",
        abstract: "Run Ethereum blockchain tests (files or directories): header rules, system calls, requests, roots.",
        discussion: """
            Each test is one case: the genesis block is decoded and checked against the pre-state and the
            fixture's genesis hash, then every block is decoded from its RLP and processed on the head —
            header checks against the parent (gas limit, base fee, timestamp, number, blob gas, EIP-7918),
            the EIP-4788 and EIP-2935 system calls, the transactions, withdrawals, the EIP-7002/7251 system
            calls and EIP-6110 deposits, and every header commitment (gas used, receipts, bloom,
            transactions, withdrawals, requests hash, state root). A block with expectException must be
            rejected with one of the named exceptions and leaves nothing behind; at the end the head must
            be lastblockhash and the state postState (or postStateHash). Fork-transition networks are
            reported as skipped.

            Prints one line per failure naming the block and the rule (EEST's BlockException or
            TransactionException name), a pass table per fork, and always a last line
            "N passed, M failed, K skipped". With --json, one JSON object per test (name, fork, index,
            pass, stateRoot, error, skipped). Exits 0 only when nothing failed; --min-pass-rate P instead
            fails when a fork passes fewer than P percent of its tests, and --known-failures FILE accepts
            the failures listed there (labels "name[fork][0]"). Files run in parallel (--jobs).

            Examples:
              carchain evm blocktest ../shared/ethtests/BlockchainTests-Prague
              carchain evm blocktest ../shared/ethtests/BlockchainTests-Prague --min-pass-rate 99
              carchain evm blocktest path/to/test_deposit.json --run 'many_deposits' --json
            """
    )

    @Argument(help: "Blockchain-test JSON files or directories (searched recursively).")
    var paths: [String]

    @Option(name: .customLong("fork"), help: "Only tests of this fork (repeatable).")
    var forkNames: [String] = []

    @Option(name: .customLong("run"), help: "Only tests whose name matches this regular expression.")
    var pattern: String?

    @Option(help: "Files to run at once (default: the number of cores; \(OptionRanges.jobs.text)).")
    var jobs: Int?

    @Option(help: "Fail when a fork passes fewer than this percentage of its tests (\(OptionRanges.minPassRate.text)).")
    var minPassRate: Double?

    @Option(help: "A file of accepted failures (test labels with category and reason); any other failure fails.")
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
            filter = { name in box.value.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil }
        }
        let files: [URL]
        do { files = try StateTestRunner.files(at: paths) } catch { throw CLIError(error.description) }
        if files.isEmpty { throw CLIError("no .json files under \(paths.joined(separator: " "))") }

        var policy = StateTestSuite.Policy(minPassRate: minPassRate)
        if let knownFailures {
            do { policy.knownFailures = (try KnownFailures.load(knownFailures), knownFailures) } catch { throw CLIError(error.description) }
        }
        let runner = BlockTestRunner(forks: forks, nameFilter: filter)
        let suite = StateTestSuite(policy: policy, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount) {
            runner.run(file: $0)
        }
        let showProgress = !quiet && !output.json && isatty(STDERR_FILENO) != 0
        let outcome = suite.run(files: files) { report in
            if output.json {
                Output.json(report.result)
            } else if report.isFailure {
                print("\(report.isKnown ? "KNOWN" : "FAIL") \(report.result.label): \(report.result.error ?? "")")
            }
        } onProgress: { done, tally in
            if showProgress { StateTestCommand.drawProgress(done: done, total: files.count, tally: tally) }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
        if !output.json {
            for line in outcome.tally.table() { print(line) }
            if !quiet { print(String(format: "%d files in %.1f s", outcome.files, outcome.seconds)) }
        }
        for line in outcome.gateFailures { print("GATE \(line)") }
        print(outcome.tally.summary)
        if !outcome.passed {
            fflush(nil)
            Foundation.exit(1)
        }
    }
}
