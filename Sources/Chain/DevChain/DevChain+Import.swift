import Dispatch
import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Blocks executed and added.
    public var imported: Int
    /// Blocks the chain already held (same hash at the same height), skipped.
    public var known: Int
    /// Transactions in the imported blocks.
    public var transactions: Int
    /// Gas used by the imported blocks.
    public var gasUsed: UInt64
    /// The head after the import.
    public var headNumber: UInt64
    /// The head's hash.
    public var headHash: Bytes32

    public init(imported: Int = 0, known: Int = 0, transactions: Int = 0, gasUsed: UInt64 = 0, headNumber: UInt64, headHash: Bytes32) {
        self.imported = imported
        self.known = known
        self.transactions = transactions
        self.gasUsed = gasUsed
        self.headNumber = headNumber
        self.headHash = headHash
    }
}

/// Splits a file of concatenated RLP blocks (geth's `export` format, hive's `chain.rlp`) into the blocks' bytes.
public enum BlockFile {
    /// The bytes of each block, in file order. A truncated or non-list item is an error naming its offset.
    public static func split(_ bytes: [UInt8]) throws(ChainError) -> [ArraySlice<UInt8>] {
        var blocks: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < bytes.count {
            let first = bytes[offset]
            guard first >= 0xc0 else { throw .invalidParams("byte \(offset): not an RLP list (a block starts with 0xc0–0xff)") }
            var headerLength = 1
            var length = 0
            if first <= 0xf7 {
                length = Int(first - 0xc0)
            } else {
                let lengthBytes = Int(first - 0xf7)
                guard lengthBytes <= 4, offset + 1 + lengthBytes <= bytes.count else {
                    throw .invalidParams("byte \(offset): truncated or oversized RLP length")
                }
                for i in 0..<lengthBytes { length = length << 8 | Int(bytes[offset + 1 + i]) }
                headerLength += lengthBytes
            }
            let (end, overflow) = (offset + headerLength).addingReportingOverflow(length)
            guard !overflow, end <= bytes.count else {
                throw .invalidParams("byte \(offset): the block's RLP runs past the end of the file (\(bytes.count) bytes)")
            }
            blocks.append(bytes[offset..<end])
            offset = end
        }
        return blocks
    }
}

extension DevChain {
    /// The largest chain file `importBlocks(file:)` callers should read at once (blocks are held in memory).
    public static let maxImportFileSize = 2 << 30

    /// How many imported blocks share one SQLite transaction (at most ``cacheDepth``, so every block not yet written
    /// is still in the block cache for the reads that follow it).
    static let importBatchSize = 256

    /// How many blocks ahead of the one executing an import decodes and recovers senders for (``BlockLookahead``).
    static let importLookahead = 32

    /// Executes and validates each block of `bytes` (concatenated RLP blocks) on top of the head, in order,
    /// with the rules of each block's fork (``BlockProcessor``; proof-of-work seals are not verified). Blocks
    /// the chain already holds are skipped. The first bad block stops the import: the error names its number and
    /// the rule it broke, nothing of it or after it is kept, and the chain stays at the last good block.
    /// `progress` is called after each block with the count done and the total.
    ///
    /// Blocks are written to the database in groups of ``importBatchSize``, each group in one transaction, on another
    /// thread while the next group executes; when a write fails, the chain goes back to the last group written and
    /// the error says so.
    @discardableResult
    public func importBlocks(
        rlp bytes: [UInt8], progress: (@Sendable (_ done: Int, _ total: Int, _ number: UInt64) -> Void)? = nil
    ) throws(ChainError) -> ImportSummary {
        let parts = try BlockFile.split(bytes)
        var summary = ImportSummary(headNumber: head.number, headHash: headHash)
        var batch = ImportBatch(written: currentSnapshot())
        let schedule = self.schedule
        var lookahead = BlockLookahead(parts: parts, window: Self.importLookahead) { block in
            block.withDigest(allowHighS: schedule.fork(number: block.header.number, timestamp: block.header.timestamp) < .homestead)
        }
        for index in parts.indices {
            let block: DecodedBlock
            let prepared: PreparedBlock?
            do throws(ChainError) {
                switch lookahead.block(at: index) {
                case .success(let decoded): block = decoded
                case .failure(let error): throw ChainError.invalidBlock(number: nil, index: index, reason: error.description)
                }
                prepared = try prepare(block)
            } catch {
                // The good blocks before the bad one stay: they are written before the error is reported.
                try flush(&batch)
                try finishWriting(&batch)
                throw error
            }
            if let prepared {
                adopt(prepared)
                batch.writes.append(prepared.write)
                summary.imported += 1
                summary.transactions += block.transactions.count
                summary.gasUsed = summary.gasUsed &+ block.header.gasUsed
                if batch.writes.count >= Self.importBatchSize { try flush(&batch) }
            } else {
                summary.known += 1
            }
            progress?(index + 1, parts.count, block.header.number)
        }
        try flush(&batch)
        try finishWriting(&batch)
        summary.headNumber = head.number
        summary.headHash = headHash
        return summary
    }

    /// Validates and adds one block on top of the head, written to the database at once. Returns false when the
    /// chain already holds it.
    @discardableResult
    public func importBlock(_ block: DecodedBlock) throws(ChainError) -> Bool {
        guard base == 0 else { throw .rejected("a forked chain does not import blocks") }
        guard let prepared = try prepare(block) else { return false }
        do { try store.commit(prepared.write) } catch {
            undoUnminedBlock((prepared.changes, prepared.write.diff), fork: prepared.fork)
            throw error
        }
        adopt(prepared)
        return true
    }

    /// Imported blocks adopted in memory but not yet in the database: the group being collected, the group being
    /// written on another thread, and the chain as it was after the last group known to be written.
    struct ImportBatch {
        var written: Snapshot
        var writes: [ChainStore.BlockWrite] = []
        var inFlight: GroupWrite?
    }

    /// One group of blocks being written on a worker thread, and the chain as it is with that group in it.
    final class GroupWrite: @unchecked Sendable {
        let first: UInt64
        let after: Snapshot
        let done = DispatchGroup()
        /// Set by the worker before it leaves `done`; read after waiting for it.
        var failure: ChainError?

        init(first: UInt64, after: Snapshot) {
            self.first = first
            self.after = after
        }
    }

    /// Hands the collected group to a worker thread to write in one transaction, after the group before it is
    /// written (``finishWriting(_:)``), so at most one group is in flight.
    private func flush(_ batch: inout ImportBatch) throws(ChainError) {
        guard !batch.writes.isEmpty else { return }
        try finishWriting(&batch)
        let group = GroupWrite(first: batch.writes[0].header.number, after: currentSnapshot())
        let writes = batch.writes
        let store = self.store
        group.done.enter()
        DispatchQueue.global().async {
            do throws(ChainError) { try store.commit(writes) } catch { group.failure = error }
            group.done.leave()
        }
        batch.inFlight = group
        batch.writes.removeAll(keepingCapacity: true)
    }

    /// Waits for the group in flight. On failure the chain goes back to the blocks already written (everything
    /// adopted after them is dropped) and the error says where it stands.
    private func finishWriting(_ batch: inout ImportBatch) throws(ChainError) {
        guard let group = batch.inFlight else { return }
        group.done.wait()
        batch.inFlight = nil
        if let error = group.failure {
            batch.writes = []
            try restore(batch.written)
            throw .storage("\(error.description); the chain is back at block \(group.first &- 1), the last block written")
        }
        batch.written = group.after
    }

    /// An executed and validated block, ready to be adopted and written.
    struct PreparedBlock {
        var block: Block
        /// What the block changed (the tries already hold it).
        var changes: StateChanges
        var write: ChainStore.BlockWrite
        var fork: Hardfork
    }

    /// Makes `prepared` the head (state, caches, subscribers, pool).
    private func adopt(_ prepared: PreparedBlock) {
        adopt(prepared.block, diff: prepared.write.diff, receipts: prepared.write.receipts, logs: prepared.write.logs)
        pool.dropStale { working.nonce(of: $0) }
    }

    /// Validates and executes `block` on top of the head, leaving the working state at its post-state (undone on
    /// error); nil when the chain already holds it.
    private func prepare(_ block: DecodedBlock) throws(ChainError) -> PreparedBlock? {
        let header = block.header
        if header.number <= head.number, try blockHash(header.number) == block.hash { return nil }
        func invalid(_ reason: String) -> ChainError { .invalidBlock(number: header.number, index: nil, reason: reason) }
        guard header.parentHash == headHash, header.number == head.number &+ 1 else {
            if let parent = blockNumber(of: header.parentHash) {
                throw invalid("its parent is block \(parent), not the head \(head.number): side chains are not imported")
            }
            throw invalid("unknown parent \(header.parentHash.hexString) (the head is block \(head.number))")
        }
        let fork = self.fork(of: header)
        if fork < .paris && !block.ommers.isEmpty { try checkOmmerAncestry(block) }
        let processor = BlockProcessor(
            chainID: chainId, depositContract: schedule.depositContract, initialBaseFee: config.initialBaseFee,
            blobSchedules: schedule.blobSchedules)
        // Dev-control changes not yet in a block (anvil_setBalance, …) are not part of anyone's block: importing on
        // top of them could only fail, and rolling back would lose them.
        guard working.changes.isEmpty else {
            throw invalid("the chain has changes not yet in a block (from dev methods such as anvil_setBalance): mine them first")
        }
        working.blockHashes = blockHashFunction(upTo: head.number)
        // The tries are updated in place when the processor asks for the state root; a block that fails after that
        // puts them back (undoUnminedBlock).
        var taken: (changes: StateChanges, diff: StateDiff)?
        var writes = CommittedState.Writes()
        let processed: ProcessedBlock
        do {
            processed = try processor.process(block, parent: head, parentHash: headHash, fork: fork, in: &working) { journaled in
                let changes = journaled.takeChanges()
                let applied = committed.apply(changes, from: journaled.state)
                taken = (changes, applied.diff)
                writes = applied.writes
                return committed.stateRoot
            }
        } catch {
            undoUnminedBlock(taken, fork: fork)
            throw invalid(error.description)
        }

        var stored: [StoredReceipt] = []
        var logs: [(transactionIndex: Int, log: Log)] = []
        var cumulative: UInt64 = 0
        for (i, outcome) in processed.outcomes.enumerated() {
            cumulative += outcome.gasUsed
            let tx = block.transactions[i].transaction
            let sender = processed.senders[i]
            stored.append(
                StoredReceipt(
                    status: outcome.isSuccess, cumulativeGasUsed: cumulative, gasUsed: outcome.gasUsed,
                    effectiveGasPrice: outcome.effectiveGasPrice,
                    contractAddress: tx.to == nil ? ContractAddress.create(sender: sender, nonce: tx.nonce) : nil,
                    root: i < processed.intermediateRoots.count ? processed.intermediateRoots[i] : nil))
            for log in outcome.logs { logs.append((i, log)) }
        }
        let added = Block(
            header: header, transactions: block.transactions, senders: processed.senders, ommers: block.ommers,
            withdrawals: block.withdrawals)
        let write = ChainStore.BlockWrite(
            header: header, hash: added.hash, transactions: block.transactions, senders: processed.senders,
            receipts: stored, logs: logs, diff: taken?.diff ?? StateDiff(), state: writes, ommers: block.ommers,
            withdrawals: block.withdrawals ?? [])
        return PreparedBlock(block: added, changes: taken?.changes ?? StateChanges(), write: write, fork: fork)
    }

    /// The ommer rules that need the chain (geth's `VerifyUncles`): each ommer's parent is one of the block's
    /// last seven ancestors but not its parent, and no ommer is an ancestor or already named by one.
    private func checkOmmerAncestry(_ block: DecodedBlock) throws(ChainError) {
        let number = block.header.number
        let first = number > ProofOfWork.maxOmmerDepth ? number - ProofOfWork.maxOmmerDepth : 0
        var ancestors: Set<Bytes32> = []
        var included: Set<Bytes32> = []
        for n in first..<number {
            if let hash = try blockHash(n) { ancestors.insert(hash) }
            if let mined = try minedBlock(n) { for ommer in mined.block.ommers { included.insert(ommer.hash) } }
        }
        for ommer in block.ommers {
            let hash = ommer.hash
            let reason: String?
            if ancestors.contains(hash) {
                reason = "ommer \(hash.hexString) is an ancestor"
            } else if included.contains(hash) {
                reason = "ommer \(hash.hexString) was already included"
            } else if !ancestors.contains(ommer.parentHash) || ommer.parentHash == block.header.parentHash {
                reason = "ommer \(hash.hexString) does not branch off within the last 7 ancestors (or is a sibling)"
            } else {
                reason = nil
            }
            if let reason {
                throw .invalidBlock(number: number, index: nil, reason: BlockValidationError.invalidOmmers(reason).description)
            }
        }
    }

    /// The consensus encodings of blocks `from...to` (clamped to the head), oldest first: what `carchain chain
    /// export` writes and `importBlocks` reads back.
    public func exportBlocks(from: UInt64, to: UInt64) throws(ChainError) -> [[UInt8]] {
        let last = Swift.min(to, head.number)
        guard from <= last else { return [] }
        var blocks: [[UInt8]] = []
        for number in from...last {
            guard let mined = try minedBlock(number) else { throw .unknownBlock("\(number)") }
            blocks.append(mined.block.encoded)
        }
        return blocks
    }
}
