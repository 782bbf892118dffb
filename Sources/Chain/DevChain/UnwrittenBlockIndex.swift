import EthereumPrimitives

/// Where the transactions of blocks not yet in the database are (``BlockWriter`` writes them on its own thread): the
/// chain looks a hash up here before asking the database, which does not know those blocks yet. A block is forgotten
/// once the database holds it, so the index holds only the few blocks being written.
struct UnwrittenBlockIndex: Sendable {
    private var positions: [Bytes32: (block: UInt64, index: Int)] = [:]
    /// The indexed blocks in order, with their transaction hashes; entries before `start` are forgotten.
    private var blocks: [(number: UInt64, hashes: [Bytes32])] = []
    private var start = 0

    /// Indexes block `number`'s transactions (a hash mined again points at the newer block).
    mutating func add(block number: UInt64, hashes: [Bytes32]) {
        for (index, hash) in hashes.enumerated() { positions[hash] = (number, index) }
        blocks.append((number, hashes))
    }

    /// Where `hash` is, if in an indexed block.
    func position(_ hash: Bytes32) -> (block: UInt64, index: Int)? { positions[hash] }

    /// Forgets the blocks up to `written`, which the database holds.
    mutating func forget(through written: UInt64) {
        while start < blocks.count, blocks[start].number <= written {
            remove(blocks[start])
            start += 1
        }
        if start > 64 && start * 2 > blocks.count {
            blocks.removeFirst(start)
            start = 0
        }
    }

    /// Forgets the blocks above `number` (a revert removed them).
    mutating func forget(after number: UInt64) {
        while blocks.count > start, let last = blocks.last, last.number > number {
            remove(last)
            blocks.removeLast()
        }
    }

    /// Forgets everything.
    mutating func removeAll() { self = UnwrittenBlockIndex() }

    private mutating func remove(_ block: (number: UInt64, hashes: [Bytes32])) {
        for hash in block.hashes where positions[hash]?.block == block.number { positions[hash] = nil }
    }
}
