import ArgumentParser
import Conformance
import EthereumPrimitives
import Foundation

/// `carchain evm statetest`: runs GeneralStateTests files and reports every post entry. The running and
/// the pass/fail policy are `Conformance`'s ``StateTestSuite``; this parses, calls and prints.
struct StateTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statetest",
        abstract: "Run Ethereum GeneralStateTests (files or directories) and compare post-state roots and logs.",
        discussion: """
            Each test, fork and post entry is one case: the transaction is built from the test's \
            secretKey and the entry's data/gas/value indexes, executed on the pre-state, and the state \
            root and logs hash compared; an entry with expectException must be rejected with the state \
            left as it was. Cases that need something this build lacks (e.g. a missing precompile) \
            are reported as skipped with the reason, never as passed.

            Prints failures (and, with --json, one JSON object per case: name, fork, index, pass, \
            stateRoot, error, skipped), a pass table per fork, and always a last line \
            "N passed, M failed, K skipped". Exits 0 only when nothing failed. Files run in \
            parallel on all cores, and the post entries of one test too (--jobs to change).

            For CI: --min-pass-rate P fails the run when a fork (each --rate-fork, default every fork \
            that ran) passes fewer than P percent of its entries (skipped entries count as not \
            passed), and --known-failures FILE accepts the failures listed there (one case label \
            "name[fork][index]" per line, then its category and reason; "*" as index matches all) and \
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

    @Option(name: .customLong("rate-fork"), help: "A fork --min-pass-rate applies to (repeatable; default: all).")
    var rateForkNames: [String] = []

    @OptionGroup var options: ConformanceRunOptions

    func run() throws {
        let forks = try options.forks()
        let filter = try ConformanceCLI.nameFilter(options.pattern)
        let files = try ConformanceCLI.files(paths)
        let policy = try options.policy(rateForks: Set(rateForkNames.map(EVMCommand.fork)))
        let suite = StateTestSuite(
            runner: StateTestRunner(forks: forks, nameFilter: filter, entryJobs: options.jobCount), policy: policy,
            jobs: options.jobCount)
        options.run(suite, files: files, forks: forks)
    }
}
