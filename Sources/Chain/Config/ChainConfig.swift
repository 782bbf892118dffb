import EthereumPrimitives
import Foundation

/// Where block timestamps come from.
public enum ChainClock: Sendable {
    /// Wall-clock seconds (plus the `evm_increaseTime` offset); a block is never older than its parent + 1.
    case system
    /// Deterministic: each block is `seconds` after its parent (plus any time increase), so the same
    /// transactions give the same block hashes on every run and machine.
    case fixedStep(seconds: UInt64)
    /// An injected clock returning Unix seconds.
    case custom(@Sendable () -> UInt64)

    /// The clock's current time in seconds (nil for ``fixedStep(seconds:)``, which has none).
    func now() -> UInt64? {
        switch self {
        case .system:
            return UInt64(max(0, Date().timeIntervalSince1970))
        case .fixedStep: return nil
        case .custom(let clock): return clock()
        }
    }
}

/// How a dev chain is set up. The defaults: chain id 4, Osaka (mainnet's fork since December 2025), a 30M gas
/// limit, the 10 accounts of the test mnemonic with 10,000 ETH each, a 1 gwei initial base fee,
/// automine.
public struct ChainConfig: Sendable {
    /// The chain id (EIP-155); `--chain-id`.
    public var chainId: UInt64 = 4
    /// The fork whose rules apply; `--hardfork`. One of ``supportedHardforks``.
    public var hardfork: Hardfork = ChainConfig.defaultHardfork
    /// When the storage already holds a chain, run the fork it was created with instead of refusing a different
    /// ``hardfork``. For callers that did not ask for a fork (the embedded CLI chain, `carchain node` without
    /// `--hardfork`), so that a data directory made under an earlier default (Cancun) keeps opening.
    public var keepsStoredHardfork = false
    /// The block gas limit; `--gas-limit`.
    public var gasLimit: UInt64 = 30_000_000
    /// The genesis timestamp; nil takes the clock's time (or 0 with a fixed-step clock).
    public var genesisTimestamp: UInt64?
    /// Where later timestamps come from.
    public var clock: ChainClock = .system
    /// The fee recipient of every block.
    public var coinbase: Address = .zero
    /// Accounts funded at genesis (default: ``DevAccounts/standard``).
    public var devAccounts: [DevAccount] = DevAccounts.standard
    /// The base fee of the first London block (EIP-1559's INITIAL_BASE_FEE, 1 gwei).
    public var initialBaseFee: UInt256 = UInt256(1_000_000_000 as UInt64)
    /// The interval between mined blocks; nil mines one block per transaction (automine).
    public var blockTime: Duration?
    /// False: with no ``blockTime`` either, transactions wait in the pool until a block is mined on request
    /// (`evm_mine`), as on a node without a consensus client (`carchain node --no-mining`).
    public var automine = true
    /// The header's extra data (at most 32 bytes).
    public var extraData: [UInt8] = []
    /// The most transactions the pool holds (waiting for interval mining, or for a missing nonce); one
    /// more is refused with "txpool is full" (geth's error). Replacing a pooled transaction does not count.
    public var maxPendingTransactions: Int = 10_000
    /// The most snapshots (`evm_snapshot`) kept at once; one more is refused until a revert frees some.
    /// Each one keeps the state it saw alive, so an endless loop of snapshots and blocks would otherwise
    /// grow memory without end. Test suites revert (which frees the snapshot and every later one), and
    /// hold a handful at a time.
    public var maxSnapshots: Int = 10_000
    /// A chain from a genesis file (`--genesis`): its chain id, fork schedule, alloc and header replace
    /// ``chainId``, ``hardfork`` and the dev accounts' balances (the dev accounts keep their keys, so they can
    /// sign if the alloc funds them). Set it with ``use(_:)``.
    public private(set) var genesis: Genesis?

    /// When each fork activates: the genesis file's schedule, or ``hardfork`` from genesis.
    public var schedule: ForkSchedule { genesis?.schedule ?? .fixed(hardfork) }

    /// Takes chain id, forks, gas limit and genesis block from `genesis`.
    public mutating func use(_ genesis: Genesis) {
        self.genesis = genesis
        chainId = genesis.chainId
        hardfork = genesis.schedule.latestFork
        gasLimit = genesis.gasLimit
        keepsStoredHardfork = false
    }

    /// The largest chain id, EIP-2294's floor(2^64 / 2) − 36, so that an EIP-155 `v` (chainId·2 + 36) fits in 64 bits.
    public static let maxChainId: UInt64 = UInt64.max / 2 - 36

    /// The fork a dev chain runs unless told otherwise: Osaka, mainnet's.
    public static let defaultHardfork: Hardfork = .osaka

    /// The forks a dev chain can run: Byzantium (receipts with a status) and later, in order.
    public static let supportedHardforks: [Hardfork] = Hardfork.allCases.filter { $0 >= .byzantium }

    /// The defaults.
    public init() {}

    /// The defaults, except that an existing chain keeps the fork it was created with (``keepsStoredHardfork``).
    public static var keepingStoredHardfork: ChainConfig {
        var config = ChainConfig()
        config.keepsStoredHardfork = true
        return config
    }

    /// A configuration with the given fields (others default).
    public init(
        chainId: UInt64 = 4, hardfork: Hardfork = ChainConfig.defaultHardfork, gasLimit: UInt64 = 30_000_000,
        genesisTimestamp: UInt64? = nil, clock: ChainClock = .system, coinbase: Address = .zero,
        devAccounts: [DevAccount] = DevAccounts.standard,
        initialBaseFee: UInt256 = UInt256(1_000_000_000 as UInt64), blockTime: Duration? = nil
    ) {
        self.chainId = chainId
        self.hardfork = hardfork
        self.gasLimit = gasLimit
        self.genesisTimestamp = genesisTimestamp
        self.clock = clock
        self.coinbase = coinbase
        self.devAccounts = devAccounts
        self.initialBaseFee = initialBaseFee
        self.blockTime = blockTime
    }

    /// A deterministic configuration: genesis at `genesisTimestamp`, each block `blockInterval`
    /// seconds after its parent (no wall-clock time anywhere).
    public static func deterministic(genesisTimestamp: UInt64 = 1_700_000_000, blockInterval: UInt64 = 1) -> ChainConfig {
        var config = ChainConfig()
        config.genesisTimestamp = genesisTimestamp
        config.clock = .fixedStep(seconds: max(1, blockInterval))
        return config
    }
}

