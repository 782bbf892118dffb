import EthereumPrimitives
import Foundation

/// A state-test run over many files, and the policy that decides whether it passes: the gate CI applies
/// (`make statetests`), used by `carchain evm statetest` and by the tests.
///
/// Without a policy a run passes when no case fails. With ``Policy/minPassRate`` every fork in
/// ``Policy/rateForks`` (all forks when empty) must pass that percentage of its entries (skipped entries
/// count as not passed); with ``Policy/knownFailures`` the failures listed there are accepted and any other
/// failure fails the run.
public struct StateTestSuite: Sendable {
    /// The gate.
    public struct Policy: Sendable {
        /// The lowest pass percentage per fork, or nil for none.
        public var minPassRate: Double?
        /// The forks the rate applies to (empty: every fork that ran).
        public var rateForks: Set<Hardfork>
        /// Accepted failures, and the file they came from (named in the gate's message).
        public var knownFailures: (list: KnownFailures, path: String)?

        public init(minPassRate: Double? = nil, rateForks: Set<Hardfork> = [], knownFailures: (list: KnownFailures, path: String)? = nil) {
            self.minPassRate = minPassRate
            self.rateForks = rateForks
            self.knownFailures = knownFailures
        }
    }

    /// One case as the run reports it.
    public struct CaseReport: Sendable {
        public var result: StateTestCaseResult
        /// The case failed (it was neither passed nor skipped).
        public var isFailure: Bool { !result.pass && !result.skipped }
        /// The case failed and the known-failures list accepts it.
        public var isKnown: Bool
    }

    /// What a run found, and its verdict.
    public struct Outcome: Sendable {
        /// Counts per fork and overall.
        public var tally = StateTestTally()
        /// Labels of failures the known-failures list does not accept (all failures without a list).
        public var unexpected: [String] = []
        /// Known-failure patterns that matched no failing case.
        public var knownNotSeen: [String] = []
        /// Why the gate failed, one line each (empty when it held).
        public var gateFailures: [String] = []
        /// Files run.
        public var files = 0
        /// Wall-clock seconds.
        public var seconds = 0.0

        /// True when the run passes: no unaccepted failure and every gate held.
        public var passed: Bool { unexpected.isEmpty && gateFailures.isEmpty }
    }

    /// What runs one file: a state-test runner, or any other runner reporting cases the same way (the
    /// block-test runner), so that both share the tally, the gate and the known-failures list.
    public var runFile: @Sendable (URL) -> [StateTestCaseResult]
    /// The gate.
    public var policy: Policy
    /// Files run at once.
    public var jobs: Int

    public init(runner: StateTestRunner = StateTestRunner(), policy: Policy = Policy(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(policy: policy, jobs: jobs) { runner.run(file: $0) }
    }

    /// A suite whose files `runFile` runs.
    public init(
        policy: Policy = Policy(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        runFile: @escaping @Sendable (URL) -> [StateTestCaseResult]
    ) {
        self.runFile = runFile
        self.policy = policy
        self.jobs = max(1, jobs)
    }

    /// Runs every file (in parallel, reported in file order): `onCase` gets each case as it is judged,
    /// `onProgress` the files done so far and the running tally.
    public func run(
        files: [URL], onCase: (CaseReport) -> Void = { _ in }, onProgress: (_ done: Int, _ tally: StateTestTally) -> Void = { _, _ in }
    ) -> Outcome {
        var outcome = Outcome()
        outcome.files = files.count
        var knownSeen = Set<String>()
        let start = Date()
        let runFile = self.runFile
        ParallelRun.forEach(files, workers: jobs) { runFile($0) } completed: { done, results in
            for result in results {
                outcome.tally.record(result)
                var report = CaseReport(result: result, isKnown: false)
                if let known = policy.knownFailures?.list, let pattern = known.match(result) {
                    knownSeen.insert(pattern)
                    report.isKnown = report.isFailure
                }
                if report.isFailure && !report.isKnown { outcome.unexpected.append(result.label) }
                onCase(report)
            }
            onProgress(done, outcome.tally)
        }
        outcome.seconds = Date().timeIntervalSince(start)
        if let minPassRate = policy.minPassRate {
            for (fork, row) in outcome.tally.byFork.sorted(by: { $0.key < $1.key }) {
                guard policy.rateForks.isEmpty || Hardfork(name: fork).map(policy.rateForks.contains) == true else { continue }
                let total = row.passed + row.failed + row.skipped
                let rate = total == 0 ? 100 : Double(row.passed) * 100 / Double(total)
                if rate < minPassRate {
                    outcome.gateFailures.append(
                        String(format: "%@ passes %.3f%% of %d entries (required %.2f%%)", fork, rate, total, minPassRate))
                }
            }
        }
        if let (known, path) = policy.knownFailures {
            if !outcome.unexpected.isEmpty {
                outcome.gateFailures.append(
                    "\(outcome.unexpected.count) failure(s) not listed in \(path), first: \(outcome.unexpected[0])")
            }
            outcome.knownNotSeen = known.entries.map(\.pattern).filter { !knownSeen.contains($0) }
        }
        return outcome
    }
}
