import Dispatch
import Foundation

/// Writes mined blocks into the database on its own thread, many blocks per SQLite transaction, while the chain
/// goes on mining: a block is durable once it is in the ``BlockJournal`` (a file's chain) or, in memory, at once;
/// the database gets it here, at most ``maxBatch`` blocks per transaction.
///
/// The chain keeps every block not yet written in memory (its block cache and transaction index) and reads those
/// from there; a read of the database that needs such a block waits for it (``wait(through:)``), as does every
/// write that is not a block (``drain()`` first). At most ``maxPending`` blocks wait: the next one waits for the
/// database to catch up, so an unwritten block is always one of the chain's recent blocks.
final class BlockWriter: @unchecked Sendable {
    /// Blocks per SQLite transaction, at most.
    static let maxBatch = 256
    /// Blocks waiting for the database, at most.
    static let maxPending = 512

    /// How long the first queued block waits for others to share its transaction (unless a reader needs it).
    static let gatheringDelay: DispatchTimeInterval = .milliseconds(5)

    private let condition = NSCondition()
    private var pending: [ChainStore.BlockWrite] = []
    /// Blocks the running batch took and has not written yet.
    private var inFlight = 0
    /// A run is queued or running.
    private var scheduled = false
    /// The highest block number the database holds.
    private var written: UInt64
    private var failure: ChainError?
    private let queue = DispatchQueue(label: "carchain.chain.writer")
    private let commit: @Sendable ([ChainStore.BlockWrite]) throws(ChainError) -> Void
    private let didWrite: @Sendable (UInt64) -> Void
    /// Whether the blocks are in a journal (said in the error when the database cannot be written).
    private let journaled: Bool

    /// `commit` writes a batch in one transaction; `didWrite` is told the last block of each batch written.
    init(
        written: UInt64, journaled: Bool, commit: @escaping @Sendable ([ChainStore.BlockWrite]) throws(ChainError) -> Void,
        didWrite: @escaping @Sendable (UInt64) -> Void = { _ in }
    ) {
        self.written = written
        self.journaled = journaled
        self.commit = commit
        self.didWrite = didWrite
    }

    /// Throws the error of a batch that could not be written, if any.
    func check() throws(ChainError) {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
    }

    /// The highest block number the database holds (blocks above it are still waiting).
    var writtenThrough: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return written
    }

    /// Queues `block` for the database (after waiting for room). Once a batch could not be written nothing more is
    /// queued (``check()`` says why): in a journal the blocks are written when the chain opens again.
    func enqueue(_ block: ChainStore.BlockWrite) {
        condition.lock()
        defer { condition.unlock() }
        while pending.count >= Self.maxPending && failure == nil {
            kick()
            condition.wait()
        }
        guard failure == nil else { return }
        pending.append(block)
        if !scheduled {
            scheduled = true
            queue.asyncAfter(deadline: .now() + Self.gatheringDelay) { [weak self] in self?.run() }
        }
    }

    /// Waits until the database holds every queued block.
    func drain() throws(ChainError) {
        condition.lock()
        defer { condition.unlock() }
        while (inFlight > 0 || !pending.isEmpty) && failure == nil {
            kick()
            condition.wait()
        }
        if let failure { throw failure }
    }

    /// Waits until the database holds block `number` (at once when it does, or when no such block is queued).
    func wait(through number: UInt64) throws(ChainError) {
        condition.lock()
        defer { condition.unlock() }
        while written < number && (inFlight > 0 || !pending.isEmpty) && failure == nil {
            kick()
            condition.wait()
        }
        if let failure { throw failure }
    }

    /// Starts writing what is queued now rather than after the gathering delay (called with the lock held).
    private func kick() {
        guard !pending.isEmpty else { return }
        scheduled = true
        queue.async { [weak self] in self?.run() }
    }

    /// Sets what the database holds after a write made around the writer (a rewind, a direct commit), with nothing
    /// queued.
    func noteWritten(_ number: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        written = number
    }

    /// Writes batches until nothing is queued (runs on the writer's queue, one at a time).
    private func run() {
        condition.lock()
        while !pending.isEmpty && failure == nil {
            let batch: [ChainStore.BlockWrite]
            if pending.count <= Self.maxBatch {
                batch = pending
                pending = []
            } else {
                batch = Array(pending.prefix(Self.maxBatch))
                pending.removeFirst(Self.maxBatch)
            }
            inFlight = batch.count
            condition.unlock()

            var error: ChainError?
            do throws(ChainError) { try commit(batch) } catch let caught { error = caught }

            condition.lock()
            inFlight = 0
            if let error {
                // The batch goes back in front, so a reader waiting for it is told of the failure, not the block.
                pending.insert(contentsOf: batch, at: 0)
                let kept = journaled ? "; they are kept in the journal and written when the chain opens again" : ""
                failure = .storage("\(error.description): blocks from \(batch[0].header.number) on are not in the database\(kept)")
            } else {
                written = batch[batch.count - 1].header.number
                let last = written
                condition.unlock()
                didWrite(last)
                condition.lock()
            }
            condition.broadcast()
        }
        scheduled = false
        condition.broadcast()
        condition.unlock()
    }
}
