import EthereumContracts
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
/// it so. Runs come from the Swift Testing test's seed: `@Test(.fixedSeed("…"))` replays one exactly.
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
        try await chain.isolated {
            if let message = try await violation() { throw TestFailure("before any step: \(message)") }
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
                if let message = try await violation() {
                    throw TestFailure(
                        "\(message)\nafter step \(index + 1) of \(steps.count): \(step.action) by \(chain.name(of: actor)) → "
                            + "\(chain.name(of: actors[step.target])), value \(step.value)\nreplay:\n" + Self.swift(steps.prefix(index + 1)))
                }
            }
            return (steps.count, reverts)
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
        let names = actions.map(\.name)
        let last = actors.count - 1
        let step = zip(
            Gen<Int>.int(in: 0...(names.count - 1)), Gen<Int>.int(in: 0...last), Gen<Int>.int(in: 0...last),
            Gen<UInt64>.uint64(in: 0...maxValue)
        ).map { (step: (Int, Int, Int, UInt64)) in Step(action: names[step.0], actor: step.1, target: step.2, value: step.3) }
        let tally = Mutex(Outcome(sequences: 0, calls: 0, reverts: 0, failure: nil))
        await propertyCheck(count: max(runs, 0), input: step.array(of: 1...max(depth, 1))) { steps in
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
}
