import EthereumPrimitives

/// The hashes of the chain's most recent blocks, by number and by hash: what BLOCKHASH, the block cache, reverts and
/// hash lookups need most. At least ``kept`` blocks are held (all of them on a shorter chain); the chain asks the
/// database for older ones, so memory does not grow with the chain.
struct RecentBlockHashes: Sendable {
    /// Blocks held at least (BLOCKHASH needs 256, the block cache 1,024).
    static let kept = 8192

    /// The number of the first block held.
    private(set) var first: UInt64
    private var hashes: [Bytes32]
    private var numbers: [Bytes32: UInt64]

    /// The hashes of blocks `first`, `first + 1`, …; `hashes` must not be empty.
    init(first: UInt64, hashes: [Bytes32]) {
        self.first = first
        self.hashes = hashes
        var numbers: [Bytes32: UInt64] = [:]
        numbers.reserveCapacity(hashes.count)
        for (i, hash) in hashes.enumerated() { numbers[hash] = first + UInt64(i) }
        self.numbers = numbers
    }

    /// The number of the last block held (the head).
    var last: UInt64 { first + UInt64(hashes.count) - 1 }

    /// The last block's hash.
    var lastHash: Bytes32 { hashes[hashes.count - 1] }

    /// The hash of block `number`, if held.
    func hash(_ number: UInt64) -> Bytes32? {
        guard number >= first, number <= last else { return nil }
        return hashes[Int(number - first)]
    }

    /// The number of the block with `hash`, if held.
    func number(_ hash: Bytes32) -> UInt64? { numbers[hash] }

    /// The hashes of blocks `from...through`, when all are held.
    func hashes(from: UInt64, through: UInt64) -> ArraySlice<Bytes32>? {
        guard from >= first, from <= through, through <= last else { return nil }
        return hashes[Int(from - first)...Int(through - first)]
    }

    /// Adds the next block's hash; the oldest are dropped, in bulk, once twice ``kept`` are held.
    mutating func append(_ hash: Bytes32) {
        hashes.append(hash)
        numbers[hash] = last
        if hashes.count >= 2 * Self.kept {
            let dropped = hashes.count - Self.kept
            for (i, old) in hashes.prefix(dropped).enumerated() where numbers[old] == first + UInt64(i) { numbers[old] = nil }
            hashes.removeFirst(dropped)
            first += UInt64(dropped)
        }
    }

    /// Drops the blocks after `number`; false when `number` is before the first block held (the caller reloads).
    mutating func removeAfter(_ number: UInt64) -> Bool {
        guard number >= first else { return false }
        while last > number {
            let hash = hashes.removeLast()
            if numbers[hash] == last + 1 { numbers[hash] = nil }
        }
        return true
    }
}
