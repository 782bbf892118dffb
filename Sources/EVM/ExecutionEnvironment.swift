import EthereumPrimitives

/// The block an execution happens in, as the block-information opcodes see it.
public struct BlockEnvironment: Sendable, Equatable {
    /// COINBASE: the fee recipient.
    public var coinbase: Address
    /// NUMBER.
    public var number: UInt64
    /// TIMESTAMP.
    public var timestamp: UInt64
    /// GASLIMIT.
    public var gasLimit: UInt64
    /// DIFFICULTY (before Paris).
    public var difficulty: UInt256
    /// PREVRANDAO (from Paris, EIP-4399).
    public var prevRandao: Bytes32
    /// BASEFEE (from London, EIP-1559/3198).
    public var baseFee: UInt256
    /// The excess blob gas (EIP-4844), from which BLOBBASEFEE is derived.
    public var excessBlobGas: UInt64
    /// CHAINID (EIP-1344).
    public var chainID: UInt256
    /// The blob parameters in force (EIP-4844, EIP-7691, EIP-7840): BLOBBASEFEE and the blob checks
    /// of a transaction use them.
    public var blobSchedule: BlobSchedule
    /// A BLOBBASEFEE that replaces the one derived from ``excessBlobGas`` (`eth_simulateV1`'s `blobBaseFee` block
    /// override); nil in every real block.
    public var blobBaseFeeOverride: UInt256?
    /// Precompiles removed or moved for this block (`eth_simulateV1`'s state overrides); nil: the fork's own.
    public var precompileOverrides: PrecompileOverrides?

    /// Creates a block environment; unspecified fields are zero and the chain id is 1.
    public init(
        coinbase: Address = .zero, number: UInt64 = 0, timestamp: UInt64 = 0, gasLimit: UInt64 = 30_000_000,
        difficulty: UInt256 = .zero, prevRandao: Bytes32 = .zero, baseFee: UInt256 = .zero,
        excessBlobGas: UInt64 = 0, chainID: UInt256 = .one, blobSchedule: BlobSchedule = .cancun,
        blobBaseFeeOverride: UInt256? = nil, precompileOverrides: PrecompileOverrides? = nil
    ) {
        self.blobBaseFeeOverride = blobBaseFeeOverride
        self.precompileOverrides = precompileOverrides
        self.coinbase = coinbase
        self.number = number
        self.timestamp = timestamp
        self.gasLimit = gasLimit
        self.difficulty = difficulty
        self.prevRandao = prevRandao
        self.baseFee = baseFee
        self.excessBlobGas = excessBlobGas
        self.chainID = chainID
        self.blobSchedule = blobSchedule
    }

    /// BLOBBASEFEE: the blob gas price derived from the excess blob gas (EIP-4844's
    /// `fake_exponential(MIN_BLOB_BASE_FEE, excess, BLOB_BASE_FEE_UPDATE_FRACTION)`), with the update
    /// fraction of ``blobSchedule``.
    public var blobBaseFee: UInt256 {
        if let blobBaseFeeOverride { return blobBaseFeeOverride }
        return BlobGas.fakeExponential(
            factor: UInt256(BlobGas.minBaseFee), numerator: UInt256(excessBlobGas),
            denominator: UInt256(blobSchedule.baseFeeUpdateFraction))
    }
}

/// The transaction an execution belongs to, as ORIGIN, GASPRICE and BLOBHASH see it.
public struct TransactionEnvironment: Sendable, Equatable {
    /// ORIGIN: the sender of the transaction.
    public var origin: Address
    /// GASPRICE: the effective gas price paid per unit of gas.
    public var gasPrice: UInt256
    /// The blob versioned hashes (EIP-4844), read by BLOBHASH.
    public var blobHashes: [Bytes32]

    /// Creates a transaction environment.
    public init(origin: Address, gasPrice: UInt256 = .zero, blobHashes: [Bytes32] = []) {
        self.origin = origin
        self.gasPrice = gasPrice
        self.blobHashes = blobHashes
    }
}

/// EIP-4844 blob gas arithmetic.
public enum BlobGas {
    /// Gas per blob (2^17).
    public static let perBlob: UInt64 = 131_072
    /// MIN_BLOB_BASE_FEE.
    public static let minBaseFee: UInt64 = 1
    // The per-fork target, maximum and update fraction are ``BlobSchedule``s (``ForkRules/blobSchedule``).

    /// EIP-4844's `fake_exponential`.
    public static func fakeExponential(factor: UInt256, numerator: UInt256, denominator: UInt256) -> UInt256 {
        var i: UInt64 = 1
        var output = UInt256.zero
        var accumulator = factor &* denominator
        while !accumulator.isZero {
            output = output &+ accumulator
            accumulator = (accumulator &* numerator).evmDiv(denominator &* UInt256(i))
            i += 1
        }
        return output.evmDiv(denominator)
    }
}

/// One fork's blob parameters, as EIP-7840 writes them in a chain config's `blobSchedule`: the target and
/// maximum blobs per block and the base fee update fraction.
public struct BlobSchedule: Sendable, Equatable, Hashable {
    /// Blobs per block the fee market aims for.
    public var target: UInt64
    /// The most blobs a block may carry.
    public var max: UInt64
    /// BLOB_BASE_FEE_UPDATE_FRACTION.
    public var baseFeeUpdateFraction: UInt64

    /// Creates a schedule entry.
    public init(target: UInt64, max: UInt64, baseFeeUpdateFraction: UInt64) {
        self.target = target
        self.max = max
        self.baseFeeUpdateFraction = baseFeeUpdateFraction
    }

    /// Cancun (EIP-4844): 3 / 6, fraction 3,338,477.
    public static let cancun = BlobSchedule(target: 3, max: 6, baseFeeUpdateFraction: 3_338_477)
    /// Prague (EIP-7691): 6 / 9, fraction 5,007,716. Osaka keeps it (its BPO forks change it).
    public static let prague = BlobSchedule(target: 6, max: 9, baseFeeUpdateFraction: 5_007_716)
    /// BPO1 (EIP-7892, mainnet's first blob-parameter-only fork): 10 / 15, fraction 8,346,193.
    public static let bpo1 = BlobSchedule(target: 10, max: 15, baseFeeUpdateFraction: 8_346_193)
    /// BPO2: 14 / 21, fraction 11,684,671.
    public static let bpo2 = BlobSchedule(target: 14, max: 21, baseFeeUpdateFraction: 11_684_671)
}
