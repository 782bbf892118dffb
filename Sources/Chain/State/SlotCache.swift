import EthereumPrimitives

/// The storage slots one transaction has touched: for each (account, key), its current value, its
/// value when the transaction started (EIP-1283/2200's "original"), whether it is warm (EIP-2929)
/// and whether it was written since the world state last saw it. ``JournaledState`` answers SLOAD
/// and SSTORE from here, so a slot costs one lookup in a flat open-addressing table with a cheap hash
/// instead of two `Dictionary` lookups (SipHash of the address, then of the key) plus a `Set`
/// insertion for the warm flag on every access. The world state is read once per slot and
/// transaction, and written back once (``JournaledState/flushStorage()``), not on every SSTORE.
///
/// Cleared in O(1) between transactions by advancing an epoch: entries of older epochs count as
/// empty. The hash is seeded per process, so contract code cannot choose keys that collide. The
/// table is allocated on the first access, so a transaction that touches no storage costs nothing.
struct SlotCache {
    struct Entry {
        /// The address as three words (bytes 0–7, 8–15, 16–19): compared without a call.
        var a0: UInt64
        var a1: UInt64
        var a2: UInt32
        /// The epoch the entry belongs to; an entry of another epoch is empty.
        var epoch: UInt32
        var key: UInt256
        var current: UInt256
        var original: UInt256
        var warm: Bool
        /// `current` differs from what the world state holds (written since the last flush).
        var dirty: Bool

        /// The address the entry belongs to.
        var address: Address {
            var words = (a0, a1, a2)
            return withUnsafeBytes(of: &words) { raw in Address(bytes: raw.prefix(20)) } ?? .zero
        }
    }

    private var entries: ContiguousArray<Entry> = []
    private var mask = 0
    private var epoch: UInt32 = 1
    /// Entries of the current epoch.
    private(set) var count = 0
    /// The indexes of the dirty entries.
    private(set) var dirtyIndexes: [Int] = []

    private static let seed: UInt64 = UInt64.random(in: 0...UInt64.max) | 1
    private static let initialCapacity = 64

    init() {}

    private static let empty = Entry(
        a0: 0, a1: 0, a2: 0, epoch: 0, key: .zero, current: .zero, original: .zero, warm: false, dirty: false)

    /// The address's three words.
    @inline(__always)
    static func words(_ address: Address) -> (UInt64, UInt64, UInt32) {
        address.withUnsafeBytes { raw in
            (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
             raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
        }
    }

    @inline(__always)
    private static func hash(_ a: (UInt64, UInt64, UInt32), _ key: UInt256) -> Int {
        @inline(__always) func mix(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let m = (h ^ w).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
            return m.high ^ m.low
        }
        var h = mix(seed, a.0)
        h = mix(h, a.1 ^ UInt64(a.2) << 32)
        h = mix(h, key.limbs.0)
        h = mix(h, key.limbs.1)
        h = mix(h, key.limbs.2 ^ key.limbs.3 &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: h)
    }

    /// The index of the entry for `(address, key)`, inserting one made by `load()` (the slot's value
    /// in the world state) if there is none; `inserted` tells which.
    @inline(__always)
    mutating func index(
        _ address: Address, _ key: UInt256, load: () -> UInt256
    ) -> (index: Int, inserted: Bool) {
        let a = Self.words(address)
        if entries.isEmpty { grow() }
        var i = Self.hash(a, key) & mask
        while true {
            let e = entries[i]
            if e.epoch != epoch { break }
            if e.key == key && e.a0 == a.0 && e.a1 == a.1 && e.a2 == a.2 { return (i, false) }
            i = (i &+ 1) & mask
        }
        if (count &+ 1) &* 2 > entries.count {
            grow()
            return index(address, key, load: load)
        }
        let value = load()
        entries[i] = Entry(
            a0: a.0, a1: a.1, a2: a.2, epoch: epoch, key: key, current: value, original: value, warm: false,
            dirty: false)
        count &+= 1
        return (i, true)
    }

    /// The entry for `(address, key)` if the transaction has touched the slot.
    func find(_ address: Address, _ key: UInt256) -> Int? {
        if entries.isEmpty { return nil }
        let a = Self.words(address)
        var i = Self.hash(a, key) & mask
        while true {
            let e = entries[i]
            if e.epoch != epoch { return nil }
            if e.key == key && e.a0 == a.0 && e.a1 == a.1 && e.a2 == a.2 { return i }
            i = (i &+ 1) & mask
        }
    }

    subscript(index: Int) -> Entry {
        @inline(__always) get { entries[index] }
        @inline(__always) _modify { yield &entries[index] }
    }

    /// Sets the entry's current value and marks it dirty.
    @inline(__always)
    mutating func write(_ index: Int, _ value: UInt256) {
        entries[index].current = value
        if !entries[index].dirty {
            entries[index].dirty = true
            dirtyIndexes.append(index)
        }
    }

    /// Marks every entry clean (the world state now holds the current values).
    mutating func markClean() {
        for i in dirtyIndexes { entries[i].dirty = false }
        dirtyIndexes.removeAll(keepingCapacity: true)
    }

    /// Sets the current value of every touched slot of `address` from `storage` (after the account's
    /// storage was replaced wholesale: a contract creation over an existing account, or its undo).
    /// The caller has flushed, so the entries end clean.
    mutating func reload(_ address: Address, from storage: [UInt256: UInt256]) {
        let a = Self.words(address)
        for i in entries.indices where entries[i].epoch == epoch {
            if entries[i].a0 == a.0 && entries[i].a1 == a.1 && entries[i].a2 == a.2 {
                entries[i].current = storage[entries[i].key] ?? .zero
            }
        }
    }

    /// Forgets every slot (the transaction ended). O(1), except that a table grown far beyond what
    /// the last transaction used is replaced by a small one.
    mutating func removeAll() {
        if entries.count > 4_096 && count < entries.count / 16 {
            self = SlotCache()
            return
        }
        count = 0
        dirtyIndexes.removeAll(keepingCapacity: true)
        if epoch == UInt32.max {
            for i in entries.indices { entries[i].epoch = 0 }
            epoch = 1
        } else {
            epoch &+= 1
        }
    }

    private mutating func grow() {
        let old = entries
        let oldEpoch = epoch
        entries = ContiguousArray(repeating: Self.empty, count: Swift.max(old.count * 2, Self.initialCapacity))
        mask = entries.count - 1
        epoch = 1
        dirtyIndexes.removeAll(keepingCapacity: true)
        for e in old where e.epoch == oldEpoch {
            var i = Self.hash((e.a0, e.a1, e.a2), e.key) & mask
            while entries[i].epoch == epoch { i = (i &+ 1) & mask }
            var moved = e
            moved.epoch = epoch
            entries[i] = moved
            if e.dirty { dirtyIndexes.append(i) }
        }
    }
}
