import EVM
import EthereumABI
import EthereumPrimitives
import EthereumTransactions

/// What a call (`eth_call`) produced. A revert or exceptional halt is a result, not an error, so
/// callers can see the gas and data; ``error`` gives the JSON-RPC error to report for it.
public struct CallResult: Sendable {
    /// How the outermost frame ended.
    public var status: Status
    /// Return data, or revert data.
    public var output: [UInt8]
    /// Gas used, including intrinsic gas, after the refund.
    public var gasUsed: UInt64
    /// Logs the call emitted (discarded with the state).
    public var logs: [Log]
    /// The address a creation made.
    public var createdAddress: Address?

    /// True when the call succeeded.
    public var isSuccess: Bool { status.isSuccess }

    /// Nil on success; ``ChainError/executionReverted(data:reason:)`` on REVERT (code 3, with the
    /// data); ``ChainError/executionFailed(_:)`` on an exceptional halt.
    public var error: ChainError? {
        if isSuccess { return nil }
        if status == .reverted { return .executionReverted(data: output, reason: Self.reason(output)) }
        return .executionFailed(status.errorDescription ?? "execution failed")
    }

    /// The text a node adds to "execution reverted": the `Error(string)` message, or the `Panic(uint256)`
    /// code and meaning (decoded by EthereumABI's ``RevertReason``); nil for empty or other data.
    static func reason(_ data: [UInt8]) -> String? {
        switch RevertReason(data: data) {
        case .error(let message): return message
        case .panic(let code): return "panic \(code)"
        case .empty, .custom, .unrecognized: return nil
        }
    }
}

/// The result of `eth_createAccessList`.
public struct AccessListResult: Sendable {
    /// The accounts and slots the call touches (sender, recipient and precompiles only when they
    /// have storage slots in the list, as geth).
    public var accessList: AccessList
    /// The gas the call uses with that access list.
    public var gasUsed: UInt64
    /// Set when the call fails with that access list.
    public var error: ChainError?
}

/// A struct-log trace of a mined transaction (`debug_traceTransaction` with the default tracer).
public struct StructLogTrace: Sendable, Equatable {
    /// Gas used by the transaction.
    public var gas: UInt64
    /// True when the transaction failed.
    public var failed: Bool
    /// Return data (or revert data).
    public var returnValue: [UInt8]
    /// One entry per executed instruction.
    public var structLogs: [StructLog]
}

/// `eth_feeHistory`'s answer.
public struct FeeHistory: Sendable, Equatable {
    /// The first block of the range.
    public var oldestBlock: UInt64
    /// Base fee per block, plus the one after the newest (count + 1 entries).
    public var baseFeePerGas: [UInt256]
    /// gasUsed / gasLimit per block.
    public var gasUsedRatio: [Double]
    /// Blob base fee per block plus the next (zeros before Cancun).
    public var baseFeePerBlobGas: [UInt256]
    /// blobGasUsed / max blob gas per block.
    public var blobGasUsedRatio: [Double]
    /// Priority fees at the requested percentiles, per block (nil when none were asked for).
    public var reward: [[UInt256]]?
}

/// An `eth_getLogs` filter.
public struct LogFilter: Sendable, Hashable {
    /// First block (default latest); ignored with ``blockHash``.
    public var fromBlock: BlockID?
    /// Last block (default latest); ignored with ``blockHash``.
    public var toBlock: BlockID?
    /// One block by hash (EIP-234).
    public var blockHash: Bytes32?
    /// Emitting contracts (empty: any).
    public var addresses: [Address]
    /// Per position, the topics allowed there (empty list: any). A log matches only when it has at least as many
    /// topics as the filter has positions, wildcards included (geth's `filterLogs`: `[null, null, null]` matches
    /// logs with three or four topics).
    public var topics: [[Bytes32]]

    /// Creates a filter.
    public init(
        fromBlock: BlockID? = nil, toBlock: BlockID? = nil, blockHash: Bytes32? = nil, addresses: [Address] = [],
        topics: [[Bytes32]] = []
    ) {
        self.fromBlock = fromBlock
        self.toBlock = toBlock
        self.blockHash = blockHash
        self.addresses = addresses
        self.topics = topics
    }

    /// True when `log` passes the address and topic constraints.
    public func matches(_ log: Log) -> Bool {
        if !addresses.isEmpty && !addresses.contains(log.address) { return false }
        if topics.count > log.topics.count { return false }
        for (position, allowed) in topics.enumerated() where !allowed.isEmpty {
            guard allowed.contains(log.topics[position]) else { return false }
        }
        return true
    }
}
