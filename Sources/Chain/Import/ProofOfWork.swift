import EVM
import EthereumPrimitives

/// The proof-of-work rules a pre-Merge block is checked and rewarded by (the Yellow Paper and geth's
/// `consensus/ethash`): the expected difficulty from the parent (Frontier, EIP-2 Homestead, EIP-100 Byzantium
/// with each fork's difficulty-bomb delay), the ommer (uncle) limits, and the block and ommer rewards. The
/// seal itself (the ethash nonce and mix hash) is not verified: test chains and hive's chains carry fake
/// seals, and a local node has no use for the work.
public enum ProofOfWork {
    /// The smallest difficulty (Yellow Paper D₀).
    public static let minimumDifficulty = UInt256(131_072 as UInt64)
    /// The most ommers a block may name.
    public static let maxOmmers = 2
    /// How many generations back an ommer's parent may be.
    public static let maxOmmerDepth: UInt64 = 7

    /// EIP-649 / EIP-1234 / EIP-2384 / EIP-3554 / EIP-4345 / EIP-5133: how many blocks the difficulty bomb is
    /// pushed back under `fork`.
    static func bombDelay(_ fork: Hardfork) -> UInt64 {
        switch fork {
        case .frontier, .homestead, .tangerineWhistle, .spuriousDragon: return 0
        case .byzantium: return 3_000_000
        case .constantinople, .petersburg, .istanbul: return 5_000_000
        case .muirGlacier, .berlin: return 9_000_000
        case .london: return 9_700_000
        case .arrowGlacier: return 10_700_000
        default: return 11_400_000  // Gray Glacier (the Merge ends the bomb)
        }
    }

    /// The block reward under `fork`: 5 ETH, 3 from Byzantium (EIP-649), 2 from Constantinople (EIP-1234).
    public static func blockReward(_ fork: Hardfork) -> UInt256 {
        let ether = UInt256(1_000_000_000_000_000_000 as UInt64)
        if fork >= .constantinople { return ether &* UInt256(2 as UInt64) }
        if fork >= .byzantium { return ether &* UInt256(3 as UInt64) }
        return ether &* UInt256(5 as UInt64)
    }

    /// The difficulty a `fork` block at `timestamp` must have after `parent`. Timestamps come from input: the
    /// caller has checked `timestamp > parent.timestamp`; every step is done in 256 bits.
    public static func difficulty(timestamp: UInt64, parent: BlockHeader, fork: Hardfork) -> UInt256 {
        let parentDifficulty = parent.difficulty
        let step = parentDifficulty / UInt256(2048 as UInt64)
        let elapsed = timestamp &- parent.timestamp
        var value: UInt256
        if fork >= .byzantium {
            // EIP-100: max(y − elapsed / 9, −99), y = 2 when the parent has ommers.
            let y: UInt64 = parent.ommersHash == BlockHeader.emptyOmmersHash ? 1 : 2
            value = adjust(parentDifficulty, step: step, up: y, down: elapsed / 9)
        } else if fork >= .homestead {
            // EIP-2: max(1 − elapsed / 10, −99).
            value = adjust(parentDifficulty, step: step, up: 1, down: elapsed / 10)
        } else {
            value = elapsed < 13 ? parentDifficulty &+ step : parentDifficulty &- step
        }
        if value < minimumDifficulty { value = minimumDifficulty }
        // The bomb: 2^(period − 2) with period = (number − delay) / 100,000, once it is past 1.
        let number = parent.number &+ 1
        let delay = bombDelay(fork)
        let fakeNumber = number > delay ? number - delay : 0
        let period = fakeNumber / 100_000
        if period > 1 && period - 2 < 256 { value = value &+ (UInt256.one << Int(period - 2)) }
        return value
    }

    /// `parent + step × max(up − down, −99)`, without going below zero.
    private static func adjust(_ parent: UInt256, step: UInt256, up: UInt64, down: UInt64) -> UInt256 {
        if down <= up { return parent &+ step &* UInt256(up - down) }
        let fall = UInt256(Swift.min(down - up, 99)) &* step
        return fall > parent ? .zero : parent &- fall
    }

    /// Credits the block reward to the block's coinbase, 1/32 of it more per ommer, and to each ommer's
    /// coinbase `(8 + ommer number − number) / 8` of it (geth's `accumulateRewards`), then finalizes the state
    /// like a transaction (the empty-account rules of the fork apply).
    public static func applyRewards(header: BlockHeader, ommers: [BlockHeader], fork: Hardfork, in journaled: inout JournaledState) {
        let reward = blockReward(fork)
        var minerReward = reward
        for ommer in ommers {
            // Ommers were checked to be 1...6 blocks older than the block.
            let share = UInt256((ommer.number &+ 8) &- header.number)
            journaled.addBalance(ommer.coinbase, share &* reward / UInt256(8 as UInt64))
            minerReward = minerReward &+ reward / UInt256(32 as UInt64)
        }
        journaled.addBalance(header.coinbase, minerReward)
        journaled.finalize(rules: ForkRules(fork))
    }
}
