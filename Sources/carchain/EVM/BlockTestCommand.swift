import ArgumentParser
import Conformance
import EthereumPrimitives
import Foundation

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
        let runner = BlockTestRunner(forks: forks, nameFilter: try ConformanceCLI.nameFilter(pattern))
        let files = try ConformanceCLI.files(paths)
        var policy = StateTestSuite.Policy(minPassRate: minPassRate)
        policy.knownFailures = try ConformanceCLI.knownFailures(knownFailures)
        let suite = StateTestSuite(policy: policy, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount) {
            runner.run(file: $0)
        }
        ConformanceCLI.run(suite, files: files, quiet: quiet, json: output.json, noteKnownNotSeen: forks == nil && pattern == nil)
    }
}
