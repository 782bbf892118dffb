import EVM
import EthereumPrimitives
import EthereumTransactions

/// One block `eth_simulateV1` built: a block as a node would have mined it (header, hash, the calls as unsigned
/// transactions with their senders, withdrawals) and what each call did.
public struct SimulatedBlock: Sendable {
    /// The block, with the withdrawals credited at its end (Shanghai and later).
    public var block: Block
    /// Each call's result, in order.
    public var calls: [SimulatedCallResult]

    /// The block's hash.
    public var hash: Bytes32 { block.hash }
}

/// What one call of a simulated block did.
public struct SimulatedCallResult: Sendable, Equatable {
    /// True when it succeeded (receipt status 1).
    public var status: Bool
    /// Its return data, or its revert data.
    public var returnData: [UInt8]
    /// Gas used after the refund, as its receipt counts it.
    public var gasUsed: UInt64
    /// The most gas it had in use at once (before the refund): a gas limit this high lets it succeed alike.
    public var maxUsedGas: UInt64
    /// Its logs (with `traceTransfers`, its ETH transfers too), placed in the block.
    public var logs: [LogEntry]
    /// Why it failed: a revert (code 3, with the data) or a halt (-32015); nil on success.
    public var error: SimulatedCallError?
}

/// The error object of a failed simulated call.
public struct SimulatedCallError: Sendable, Equatable {
    /// 3 for a revert, -32015 for any other failure (out of gas, invalid opcode, …).
    public var code: Int
    /// geth's words: "execution reverted[: reason]", or the halt ("out of gas", …).
    public var message: String
    /// The revert data (nil for a halt).
    public var data: [UInt8]?

    /// geth's `errCodeVMError`: the EVM halted.
    public static let vmErrorCode = -32015
}
