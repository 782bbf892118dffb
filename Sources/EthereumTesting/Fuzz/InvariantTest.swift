import EthereumContracts
import EthereumPrimitives
import PropertyBased
import Synchronization
import Testing

/// Invariant testing (forge's `invariant_*` tests, generalized from `CarChainSimulation`'s model check): random
/// sequences of calls from several actors, with invariants checked after every call; a failing sequence is shrunk by
/// PropertyBased (fewer steps, smaller values, earlier actors) and reported as a Swift call that replays it.
///
/// A step is an action, an actor (who sends), a target (another actor, for transfers and the like) and a value; an
/// action turns them into a transaction. A step that reverts is skipped, as forge's `fail_on_revert = false` does.
/// Every run starts from the chain as it was when ``run(runs:depth:maxValue:sourceLocation:)`` was called and leaves
/// it so. Runs come from the Swift Testing test's seed: `@Test(.fixedSeed("…"))` replays one exactly. Outside a test,
/// ``explore(runs:depth:maxValue:seed:progress:)`` runs the same sequences from a 64-bit seed and shrinks a failure
/// the same way (`carchain simulate --spec` drives it from a JSON file, ``SimulationSpec``).
public struct InvariantTest: Sendable {
    /// One call of a sequence.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// The action's name.
        public var action: String
        /// Who sends: an index into the actors.
        public var actor: Int
        /// Whom the action is about (a recipient, a spender): an index into the actors.
        public var target: Int
        /// The amount, or any number the action reads.
        public var value: UInt64

        public init(action: String, actor: Int, target: Int, value: UInt64) {
            self.action = action
            self.actor = actor
            self.target = target
            self.value = value
        }

        /// The step as Swift: `.init(action: "move", actor: 0, target: 0, value: 1)`.
        public var description: String {
            ".init(action: \(String(reflecting: action)), actor: \(actor), target: \(target), value: \(value))"
        }
    }

    /// What a step's action is given.
    public struct Context: Sendable {
        /// The bench.
        public var chain: TestChain
        /// The sender (the prank is on while the action runs).
        public var actor: Address
        /// The other actor the step names.
        public var target: Address
        /// The step's value.
        public var value: UInt64
    }

    /// An action: a name and what it sends.
    public struct Action: Sendable {
        public var name: String
        public var run: @Sendable (Context) async throws -> Void

        public init(_ name: String, _ run: @escaping @Sendable (Context) async throws -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// A property of the chain that must hold after every step: `check` throws (or returns a message) when broken.
    public struct Invariant: Sendable {
        public var name: String
        /// Nil when the invariant holds; else what is wrong.
        public var check: @Sendable (TestChain) async throws -> String?

        public init(_ name: String, _ check: @escaping @Sendable (TestChain) async throws -> String?) {
            self.name = name
            self.check = check
        }
    }

    /// How a run went.
    public struct Outcome: Sendable {
        /// Sequences run (including the shrinker's replays).
        public var sequences: Int
        /// Steps run, reverted ones included.
        public var calls: Int
        /// Steps that reverted (skipped).
        public var reverts: Int
        /// The smallest failing sequence found, and why it fails; nil when every invariant held.
        public var failure: (steps: [Step], message: String)?
        /// ``explore(runs:depth:maxValue:seed:progress:)``'s seed (nil for ``run(runs:depth:maxValue:sourceLocation:)``,
        /// whose seed is the Swift Testing test's).
        public var seed: UInt64? = nil
        /// The failing sequence as first found, before shrinking (``explore(runs:depth:maxValue:seed:progress:)``).
        public var unshrunk: [Step]? = nil
        /// Smaller failing sequences the shrinker went through (``explore(runs:depth:maxValue:seed:progress:)``).
        public var shrinks = 0
    }

    /// What running one sequence did: its calls, its reverts, and the first broken invariant (after which step: 0 when
    /// it was broken before any step) and why.
    public struct Execution: Sendable {
        public var calls: Int
        public var reverts: Int
        public var violation: (afterStep: Int, message: String)?
    }

    public let chain: TestChain
    public let actors: [Address]
    public let actions: [Action]
    public let invariants: [Invariant]

    public init(chain: TestChain, actors: [Address], actions: [Action], invariants: [Invariant]) {
        precondition(!actors.isEmpty && !actions.isEmpty, "an invariant test needs actors and actions")
        self.chain = chain
        self.actors = actors
        self.actions = actions
        self.invariants = invariants
    }

    /// The invariants, checked now (nil: all hold).
    public func violation() async throws -> String? {
        for invariant in invariants {
            if let message = try await invariant.check(chain) { return "invariant \(invariant.name) broken: \(message)" }
        }
        return nil
    }

    /// Runs `steps` from the chain as it is, checking the invariants after each; throws ``TestFailure`` at the
    /// first broken one (with the step and the sequence as Swift). The chain is left as it was.
    @discardableResult
    public func replay(_ steps: [Step]) async throws -> (calls: Int, reverts: Int) {
        let execution = try await execute(steps)
        if let violation = execution.violation {
            let (after, message) = (violation.afterStep, violation.message)
            guard after > 0 else { throw TestFailure("before any step: \(message)") }
            let step = steps[after - 1]
            throw TestFailure(
                "\(message)\nafter step \(after) of \(steps.count): \(step.action) by \(chain.name(of: actors[step.actor])) → "
                    + "\(chain.name(of: actors[step.target])), value \(step.value)\nreplay:\n" + Self.swift(steps.prefix(after)))
        }
        return (execution.calls, execution.reverts)
    }

    /// Runs `steps` from the chain as it is, checking the invariants before the first and after each, and stops at the
    /// first broken one; reverted steps are counted and skipped. The chain is left as it was. Throws what an action
    /// throws other than a revert, and ``TestFailure`` for a step naming no action or actor of this test.
    public func execute(_ steps: [Step]) async throws -> Execution {
        try await chain.isolated {
            if let message = try await violation() { return Execution(calls: 0, reverts: 0, violation: (0, message)) }
            var reverts = 0
            for (index, step) in steps.enumerated() {
                guard let action = actions.first(where: { $0.name == step.action }), actors.indices.contains(step.actor),
                    actors.indices.contains(step.target)
                else { throw TestFailure("step \(index + 1) \(step) names no action or actor of this test") }
                let actor = actors[step.actor]
                do {
                    try await chain.prank(actor) {
                        try await action.run(Context(chain: chain, actor: actor, target: actors[step.target], value: step.value))
                    }
                } catch let error as ContractError where error.revert != nil {
                    reverts += 1
                    continue
                }
                if let message = try await violation() { return Execution(calls: index + 1, reverts: reverts, violation: (index + 1, message)) }
            }
            return Execution(calls: steps.count, reverts: reverts, violation: nil)
        }
    }

    /// `try await invariants.replay([ … ])`, the sequence as a Swift statement to paste into a test.
    public static func swift(_ steps: some Collection<Step>) -> String {
        "try await invariants.replay([\n" + steps.map { "    \($0)," }.joined(separator: "\n") + "\n])"
    }

    /// Runs `runs` random sequences of 1…`depth` steps (values 0…`maxValue`) through PropertyBased's
    /// `propertyCheck`; a broken invariant is recorded as a Swift Testing issue with the shrunk sequence as Swift,
    /// and returned. Call it from a Swift Testing test.
    @discardableResult
    public func run(runs: Int = 100, depth: Int = 100, maxValue: UInt64 = 1_000, sourceLocation: SourceLocation = #_sourceLocation) async
        -> Outcome
    {
        let tally = Mutex(Outcome(sequences: 0, calls: 0, reverts: 0, failure: nil))
        await propertyCheck(count: max(runs, 0), input: sequences(depth: depth, maxValue: maxValue)) { steps in
            do {
                let counts = try await replay(steps)
                tally.withLock {
                    $0.sequences += 1
                    $0.calls += counts.calls
                    $0.reverts += counts.reverts
                }
            } catch {
                tally.withLock {
                    $0.sequences += 1
                    $0.calls += steps.count
                    // The shrinker runs the smallest failing sequence last.
                    $0.failure = (steps, "\(error)")
                }
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        return tally.withLock { $0 }
    }

    /// The generator of sequences both drivers use: 1…`depth` steps, each an action, an actor, a target and a value
    /// in 0…`maxValue`, drawn uniformly (PropertyBased's generators, which shrink toward the first action and actor
    /// and toward 0).
    public func sequences(depth: Int, maxValue: UInt64) -> Generator<[Step], some SendableSequenceType> {
        let names = actions.map(\.name)
        let last = actors.count - 1
        return zip(
            Gen<Int>.int(in: 0...(names.count - 1)), Gen<Int>.int(in: 0...last), Gen<Int>.int(in: 0...last),
            Gen<UInt64>.uint64(in: 0...maxValue)
        ).map { (step: (Int, Int, Int, UInt64)) in Step(action: names[step.0], actor: step.1, target: step.2, value: step.3) }
            .array(of: 1...max(depth, 1))
    }

    /// Runs `runs` random sequences of 1…`depth` steps (values 0…`maxValue`) drawn from `seed` — the same seed gives
    /// the same sequences, on any machine — outside any test framework (`carchain simulate --spec`). The first
    /// sequence that breaks an invariant is shrunk with PropertyBased's shrinking sequences (drop one step, then
    /// lower one field of one step toward the first action, the first actor or 0, keeping any change that still
    /// fails) and returned as the outcome's failure, with the message of its last step. `progress` is told the
    /// sequences done of `runs`.
    public func explore(
        runs: Int, depth: Int, maxValue: UInt64, seed: UInt64, progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> Outcome {
        var outcome = Outcome(sequences: 0, calls: 0, reverts: 0, failure: nil, seed: seed)
        let generator = sequences(depth: depth, maxValue: maxValue)
        var rng = Self.generator(seed: seed)
        for run in 0..<max(runs, 0) {
            let steps = generator.run(using: &rng)
            let execution = try await execute(steps)
            outcome.sequences += 1
            outcome.calls += execution.calls
            outcome.reverts += execution.reverts
            progress(run + 1, runs)
            guard let violation = execution.violation else { continue }
            var shortest = Array(steps.prefix(max(violation.afterStep, 1)))
            var message = violation.message
            outcome.unshrunk = shortest
            // Greedy, as PropertyBased's propertyCheck shrinks: take the first smaller candidate that still fails,
            // start again from it; stop when none does (or after 10,000 replays, a bound on long sequences).
            var replays = 0
            search: while replays < 10_000 {
                let names = actions.map(\.name)
                let last = actors.count - 1
                let candidates = Shrink.shrinkArray(shortest, shrinker: { (step: Step) -> [Step] in
                    var smaller: [Step] = []
                    if let index = names.firstIndex(of: step.action) {
                        smaller += index.shrink(within: 0...(names.count - 1)).map { Step(action: names[$0], actor: step.actor, target: step.target, value: step.value) }
                    }
                    smaller += step.actor.shrink(within: 0...last).map { Step(action: step.action, actor: $0, target: step.target, value: step.value) }
                    smaller += step.target.shrink(within: 0...last).map { Step(action: step.action, actor: step.actor, target: $0, value: step.value) }
                    smaller += step.value.shrink(within: 0...maxValue).map { Step(action: step.action, actor: step.actor, target: step.target, value: $0) }
                    return smaller
                }, lowerBound: 1)
                for candidate in candidates {
                    replays += 1
                    let attempt = try await execute(candidate)
                    outcome.calls += attempt.calls
                    outcome.reverts += attempt.reverts
                    if let found = attempt.violation, found.afterStep > 0 {
                        shortest = Array(candidate.prefix(found.afterStep))
                        message = found.message
                        outcome.shrinks += 1
                        continue search
                    }
                    if replays >= 10_000 { break search }
                }
                break
            }
            outcome.failure = (shortest, message)
            return outcome
        }
        return outcome
    }

    /// PropertyBased's generator (xoshiro256**) seeded from a 64-bit seed through SplitMix64, as xoshiro's authors
    /// recommend seeding it.
    public static func generator(seed: UInt64) -> Xoshiro {
        var seeder = SplitMix64(seed: seed)
        return Xoshiro(seed: (seeder.next(), seeder.next(), seeder.next(), seeder.next()))
    }
}
