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
            Each test is one case: the genesis block is decoded and checked against the pre-state and the \
            fixture's genesis hash, then every block is decoded from its RLP and processed on the head — \
            header checks against the parent (gas limit, base fee, timestamp, number, blob gas, EIP-7918), \
            the EIP-4788 and EIP-2935 system calls, the transactions, withdrawals, the EIP-7002/7251 system \
            calls and EIP-6110 deposits, and every header commitment (gas used, receipts, bloom, \
            transactions, withdrawals, requests hash, state root). A block with expectException must be \
            rejected with one of the named exceptions and leaves nothing behind; at the end the head must \
            be lastblockhash and the state postState (or postStateHash). Fork-transition networks are \
            reported as skipped.

            Prints one line per failure naming the block and the rule (EEST's BlockException or \
            TransactionException name), a pass table per fork, and always a last line \
            "N passed, M failed, K skipped". With --json, one JSON object per test (name, fork, index, \
            pass, stateRoot, error, skipped). Exits 0 only when nothing failed; --min-pass-rate P instead \
            fails when a fork passes fewer than P percent of its tests, and --known-failures FILE accepts \
            the failures listed there (labels "name[fork][0]"). Files run in parallel (--jobs).

            Examples:
              carchain evm blocktest ../shared/ethtests/BlockchainTests-Prague
              carchain evm blocktest ../shared/ethtests/BlockchainTests-Prague --min-pass-rate 99
              carchain evm blocktest path/to/test_deposit.json --run 'many_deposits' --json
            """
    )

    @Argument(help: "Blockchain-test JSON files or directories (searched recursively).")
    var paths: [String]

    @OptionGroup var options: ConformanceRunOptions

    func run() throws {
        let forks = try options.forks()
        let runner = BlockTestRunner(forks: forks, nameFilter: try ConformanceCLI.nameFilter(options.pattern))
        let files = try ConformanceCLI.files(paths)
        let suite = StateTestSuite(policy: try options.policy(), jobs: options.jobCount) { runner.run(file: $0) }
        options.run(suite, files: files, forks: forks)
    }
}
