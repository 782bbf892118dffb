import EVM
import EthereumPrimitives
import EthereumTransactions

/// An `eth_simulateV1` request, decoded: blocks of calls to run on a base block, each block with optional
/// header and state overrides (execution-apis `eth_simulateV1`, geth's `simOpts`).
public struct SimulationRequest: Sendable, Equatable {
    /// The blocks to simulate, in order (at least one, at most ``SimulationLimits/maxBlocks``).
    public var blocks: [SimulatedBlockRequest]
    /// Report every ETH transfer (call and create values, self-destructed balances) as an ERC-7528 log.
    public var traceTransfers: Bool
    /// Check the calls as real transactions (nonces, base fee, fee caps) instead of as free `eth_call`s.
    public var validation: Bool

    /// Creates a request.
    public init(blocks: [SimulatedBlockRequest], traceTransfers: Bool = false, validation: Bool = false) {
        self.blocks = blocks
        self.traceTransfers = traceTransfers
        self.validation = validation
    }
}

/// One simulated block of a request: what to change in its header and state, and the calls it holds.
public struct SimulatedBlockRequest: Sendable, Equatable {
    /// Header fields to set.
    public var overrides: BlockOverrides
    /// Accounts to change before the block's calls run.
    public var stateOverrides: StateOverrides
    /// The calls, run in order as the block's transactions.
    public var calls: [SimulatedCall]

    /// Creates a block request.
    public init(overrides: BlockOverrides = BlockOverrides(), stateOverrides: StateOverrides = [:], calls: [SimulatedCall] = []) {
        self.overrides = overrides
        self.stateOverrides = stateOverrides
        self.calls = calls
    }
}

/// A call of a simulated block: a transaction without a signature.
public struct SimulatedCall: Sendable, Equatable {
    /// The transaction fields (a missing `from` is the zero address, a missing nonce the sender's, a missing
    /// gas what the block has left).
    public var request: CallRequest
    /// The chain id the call names; it must be the chain's.
    public var chainID: UInt256?

    /// Creates a call.
    public init(_ request: CallRequest, chainID: UInt256? = nil) {
        self.request = request
        self.chainID = chainID
    }
}

/// The header fields a simulated block may set (geth's `BlockOverrides`); unset fields follow the parent.
public struct BlockOverrides: Sendable, Equatable {
    /// The block number; a gap after the previous block is filled with empty blocks.
    public var number: UInt64?
    /// The timestamp (default: the previous block's + 12).
    public var time: UInt64?
    /// The gas limit (default: the parent's).
    public var gasLimit: UInt64?
    /// The coinbase (default: the parent's).
    public var feeRecipient: Address?
    /// PREVRANDAO, the header's mix hash (default zero).
    public var prevRandao: Bytes32?
    /// The base fee (default: zero, or with validation the EIP-1559 successor of the parent's).
    public var baseFeePerGas: UInt256?
    /// BLOBBASEFEE as calls see it (the header keeps the excess blob gas derived from the parent).
    public var blobBaseFee: UInt256?
    /// The parent beacon block root (EIP-4788; default zero).
    public var beaconRoot: Bytes32?
    /// The difficulty (only before the merge).
    public var difficulty: UInt256?
    /// Withdrawals credited at the end of the block (EIP-4895; default none).
    public var withdrawals: [Withdrawal]?

    /// No overrides.
    public init(
        number: UInt64? = nil, time: UInt64? = nil, gasLimit: UInt64? = nil, feeRecipient: Address? = nil,
        prevRandao: Bytes32? = nil, baseFeePerGas: UInt256? = nil, blobBaseFee: UInt256? = nil, beaconRoot: Bytes32? = nil,
        difficulty: UInt256? = nil, withdrawals: [Withdrawal]? = nil
    ) {
        self.number = number
        self.time = time
        self.gasLimit = gasLimit
        self.feeRecipient = feeRecipient
        self.prevRandao = prevRandao
        self.baseFeePerGas = baseFeePerGas
        self.blobBaseFee = blobBaseFee
        self.beaconRoot = beaconRoot
        self.difficulty = difficulty
        self.withdrawals = withdrawals
    }
}

/// Changes to accounts before a simulated block runs (applied in address order, as geth does).
public typealias StateOverrides = [Address: AccountOverride]

/// What to change in one account (geth's `OverrideAccount`): `state` replaces the whole storage, `stateDiff`
/// writes the given slots; a precompile can be moved to another address (and its own address then runs code).
public struct AccountOverride: Sendable, Equatable {
    /// The nonce.
    public var nonce: UInt64?
    /// The code.
    public var code: [UInt8]?
    /// The balance.
    public var balance: UInt256?
    /// The whole storage (every other slot reads zero).
    public var state: [UInt256: UInt256]?
    /// Slots to write.
    public var stateDiff: [UInt256: UInt256]?
    /// Where this precompile moves to (the account must be a precompile).
    public var movePrecompileToAddress: Address?

    /// No change.
    public init(
        nonce: UInt64? = nil, code: [UInt8]? = nil, balance: UInt256? = nil, state: [UInt256: UInt256]? = nil,
        stateDiff: [UInt256: UInt256]? = nil, movePrecompileToAddress: Address? = nil
    ) {
        self.nonce = nonce
        self.code = code
        self.balance = balance
        self.state = state
        self.stateDiff = stateDiff
        self.movePrecompileToAddress = movePrecompileToAddress
    }
}
