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

    /// Creates a block environment; unspecified fields are zero and the chain id is 1.
    public init(
        coinbase: Address = .zero, number: UInt64 = 0, timestamp: UInt64 = 0, gasLimit: UInt64 = 30_000_000,
        difficulty: UInt256 = .zero, prevRandao: Bytes32 = .zero, baseFee: UInt256 = .zero,
        excessBlobGas: UInt64 = 0, chainID: UInt256 = .one
    ) {
        self.coinbase = coinbase
        self.number = number
        self.timestamp = timestamp
        self.gasLimit = gasLimit
        self.difficulty = difficulty
        self.prevRandao = prevRandao
        self.baseFee = baseFee
        self.excessBlobGas = excessBlobGas
        self.chainID = chainID
    }

    /// BLOBBASEFEE: the blob gas price derived from the excess blob gas (EIP-4844's
    /// `fake_exponential(MIN_BLOB_BASE_FEE, excess, BLOB_BASE_FEE_UPDATE_FRACTION)`).
    public var blobBaseFee: UInt256 {
        BlobGas.baseFee(excessBlobGas: excessBlobGas)
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
    /// The blob limit per block in Cancun (6), and the target (3).
    public static let maxBlobsPerBlock = 6
    /// MIN_BLOB_BASE_FEE.
    public static let minBaseFee: UInt64 = 1
    /// BLOB_BASE_FEE_UPDATE_FRACTION (Cancun).
    public static let updateFraction: UInt64 = 3_338_477

    /// `fake_exponential(1, excess, 3338477)`: the integer approximation of e^(excess / fraction)
    /// defined in EIP-4844.
    public static func baseFee(excessBlobGas: UInt64) -> UInt256 {
        fakeExponential(factor: UInt256(minBaseFee), numerator: UInt256(excessBlobGas), denominator: UInt256(updateFraction))
    }

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
