import Chain
import EthereumContracts
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire

/// A ``ContractBackend`` on an in-process ``DevChain``: no node, no network — any contract deployed and driven in
/// this process (the "local contract simulator"). Calls, estimates and log queries go to the chain directly;
/// transactions are signed here (with the chain's dev keys, or keys given at creation) as legacy EIP-155
/// transactions, submitted, and read back from their receipts once mined. An address the chain impersonates
/// (``DevChain/impersonate(_:)``, ``DevChain/setAutoImpersonate(_:)``) sends without a key, as on anvil.
///
/// The gas limit of a transaction is the chain's estimate × 1.2 unless fixed (`deploymentGasLimit`,
/// `callGasLimit`, or the call's own limit): with an estimate, a transaction that would revert is reported
/// unsent (``RevertedBeforeSending``), as a real node's client does; with a fixed limit it is mined and fails, so
/// its gas shows. A transaction goes to the chain in one step (``DevChain/send(_:signingWith:priceAtBaseFee:)``), which
/// answers with its receipt and, when it failed, its revert data (``DevChain/revertData(transaction:)``).
public struct DevChainBackend: ContractBackend {
    /// The chain transactions go to.
    public let chain: DevChain
    /// The sender when a call or transaction names none.
    public var defaultSender: Address? { defaultSenderOverride ?? initialSender }
    private let initialSender: Address
    private var defaultSenderOverride: Address?
    /// A fixed gas limit for contract creations; nil: the estimate × 1.2.
    public var deploymentGasLimit: UInt64?
    /// A fixed gas limit for every other transaction; nil: the estimate × 1.2.
    public var callGasLimit: UInt64?
    /// The legacy gas price; nil takes the chain's suggestion (``DevChain/gasPrice()``) at each send, or the next
    /// block's base fee with ``gasPriceAtBaseFee``.
    public var gasPrice: UInt256?
    /// With no ``gasPrice``: pay the next block's base fee (zero before London), no tip, as a test bench does.
    public var gasPriceAtBaseFee = false
    /// The longest wait for a transaction to be mined, in seconds (a chain mining on an interval takes a while).
    public var miningTimeout: Double = 60
    /// Send every transaction unsigned, by impersonation, even from an account the backend has a key for (a test
    /// bench: ``DevChain/send(_:signingWith:priceAtBaseFee:unsigned:)``); the chain must impersonate the senders.
    public var sendsUnsigned = false
    private let keys: [Address: PrivateKey]

    /// A fixed deployment gas limit some set-ups use (the CarChain seed's replays): 6,700,000.
    public static let defaultDeploymentGasLimit: UInt64 = 6_700_000
    /// A fixed call gas limit some set-ups use (the CarChain seed's replays): 210,000.
    public static let defaultCallGasLimit: UInt64 = 210_000

    /// A backend signing for the chain's dev accounts and for `keys`; `defaultSender` defaults to the first of
    /// `keys`, else the chain's first dev account.
    public init(
        chain: DevChain, keys: [PrivateKey] = [], defaultSender: Address? = nil, deploymentGasLimit: UInt64? = nil,
        callGasLimit: UInt64? = nil, gasPrice: UInt256? = nil
    ) throws(DevChainBackendError) {
        var known: [Address: PrivateKey] = [:]
        for account in chain.config.devAccounts { if let key = account.privateKey { known[account.address] = key } }
        for key in keys { known[key.address] = key }
        guard let sender = defaultSender ?? keys.first?.address ?? chain.accounts.first else {
            throw .noSender
        }
        guard known[sender] != nil else { throw .unknownSender(sender) }
        self.chain = chain
        self.keys = known
        self.initialSender = sender
        self.deploymentGasLimit = deploymentGasLimit
        self.callGasLimit = callGasLimit
        self.gasPrice = gasPrice
    }

    /// True when the backend can sign for `address`.
    public func canSign(for address: Address) -> Bool { keys[address] != nil }

    public func chainID() async throws -> UInt64 { chain.chainId }

    public func call(_ request: CallRequest, at block: BlockTag) async throws -> CallOutcome {
        try await chain.untilForkFetched("eth_call", readOnly: true, call: request) {
            let result: CallResult
            do throws(ChainError) { result = try await chain.call(request, at: Self.blockID(block)) } catch { throw DevChainBackendError.chain(error) }
            return result.isSuccess ? .returned(result.output) : .reverted(result.output)
        }
    }

    public func estimateGas(_ request: CallRequest, at block: BlockTag) async throws -> GasEstimate {
        try await chain.untilForkFetched("eth_estimateGas", readOnly: true, call: request) {
            do throws(ChainError) {
                return .gas(try await chain.estimateGas(request, at: Self.blockID(block)))
            } catch {
                if case .executionReverted(let data, _) = error { return .reverted(data) }
                throw DevChainBackendError.chain(error)
            }
        }
    }

    public func logs(_ filter: EthereumWire.LogFilter) async throws -> [RPCLog] {
        let chainFilter = Chain.LogFilter(
            fromBlock: filter.fromBlock.map(Self.blockID), toBlock: filter.toBlock.map(Self.blockID), blockHash: filter.blockHash,
            addresses: filter.addresses, topics: filter.topics.map { $0 ?? [] })
        let entries: [LogEntry]
        do throws(ChainError) { entries = try await chain.logs(chainFilter) } catch { throw DevChainBackendError.chain(error) }
        return entries.map {
            RPCLog(
                address: $0.address, topics: $0.topics, data: $0.data, blockNumber: $0.blockNumber, blockHash: $0.blockHash,
                transactionHash: $0.transactionHash, transactionIndex: UInt64($0.transactionIndex), logIndex: UInt64($0.logIndex),
                removed: $0.removed)
        }
    }

    public func code(at address: Address, block: BlockTag) async throws -> [UInt8] {
        try await chain.untilForkFetched("eth_getCode", readOnly: true) {
            do throws(ChainError) { return try await chain.code(address, at: Self.blockID(block)) } catch { throw DevChainBackendError.chain(error) }
        }
    }

    /// Signs, submits and waits for the receipt. On a forked chain (``DevChain/forkCache``) the sender and recipient are
    /// read from the remote first, the estimate runs on fetched state, and a submission whose block read state not
    /// fetched yet (which the miner abandons) is made again once it is fetched (``ForkCache/untilFetched(_:readOnly:call:_:)``).
    public func send(_ request: TransactionRequest, from: Address?) async throws -> EthereumContracts.TransactionOutcome {
        guard let sender = from ?? defaultSender else { throw DevChainBackendError.noSender }
        guard chain.forkCache != nil else { return try await submit(request, from: sender) }
        let call = CallRequest(from: sender, to: request.to, value: request.value, data: request.data)
        if request.gasLimit == nil, (request.to == nil ? deploymentGasLimit : callGasLimit) == nil {
            // Fault in what the estimate reads, so the estimate inside the submission sees fetched values only.
            _ = try? await estimateGas(call, at: .pending)
        }
        return try await chain.untilForkFetched("sending a transaction", readOnly: false, call: call) {
            try await submit(request, from: sender)
        }
    }

    private func submit(_ request: TransactionRequest, from sender: Address) async throws -> EthereumContracts.TransactionOutcome {
        let key = sendsUnsigned ? nil : keys[sender]
        let fixedGasLimit = request.gasLimit ?? (request.to == nil ? deploymentGasLimit : callGasLimit)
        // Without a key, only an address the chain impersonates (anvil_impersonateAccount) can send: checked before an
        // estimate runs; with a fixed limit the chain's own refusal (unknownAccount) says it.
        if key == nil, fixedGasLimit == nil, await !chain.isImpersonated(sender) { throw DevChainBackendError.unknownSender(sender) }
        let gasLimit: UInt64
        if let fixedGasLimit { gasLimit = fixedGasLimit } else { gasLimit = try await self.gasLimit(for: request, from: sender) }
        // One step on the chain: nonce, price, signature (or impersonation), pool, automine, receipt and revert data.
        let sent: DevChain.SentTransaction
        do throws(ChainError) {
            sent = try await chain.send(
                CallRequest(from: sender, to: request.to, gas: gasLimit, gasPrice: gasPrice, value: request.value, data: request.data),
                signingWith: key, priceAtBaseFee: gasPriceAtBaseFee, unsigned: sendsUnsigned)
        } catch {
            if key == nil, case .unknownAccount(sender) = error { throw DevChainBackendError.unknownSender(sender) }
            throw DevChainBackendError.chain(error)
        }
        let receipt: Receipt
        if let mined = sent.receipt { receipt = mined } else { receipt = try await minedReceipt(sent.hash) }
        var revertData = sent.revertData
        if !receipt.status, revertData == nil {
            revertData = try? await chain.revertData(transaction: sent.hash)
        }
        let hash = sent.hash
        return EthereumContracts.TransactionOutcome(
            succeeded: receipt.status, transactionHash: hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed,
            effectiveGasPrice: receipt.effectiveGasPrice,
            logs: receipt.logs.map { TransactionLog(address: $0.address, topics: $0.topics, data: $0.data) },
            revertData: revertData, contractAddress: receipt.status ? receipt.contractAddress : nil)
    }

    /// The request's own limit, the fixed one for its kind, or the estimate × 1.2 (at most the block gas limit).
    private func gasLimit(for request: TransactionRequest, from sender: Address) async throws -> UInt64 {
        if let fixed = request.gasLimit ?? (request.to == nil ? deploymentGasLimit : callGasLimit) { return fixed }
        let call = CallRequest(from: sender, to: request.to, value: request.value, data: request.data)
        do throws(ChainError) {
            let estimate = try await chain.estimateGas(call)
            let padded = estimate.multipliedReportingOverflow(by: 6)
            let limit = padded.overflow ? UInt64.max : padded.partialValue / 5
            return Swift.max(estimate, Swift.min(limit, await chain.pendingGasLimit()))
        } catch {
            if case .executionReverted(let data, let reason) = error {
                throw RevertedBeforeSending(data: data, message: "execution reverted" + (reason.map { ": \($0)" } ?? ""))
            }
            throw DevChainBackendError.chain(error)
        }
    }

    /// The receipt of `hash`, waiting while the chain mines on an interval.
    private func minedReceipt(_ hash: Bytes32) async throws -> Receipt {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(Swift.max(0, Swift.min(miningTimeout, 86_400)) * 1000))
        while true {
            do throws(ChainError) {
                if let receipt = try await chain.receipt(hash: hash) { return receipt }
            } catch {
                throw DevChainBackendError.chain(error)
            }
            guard clock.now < deadline else { throw DevChainBackendError.notMined(hash, seconds: miningTimeout) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The chain's block id for a JSON-RPC block tag.
    static func blockID(_ tag: BlockTag) -> BlockID {
        switch tag {
        case .latest: return .latest
        case .pending: return .pending
        case .earliest: return .earliest
        case .safe: return .safe
        case .finalized: return .finalized
        case .number(let n): return .number(n)
        }
    }
}

/// Why a ``DevChainBackend`` could not call or send.
public enum DevChainBackendError: Error, Sendable, CustomStringConvertible {
    /// No key was given and the chain has no dev account to send from.
    case noSender
    /// The backend holds no key for this sender.
    case unknownSender(Address)
    /// The transaction was accepted but no block included it in time.
    case notMined(Bytes32, seconds: Double)
    /// The chain refused the call or transaction.
    case chain(ChainError)

    public var description: String {
        switch self {
        case .noSender: return "the dev chain backend has no account to send from"
        case .unknownSender(let address): return "the dev chain backend holds no key for \(address.checksummed)"
        case .notMined(let hash, let seconds): return "transaction \(hash) was not mined within \(Int(seconds)) s"
        case .chain(let error): return "dev chain: \(error)"
        }
    }
}

extension DevChainBackend {
    /// A backend on a new deterministic chain in memory (the test mnemonic's funded dev accounts, automining), for
    /// tests and examples that need no `Chain` import: `backend.chain` is the chain, to close or to drive further.
    public static func ephemeral(hardfork: Hardfork? = nil) async throws -> DevChainBackend {
        var config = ChainConfig.deterministic()
        if let hardfork { config.hardfork = hardfork }
        let chain: DevChain
        do throws(ChainError) { chain = try await DevChain(config: config, storage: .memory) } catch { throw DevChainBackendError.chain(error) }
        return try DevChainBackend(chain: chain)
    }

    /// A backend on the same chain sending as `sender` by default (one of the dev accounts, or a key given at creation).
    public func sending(as sender: Address) throws(DevChainBackendError) -> DevChainBackend {
        guard keys[sender] != nil else { throw .unknownSender(sender) }
        var copy = self
        copy.defaultSenderOverride = sender
        return copy
    }
}

extension DevChainBackend: LogStreamingBackend {
    /// Follows the chain's new heads (``DevChain/newHeads()``) and reads each new block's matching logs; a block
    /// number seen again with another hash (after `evm_revert`, or a reset) is read again (see ``LogFollower``).
    public func logStream(_ filter: EthereumWire.LogFilter, options: EventStreamOptions) -> AsyncThrowingStream<RPCLog, any Error> {
        let chain = self.chain
        let backend = self
        let depth = options.confirmations - 1
        let (stream, continuation) = AsyncThrowingStream<RPCLog, any Error>.makeStream()
        let task = Task {
            do {
                // The cursor starts at the head before subscribing, so nothing mined meanwhile is missed.
                let before = await chain.blockNumber()
                var follower = LogFollower(filter: filter, fromBlock: options.fromBlock ?? (before == .max ? before : before + 1))
                let heads = await chain.newHeads()
                let deliver: (RPCLog) async throws -> Bool = { log in
                    if case .terminated = continuation.yield(log) { return false }
                    return true
                }
                let head = await chain.blockNumber()
                // Blocks mined between the two reads may come as notifications too: remembered, they are not read twice.
                if head > before {
                    for number in (before + 1)...head {
                        if let block = try? await chain.block(.number(number)) { follower.head(block.number, hash: block.hash) }
                    }
                }
                if head >= depth, try await !follower.fill(through: head - depth, getLogs: { try await backend.logs($0) }, deliver: deliver) { return }
                for await block in heads {
                    guard follower.head(block.number, hash: block.hash, unknownIsNew: true), block.number >= depth else { continue }
                    if try await !follower.fill(through: block.number - depth, getLogs: { try await backend.logs($0) }, deliver: deliver) { return }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
