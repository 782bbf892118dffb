import EVM
import EthereumPrimitives

/// When each fork activates on a chain: by block number up to the Merge (geth's `homesteadBlock` …
/// `mergeNetsplitBlock`), by timestamp from Shanghai (`shanghaiTime` … `bpo2Time`), with the blob parameters
/// per fork (EIP-7840's `blobSchedule`) and the deposit contract the chain watches (EIP-6110). A dev chain
/// runs one fork from genesis (``fixed(_:)``); a chain from a genesis file runs the file's schedule, so one
/// chain can hold Homestead blocks and Osaka blocks.
///
/// A block's fork is the latest configured fork whose activation the block has reached: forks are
/// cumulative (each includes the rules of those before it), and a fork the file leaves out never activates.
public struct ForkSchedule: Sendable, Hashable {
    /// What activates a fork.
    public enum Activation: Sendable, Hashable {
        /// The block with this number and every later one.
        case block(UInt64)
        /// Every block whose timestamp is at least this many Unix seconds.
        case time(UInt64)
    }

    /// The configured forks in fork order, each with its activation.
    public private(set) var activations: [(fork: Hardfork, activation: Activation)]
    /// Blob parameters that replace a fork's own (EIP-7840); forks absent here keep their EIP's values.
    public var blobSchedules: [Hardfork: BlobSchedule]
    /// EIP-6110's DEPOSIT_CONTRACT_ADDRESS (mainnet's unless the genesis names another).
    public var depositContract: Address

    /// Every fork up to and including `fork` active from genesis: a dev chain.
    public static func fixed(_ fork: Hardfork) -> ForkSchedule {
        ForkSchedule(activations: [(fork, .block(0))])
    }

    /// A schedule from `(fork, activation)` pairs in any order; forks listed twice keep the last.
    public init(
        activations: [(fork: Hardfork, activation: Activation)], blobSchedules: [Hardfork: BlobSchedule] = [:],
        depositContract: Address = ExecutionRequests.mainnetDepositContract
    ) {
        var byFork: [Hardfork: Activation] = [:]
        for entry in activations { byFork[entry.fork] = entry.activation }
        self.activations = byFork.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        self.blobSchedules = blobSchedules
        self.depositContract = depositContract
    }

    /// The fork of a block with `number` and `timestamp` (Frontier when nothing configured has activated).
    public func fork(number: UInt64, timestamp: UInt64) -> Hardfork {
        var result = Hardfork.frontier
        for (fork, activation) in activations {
            switch activation {
            case .block(let first) where number >= first: result = Swift.max(result, fork)
            case .time(let first) where timestamp >= first: result = Swift.max(result, fork)
            default: break
            }
        }
        return result
    }

    /// The latest fork the schedule names (what a dev chain "runs"; the last a scheduled chain reaches).
    public var latestFork: Hardfork { activations.last?.fork ?? .frontier }

    /// The blob parameters in force under `fork` (nil before Cancun).
    public func blobSchedule(for fork: Hardfork) -> BlobSchedule? {
        guard fork >= .cancun else { return nil }
        return blobSchedules[fork] ?? ForkRules(fork).blobSchedule ?? .cancun
    }

    /// The activation of `fork`, when configured.
    public func activation(of fork: Hardfork) -> Activation? {
        activations.first { $0.fork == fork }?.activation
    }

    public static func == (a: ForkSchedule, b: ForkSchedule) -> Bool {
        a.activations.map(\.fork) == b.activations.map(\.fork)
            && a.activations.map(\.activation) == b.activations.map(\.activation) && a.blobSchedules == b.blobSchedules
            && a.depositContract == b.depositContract
    }

    public func hash(into hasher: inout Hasher) {
        for (fork, activation) in activations {
            hasher.combine(fork)
            hasher.combine(activation)
        }
        hasher.combine(depositContract)
    }
}
