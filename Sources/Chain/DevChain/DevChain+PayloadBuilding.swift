import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie

/// `testing_buildBlockV1`: a block built on the head from given payload attributes and transactions, returned
/// and not inserted (geth's testing API, `miner.BuildTestingPayload`).
extension DevChain {
    /// The Engine API's payload attributes.
    public struct PayloadAttributes: Sendable, Equatable {
        public var timestamp: UInt64
        public var prevRandao: Bytes32
        public var feeRecipient: Address
        /// From Shanghai; nil before.
        public var withdrawals: [Withdrawal]?
        /// From Cancun; nil before.
        public var parentBeaconBlockRoot: Bytes32?

        public init(
            timestamp: UInt64, prevRandao: Bytes32, feeRecipient: Address, withdrawals: [Withdrawal]?,
            parentBeaconBlockRoot: Bytes32?
        ) {
            self.timestamp = timestamp
            self.prevRandao = prevRandao
            self.feeRecipient = feeRecipient
            self.withdrawals = withdrawals
            self.parentBeaconBlockRoot = parentBeaconBlockRoot
        }
    }

    /// A built, uninserted block with what the Engine API's envelope reports besides it.
    public struct BuiltPayload: Sendable {
        public var block: Block
        /// The withdrawals applied (nil before Shanghai).
        public var withdrawals: [Withdrawal]?
        /// The fee recipient's earnings: each transaction's tip per gas times its gas used.
        public var blockValue: UInt256
        /// The EIP-7685 requests, typed and without empty ones (nil before Prague).
        public var requests: [[UInt8]]?
        /// The fork the block was built under.
        public var fork: Hardfork
    }

    /// geth's `core.CalcGasLimit`: from the parent's limit one step (parent/1024 − 1) toward `desired`.
    static func nextGasLimit(parent: UInt64, desired: UInt64) -> UInt64 {
        let delta = parent / 1024 &- 1
        let target = Swift.max(desired, 5000)
        if parent < target { return Swift.min(parent &+ Swift.min(delta, UInt64.max - parent), target) }
        if parent > target { return Swift.max(parent - Swift.min(delta, parent), target) }
        return parent
    }

    /// Builds the block after `parentHash` (which must be the head, as geth requires) from `attributes` with
    /// `transactions` in order (every one must apply, or nothing is built), or with none when the list is empty,
    /// or with the pool's best when `transactions` is nil (the pool is not changed). The chain is not changed.
    /// The gas limit moves toward the chain's configured gas limit as geth's moves toward its miner gas ceiling.
    public func buildPayload(
        parentHash: Bytes32, attributes: PayloadAttributes, transactions: [SignedTransaction]?, extraData: [UInt8]
    ) throws(ChainError) -> BuiltPayload {
        guard parentHash == headHash else { throw .executionFailed("parentHash is not current head") }
        guard attributes.timestamp > head.timestamp else {
            throw .executionFailed("invalid timestamp: \(attributes.timestamp) is not after the parent's \(head.timestamp)")
        }
        let number = head.number + 1
        let fork = fork(number: number, timestamp: attributes.timestamp)
        if fork >= .shanghai && attributes.withdrawals == nil { throw .invalidParams("missing withdrawals") }
        if fork >= .cancun && attributes.parentBeaconBlockRoot == nil { throw .invalidParams("missing beacon root") }
        let baseFee = fork >= .london ? FeeMarket.nextBaseFee(parent: head, initialBaseFee: config.initialBaseFee) : nil
        let env = BlockEnvironment(
            coinbase: attributes.feeRecipient, number: number, timestamp: attributes.timestamp,
            gasLimit: Self.nextGasLimit(parent: head.gasLimit, desired: config.gasLimit), difficulty: .zero,
            prevRandao: attributes.prevRandao, baseFee: baseFee ?? .zero,
            excessBlobGas: fork >= .cancun ? nextExcessBlobGas(after: head, fork: fork) : 0,
            chainID: UInt256(chainId), blobSchedule: blobSchedule(for: fork))
        let assembled = try assembleBlock(
            environment: env, fork: fork, baseFee: baseFee,
            beaconRoot: fork >= .cancun ? attributes.parentBeaconBlockRoot : nil,
            withdrawals: fork >= .shanghai ? attributes.withdrawals ?? [] : nil, extraData: extraData,
            transactions: transactions)
        return BuiltPayload(
            block: assembled.block, withdrawals: assembled.block.withdrawals, blockValue: assembled.blockValue,
            requests: assembled.requests, fork: fork)
    }

    /// A block assembled on the head and not inserted (``assembleBlock(environment:fork:baseFee:beaconRoot:withdrawals:extraData:transactions:)``):
    /// `testing_buildBlockV1`'s payload, and the pending block.
    struct AssembledBlock {
        var block: Block
        /// The receipts' stored parts and the logs with their transaction indexes, as a mined block keeps them.
        var receipts: [StoredReceipt]
        var logs: [(transactionIndex: Int, log: Log)]
        /// The state after the block.
        var state: WorldState
        /// The fee recipient's earnings: each transaction's tip per gas times its gas used.
        var blockValue: UInt256
        /// The EIP-7685 requests (nil before Prague).
        var requests: [[UInt8]]?
    }

    /// Assembles the block after the head in `env` on a copy of the live state: the start-of-block system calls,
    /// `transactions` in order (every one must apply, or nothing is built) or, when nil, the pool's best in the order
    /// the miner takes them (one that does not apply is left out; the pool is not changed), the withdrawals and the
    /// end-of-block requests; then the header with every root. Nothing of the chain changes.
    func assembleBlock(
        environment env: BlockEnvironment, fork: Hardfork, baseFee: UInt256?, beaconRoot: Bytes32?,
        withdrawals: [Withdrawal]?, extraData: [UInt8], transactions: [SignedTransaction]?
    ) throws(ChainError) -> AssembledBlock {
        let rules = ForkRules(fork)
        var state = working
        state.blockHashes = blockHashFunction(upTo: head.number)
        SystemCalls.beginBlock(parentHash: headHash, parentBeaconBlockRoot: beaconRoot, in: &state, block: env, fork: fork)

        var included: [SignedTransaction] = []
        var senders: [Address] = []
        var outcomes: [TransactionOutcome] = []
        var gasUsed: UInt64 = 0
        var blobGasUsed: UInt64 = 0
        let maxBlobGas = blobSchedule(for: fork).max.multipliedReportingOverflow(by: BlobGas.perBlob).partialValue
        var noTracer = NoTracer()
        func apply(_ signed: SignedTransaction, sender: Address) throws(TransactionValidationError) {
            let outcome = try TransactionExecutor.execute(
                ExecutableTransaction(signed, sender: sender), in: &state, block: env, fork: fork,
                blockGasAvailable: env.gasLimit - gasUsed, tracer: &noTracer, buffers: buffers)
            state.finalize(rules: rules)
            gasUsed += outcome.gasUsed
            blobGasUsed += signed.transaction.blobGas
            included.append(signed)
            senders.append(sender)
            outcomes.append(outcome)
        }
        if let transactions {
            for signed in transactions {
                let sender: Address
                do { sender = try signed.validate(for: fork, chainID: chainId) } catch {
                    throw .invalidTransaction(error.description)
                }
                if signed.transaction.blobGas > 0 && blobGasUsed + signed.transaction.blobGas > maxBlobGas {
                    throw .rejected("blob gas limit reached: the block holds at most \(maxBlobGas)")
                }
                do { try apply(signed, sender: sender) } catch { throw .rejected(error.description) }
            }
        } else {
            var candidates = pool
            var skipped: Set<Bytes32> = []
            while let candidate = candidates.best(nonce: { state.nonce(of: $0) }, baseFee: baseFee, skipping: skipped) {
                let blobGas = candidate.signed.transaction.blobGas
                if blobGas > 0 && blobGasUsed + blobGas > maxBlobGas {
                    skipped.insert(candidate.signed.hash)
                    continue
                }
                do { try apply(candidate.signed, sender: candidate.sender) } catch { skipped.insert(candidate.signed.hash) }
                candidates.remove(candidate.signed.hash)
            }
        }
        if let withdrawals { BlockProcessor.applyWithdrawals(withdrawals, in: &state, fork: fork) }
        var requests: [[UInt8]]?
        if fork >= .prague {
            do {
                requests = try ExecutionRequests.collect(
                    logs: outcomes.flatMap(\.logs), depositContract: schedule.depositContract, in: &state,
                    block: env, fork: fork)
            } catch {
                throw .executionFailed("cannot finish block \(env.number): \(error)")
            }
        }

        var tries = committed
        _ = tries.apply(state.takeChanges(), from: state.state)
        var cumulative: UInt64 = 0
        var bloom = Bloom()
        var receiptEncodings: [[UInt8]] = []
        var stored: [StoredReceipt] = []
        var logs: [(transactionIndex: Int, log: Log)] = []
        var blockValue = UInt256.zero
        for (i, outcome) in outcomes.enumerated() {
            cumulative += outcome.gasUsed
            let txBloom = Bloom(logs: outcome.logs)
            bloom.formUnion(txBloom)
            let tx = included[i].transaction
            receiptEncodings.append(
                Receipt.consensusEncoding(
                    type: tx.type, status: outcome.isSuccess, root: nil, cumulativeGasUsed: cumulative, bloom: txBloom,
                    logs: outcome.logs))
            stored.append(
                StoredReceipt(
                    status: outcome.isSuccess, cumulativeGasUsed: cumulative, gasUsed: outcome.gasUsed,
                    effectiveGasPrice: outcome.effectiveGasPrice,
                    contractAddress: tx.to == nil ? ContractAddress.create(sender: senders[i], nonce: tx.nonce) : nil,
                    root: nil))
            for log in outcome.logs { logs.append((i, log)) }
            let tip = outcome.effectiveGasPrice > env.baseFee ? outcome.effectiveGasPrice &- env.baseFee : .zero
            blockValue = blockValue &+ tip &* UInt256(outcome.gasUsed)
        }
        let header = BlockHeader(
            parentHash: headHash, coinbase: env.coinbase, stateRoot: tries.stateRoot,
            transactionsRoot: MerklePatriciaTrie.root(ofList: included.map(\.encoded)),
            receiptsRoot: MerklePatriciaTrie.root(ofList: receiptEncodings), logsBloom: bloom, difficulty: env.difficulty,
            number: env.number, gasLimit: env.gasLimit, gasUsed: gasUsed, timestamp: env.timestamp, extraData: extraData,
            mixHash: env.prevRandao, nonce: 0, baseFeePerGas: baseFee,
            withdrawalsRoot: withdrawals.map { MerklePatriciaTrie.root(ofList: $0.map { RLP.encode($0.rlp) }) },
            blobGasUsed: fork >= .cancun ? blobGasUsed : nil, excessBlobGas: fork >= .cancun ? env.excessBlobGas : nil,
            parentBeaconBlockRoot: beaconRoot, requestsHash: requests.map(ExecutionRequests.hash))
        return AssembledBlock(
            block: Block(header: header, transactions: included, senders: senders, withdrawals: withdrawals),
            receipts: stored, logs: logs, state: state.state, blockValue: blockValue, requests: requests)
    }
}
