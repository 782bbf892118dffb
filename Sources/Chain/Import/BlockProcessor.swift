import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie

/// What applying a valid block produced: the per-transaction results a chain stores as receipts, and the
/// totals and commitments the header was checked against.
public struct ProcessedBlock: Sendable {
    /// The recovered sender of each transaction.
    public var senders: [Address]
    /// Each transaction's outcome (gas used, status, logs, created contract).
    public var outcomes: [TransactionOutcome]
    /// The consensus encoding of each receipt (EIP-2718), as the receipts trie holds them.
    public var receiptEncodings: [[UInt8]]
    /// Gas used by the transactions.
    public var gasUsed: UInt64
    /// Blob gas used by the transactions.
    public var blobGasUsed: UInt64
    /// The union of the receipts' blooms.
    public var logsBloom: Bloom
    /// The EIP-7685 requests (nil before Prague).
    public var requests: [[UInt8]]?
    /// Before Byzantium, each receipt's intermediate state root (the state after its transaction, EIP-658
    /// replaced it by a status); empty from Byzantium.
    public var intermediateRoots: [Bytes32] = []
}

/// The chain's one block-processing path (execution-specs' `state_transition`, geth's `StateProcessor`):
/// checks a block's header against its parent, runs the start-of-block system calls, executes the
/// transactions with ``TransactionExecutor``, credits the withdrawals, collects the EIP-7685 requests and
/// checks every commitment of the header (gas used, blob gas used, transactions, receipts, withdrawals
/// roots, logs bloom, requests hash, state root). A broken rule throws a ``BlockValidationError`` that
/// names it.
///
/// The state is a ``JournaledState`` that the caller owns; after an error its contents are unspecified and
/// the caller drops them (``process(_:parent:parentHash:fork:state:blockHashes:)`` does that on a copy).
public struct BlockProcessor: Sendable {
    /// The chain id transactions must carry (EIP-155 and typed envelopes) and CHAINID returns.
    public var chainID: UInt64
    /// Where deposit logs come from (EIP-6110's DEPOSIT_CONTRACT_ADDRESS of the chain).
    public var depositContract: Address
    /// The base fee of the first London block.
    public var initialBaseFee: UInt256
    /// Blob parameters that replace a fork's own (a chain config's `blobSchedule`, EIP-7840).
    public var blobSchedules: [Hardfork: BlobSchedule]

    /// Creates a processor for a chain.
    public init(
        chainID: UInt64, depositContract: Address = ExecutionRequests.mainnetDepositContract,
        initialBaseFee: UInt256 = UInt256(1_000_000_000 as UInt64), blobSchedules: [Hardfork: BlobSchedule] = [:]
    ) {
        self.chainID = chainID
        self.depositContract = depositContract
        self.initialBaseFee = initialBaseFee
        self.blobSchedules = blobSchedules
    }

    /// The blob parameters in force under `fork` (nil before Cancun).
    public func blobSchedule(for fork: Hardfork) -> BlobSchedule? {
        guard fork >= .cancun else { return nil }
        return blobSchedules[fork] ?? ForkRules(fork).blobSchedule ?? .cancun
    }

    /// The environment a header's transactions run in.
    public func environment(of header: BlockHeader, fork: Hardfork) -> BlockEnvironment {
        BlockEnvironment(
            coinbase: header.coinbase, number: header.number, timestamp: header.timestamp, gasLimit: header.gasLimit,
            difficulty: header.difficulty, prevRandao: header.mixHash, baseFee: header.baseFeePerGas ?? .zero,
            excessBlobGas: header.excessBlobGas ?? 0, chainID: UInt256(chainID),
            blobSchedule: blobSchedule(for: fork) ?? .cancun)
    }

    /// Validates and applies `block` on a copy of `state`; returns the new state and what the block produced.
    /// On an error `state` is not changed.
    public func process(
        _ block: DecodedBlock, parent: BlockHeader, parentHash: Bytes32, fork: Hardfork, state: WorldState,
        blockHashes: @escaping @Sendable (UInt64) -> Bytes32
    ) throws(BlockValidationError) -> (state: WorldState, block: ProcessedBlock) {
        var journaled = JournaledState(state: state, blockHashes: blockHashes)
        let processed = try process(block, parent: parent, parentHash: parentHash, fork: fork, in: &journaled) {
            $0.state.stateRoot
        }
        return (journaled.state, processed)
    }

    /// Validates and applies `block` in `journaled` (whose block hashes must answer BLOCKHASH for it);
    /// `stateRoot` computes the root of the state after it (a chain with incremental tries passes its own).
    public func process(
        _ block: DecodedBlock, parent: BlockHeader, parentHash: Bytes32, fork: Hardfork, in journaled: inout JournaledState,
        stateRoot: (inout JournaledState) -> Bytes32
    ) throws(BlockValidationError) -> ProcessedBlock {
        let header = block.header
        let schedule = blobSchedule(for: fork)
        try HeaderValidation.validate(
            header, parent: parent, parentHash: parentHash, fork: fork, blobSchedule: schedule,
            initialBaseFee: initialBaseFee)
        try checkBody(block, fork: fork, schedule: schedule)
        if fork < .paris { try checkProofOfWork(block, parent: parent, fork: fork) }

        let env = environment(of: header, fork: fork)
        SystemCalls.beginBlock(
            parentHash: header.parentHash, parentBeaconBlockRoot: header.parentBeaconBlockRoot, in: &journaled, block: env,
            fork: fork)
        var processed = try executeTransactions(block, env: env, fork: fork, in: &journaled)
        if let withdrawals = block.withdrawals { Self.applyWithdrawals(withdrawals, in: &journaled, fork: fork) }
        if fork < .paris { ProofOfWork.applyRewards(header: header, ommers: block.ommers, fork: fork, in: &journaled) }
        if fork >= .prague {
            processed.requests = try ExecutionRequests.collect(
                logs: processed.outcomes.flatMap(\.logs), depositContract: depositContract, in: &journaled, block: env,
                fork: fork)
        }
        try checkCommitments(header, processed, root: stateRoot(&journaled))
        return processed
    }

    /// Credits each withdrawal's amount (EIP-4895), as one more transaction: a zero amount creates nothing.
    public static func applyWithdrawals(_ withdrawals: [Withdrawal], in journaled: inout JournaledState, fork: Hardfork) {
        for withdrawal in withdrawals { journaled.addBalance(withdrawal.address, withdrawal.amountInWei) }
        journaled.finalize(rules: ForkRules(fork))
    }

    /// The body checks that need no execution: size (EIP-7934), ommers, transactions and withdrawals roots,
    /// blob gas used.
    func checkBody(_ block: DecodedBlock, fork: Hardfork, schedule: BlobSchedule?) throws(BlockValidationError) {
        let header = block.header
        if fork >= .osaka && block.encodedSize > HeaderValidation.maxRLPBlockSize {
            throw .blockTooLarge(size: block.encodedSize, limit: HeaderValidation.maxRLPBlockSize)
        }
        if fork >= .paris && !block.ommers.isEmpty { throw .proofOfWorkFieldAfterMerge("ommers") }
        let ommersHash = block.ommersHash
        if ommersHash != header.ommersHash {
            throw .mismatch(.ommersHash, expected: header.ommersHash.hexString, got: ommersHash.hexString)
        }
        let transactionsRoot = block.transactionsRoot
        if transactionsRoot != header.transactionsRoot {
            throw .mismatch(.transactionsRoot, expected: header.transactionsRoot.hexString, got: transactionsRoot.hexString)
        }
        if (block.withdrawals != nil) != (fork >= .shanghai) {
            throw .malformedBlock(fork >= .shanghai ? "\(fork) block without withdrawals" : "withdrawals before Shanghai")
        }
        if let expected = header.withdrawalsRoot, let root = block.withdrawalsRoot, root != expected {
            throw .mismatch(.withdrawalsRoot, expected: expected.hexString, got: root.hexString)
        }
        if let declared = header.blobGasUsed {
            var total: UInt64 = 0
            for tx in block.transactions {
                let (sum, overflow) = total.addingReportingOverflow(tx.transaction.blobGas)
                total = overflow ? UInt64.max : sum
            }
            if total != declared { throw .invalidBlobGasUsed(expected: total, got: declared) }
        }
    }

    /// The proof-of-work rules that need only the block and its parent: the difficulty (``ProofOfWork``), and
    /// the ommers — at most two, no repeats, each 1 to 6 generations older than the block and not its parent's
    /// number or later. (Whether an ommer's parent is an ancestor, and not already included, needs the chain:
    /// ``DevChain`` checks it on import.)
    func checkProofOfWork(_ block: DecodedBlock, parent: BlockHeader, fork: Hardfork) throws(BlockValidationError) {
        let header = block.header
        let expected = ProofOfWork.difficulty(timestamp: header.timestamp, parent: parent, fork: fork)
        if header.difficulty != expected { throw .invalidDifficulty(expected: expected, got: header.difficulty) }
        if block.ommers.count > ProofOfWork.maxOmmers {
            throw .invalidOmmers("\(block.ommers.count) ommers, at most \(ProofOfWork.maxOmmers)")
        }
        var seen: Set<Bytes32> = []
        for ommer in block.ommers {
            let hash = ommer.hash
            guard seen.insert(hash).inserted else { throw .invalidOmmers("ommer \(hash) appears twice") }
            guard ommer.number < header.number, header.number - ommer.number < ProofOfWork.maxOmmerDepth else {
                throw .invalidOmmers("ommer \(hash) at height \(ommer.number) is not 1 to 6 blocks below \(header.number)")
            }
        }
    }

    /// Recovers each sender and executes each transaction in order with the gas the block has left.
    func executeTransactions(
        _ block: DecodedBlock, env: BlockEnvironment, fork: Hardfork, in journaled: inout JournaledState
    ) throws(BlockValidationError) -> ProcessedBlock {
        let rules = ForkRules(fork)
        let maxBlobGas = (blobSchedule(for: fork)?.max ?? 0).multipliedReportingOverflow(by: BlobGas.perBlob)
        var result = ProcessedBlock(
            senders: [], outcomes: [], receiptEncodings: [], gasUsed: 0, blobGasUsed: 0, logsBloom: Bloom(), requests: nil)
        var noTracer = NoTracer()
        let buffers = ExecutionBuffers()
        for (index, signed) in block.transactions.enumerated() {
            let sender: Address
            do {
                sender = try signed.validate(
                    for: fork, chainID: chainID, recovered: block.recoveredSender(index, allowHighS: fork < .homestead))
            } catch {
                throw .invalidTransaction(index: index, error)
            }
            let tx = signed.transaction
            let (blobTotal, blobOverflow) = result.blobGasUsed.addingReportingOverflow(tx.blobGas)
            if tx.blobGas > 0 && (blobOverflow || (!maxBlobGas.overflow && blobTotal > maxBlobGas.partialValue)) {
                throw .blobGasExceeded(index: index, used: blobTotal, max: maxBlobGas.partialValue)
            }
            let outcome: TransactionOutcome
            do {
                outcome = try TransactionExecutor.execute(
                    ExecutableTransaction(signed, sender: sender), in: &journaled, block: env, fork: fork,
                    blockGasAvailable: block.header.gasLimit - result.gasUsed, tracer: &noTracer, buffers: buffers)
            } catch {
                throw .transaction(index: index, error)
            }
            if let reason = outcome.unsupportedReason { throw .unsupported("transaction \(index): \(reason)") }
            journaled.finalize(rules: rules)
            result.gasUsed += outcome.gasUsed  // at most the block's gas limit: each is checked against what is left
            result.blobGasUsed = blobTotal
            let bloom = Bloom(logs: outcome.logs)
            result.logsBloom.formUnion(bloom)
            // Before Byzantium a receipt commits to the state after its transaction (a full root per transaction:
            // only the chains of 2015–2017 pay for it).
            let root = fork < .byzantium ? journaled.state.stateRoot : nil
            if let root { result.intermediateRoots.append(root) }
            result.receiptEncodings.append(
                Receipt.consensusEncoding(
                    type: tx.type, status: outcome.isSuccess, root: root, cumulativeGasUsed: result.gasUsed, bloom: bloom,
                    logs: outcome.logs))
            result.senders.append(sender)
            result.outcomes.append(outcome)
        }
        return result
    }

    /// The header's commitments to the execution against what it produced.
    func checkCommitments(_ header: BlockHeader, _ processed: ProcessedBlock, root: Bytes32) throws(BlockValidationError) {
        if processed.gasUsed != header.gasUsed {
            throw .mismatch(.gasUsed, expected: String(header.gasUsed), got: String(processed.gasUsed))
        }
        let receiptsRoot = MerklePatriciaTrie.root(ofList: processed.receiptEncodings)
        if receiptsRoot != header.receiptsRoot {
            throw .mismatch(.receiptsRoot, expected: header.receiptsRoot.hexString, got: receiptsRoot.hexString)
        }
        if processed.logsBloom != header.logsBloom {
            throw .mismatch(.logsBloom, expected: header.logsBloom.hexString, got: processed.logsBloom.hexString)
        }
        if let requests = processed.requests {
            let hash = ExecutionRequests.hash(requests)
            if hash != header.requestsHash {
                throw .mismatch(.requestsHash, expected: header.requestsHash?.hexString ?? "none", got: hash.hexString)
            }
        }
        if root != header.stateRoot {
            throw .mismatch(.stateRoot, expected: header.stateRoot.hexString, got: root.hexString)
        }
    }
}
