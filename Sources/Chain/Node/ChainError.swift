import EthereumPrimitives

/// Why a dev-chain operation failed. Each case carries a JSON-RPC error code (``rpcCode``): -32000
/// for rejected transactions and failed calls (as geth), 3 for reverted calls with their data,
/// -32602 for bad parameters, -32603 for internal (storage) failures.
public enum ChainError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a transaction (or not a valid signature).
    case invalidTransaction(String)
    /// The transaction is signed for another chain (EIP-155 / typed chain id), or unprotected.
    case wrongChainId(expected: UInt64, got: UInt64?)
    /// The transaction is not valid against the pending state (nonce, funds, fees, gas).
    case rejected(String)
    /// The pool already holds this transaction.
    case alreadyKnown(Bytes32)
    /// A transaction with the same sender and nonce is pending with a fee at least as high.
    case replacementUnderpriced
    /// `eth_sendTransaction` from an account the chain holds no key for.
    case unknownAccount(Address)
    /// No such block.
    case unknownBlock(String)
    /// No such transaction.
    case unknownTransaction(Bytes32)
    /// The call reverted; `data` is the revert data and `reason` its decoded `Error(string)` /
    /// `Panic(uint256)`, if any.
    case executionReverted(data: [UInt8], reason: String?)
    /// The call halted exceptionally (out of gas, invalid opcode, …) or could not start.
    case executionFailed(String)
    /// `eth_estimateGas` found no gas limit up to the cap under which the call succeeds.
    case gasRequiredExceedsAllowance(UInt64)
    /// A call or trace ran past its time limit (``CallLimits/timeout``) and was stopped.
    case executionTimeout(Duration)
    /// The pool holds its maximum of pending transactions (``ChainConfig/maxPendingTransactions``).
    case poolFull(limit: Int)
    /// The chain holds its maximum of snapshots (``ChainConfig/maxSnapshots``).
    case tooManySnapshots(limit: Int)
    /// A trace grew past its size limit; the reason says which and how to ask for less.
    case traceTooLarge(String)
    /// A parameter is out of range.
    case invalidParams(String)
    /// The requested timestamp is not after the head's.
    case timestampTooLow(requested: UInt64, head: UInt64)
    /// The database on disk is inconsistent, or a SQLite operation failed.
    case storage(String)
    /// On open, the state rebuilt from disk does not have the head block's state root.
    case stateRootMismatch(block: UInt64, expected: Bytes32, computed: Bytes32)
    /// Another process holds the data directory's lock.
    case dataDirectoryLocked(path: String, pid: Int32, url: String?)
    /// The data directory was created with another chain id or fork.
    case configMismatch(String)
    /// An imported block broke a rule: its number (nil when it did not decode; then `index` is its position in
    /// the file) and the rule.
    case invalidBlock(number: UInt64?, index: Int?, reason: String)
    /// A forked chain could not read its remote (Fork/ForkRemote.swift).
    case fork(ForkError)

    /// The JSON-RPC error code.
    public var rpcCode: Int {
        switch self {
        case .executionReverted: return 3
        case .invalidParams: return -32602
        case .storage, .stateRootMismatch, .dataDirectoryLocked, .configMismatch: return -32603
        default: return -32000
        }
    }

    /// The JSON-RPC `data` member: the revert data of a reverted call.
    public var rpcData: [UInt8]? {
        if case .executionReverted(let data, _) = self { return data }
        return nil
    }

    public var description: String {
        switch self {
        case .invalidTransaction(let why): return "invalid transaction: \(why)"
        case .wrongChainId(let expected, let got):
            guard let got else {
                return "invalid chain id: transaction is not replay-protected (EIP-155); this chain's id is \(expected)"
            }
            return "invalid chain id: transaction is signed for chain \(got), this chain's id is \(expected)"
        case .rejected(let why): return why
        case .alreadyKnown: return "already known"
        case .replacementUnderpriced: return "replacement transaction underpriced"
        case .unknownAccount(let address): return "unknown account \(address): the node holds no key for it"
        case .unknownBlock(let what): return "header not found: \(what)"
        case .fork(let error): return error.description
        case .invalidBlock(let number, let index, let reason):
            if let number { return "invalid block \(number): \(reason)" }
            return "invalid block at position \((index ?? 0) + 1) in the file: \(reason)"
        case .unknownTransaction(let hash): return "transaction \(hash) not found"
        case .executionReverted(_, let reason):
            return reason.map { "execution reverted: \($0)" } ?? "execution reverted"
        case .executionFailed(let why): return why
        case .gasRequiredExceedsAllowance(let cap): return "gas required exceeds allowance (\(cap))"
        case .executionTimeout(let limit): return "execution aborted (timeout = \(CallLimits.describe(limit)))"
        case .poolFull(let limit): return "txpool is full (\(limit) pending transactions; mine some first)"
        case .tooManySnapshots(let limit):
            return "too many snapshots (\(limit) kept); revert to one (evm_revert) to free it and every later one"
        case .traceTooLarge(let why): return "trace too large: \(why)"
        case .invalidParams(let why): return "invalid params: \(why)"
        case .timestampTooLow(let requested, let head):
            return "timestamp \(requested) is not after the latest block's timestamp \(head)"
        case .storage(let why): return "chain storage: \(why)"
        case .stateRootMismatch(let block, let expected, let computed):
            return "state at block \(block) does not match its header: state root \(computed), header says \(expected)"
        case .dataDirectoryLocked(let path, let pid, let url):
            return "data directory \(path) is in use by process \(pid)" + (url.map { " (\($0))" } ?? "")
        case .configMismatch(let why): return "data directory was created with another configuration: \(why)"
        }
    }
}
