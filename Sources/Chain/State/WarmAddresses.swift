import EthereumPrimitives

/// The accounts a transaction has accessed (EIP-2929's `accessed_addresses`): a flat open-addressing
/// set with a cheap seeded hash, emptied in O(1) between transactions by advancing an epoch. Every
/// transaction inserts the sender, the recipient and the precompiles, and every CALL, BALANCE and
/// EXTCODE* asks it; a `Set<Address>` paid a SipHash of the address for each (and rehashed as it
/// grew in every transaction).
struct WarmAddresses {
    private struct Slot {
        var a0: UInt64
        var a1: UInt64
        var a2: UInt32
        /// The epoch the slot belongs to; a slot of another epoch is empty.
        var epoch: UInt32
    }

    private var slots: ContiguousArray<Slot> = []
    private var mask = 0
    private var epoch: UInt32 = 1
    private var count = 0

    private static let seed: UInt64 = UInt64.random(in: 0...UInt64.max) | 1
    private static let initialCapacity = 64

    init() {}

    @inline(__always)
    private static func hash(_ a: (UInt64, UInt64, UInt32)) -> Int {
        @inline(__always) func mix(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let m = (h ^ w).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
            return m.high ^ m.low
        }
        return Int(truncatingIfNeeded: mix(mix(mix(seed, a.0), a.1), UInt64(a.2)))
    }

    /// Adds `address`; true when it was not in the set.
    @inline(__always)
    mutating func insert(_ address: Address) -> Bool {
        let a = SlotCache.words(address)
        if (count &+ 1) &* 2 > slots.count { grow() }
        var i = Self.hash(a) & mask
        while true {
            let s = slots[i]
            if s.epoch != epoch { break }
            if s.a0 == a.0 && s.a1 == a.1 && s.a2 == a.2 { return false }
            i = (i &+ 1) & mask
        }
        slots[i] = Slot(a0: a.0, a1: a.1, a2: a.2, epoch: epoch)
        count &+= 1
        return true
    }

    /// True when `address` is in the set.
    func contains(_ address: Address) -> Bool {
        if slots.isEmpty { return false }
        let a = SlotCache.words(address)
        var i = Self.hash(a) & mask
        while true {
            let s = slots[i]
            if s.epoch != epoch { return false }
            if s.a0 == a.0 && s.a1 == a.1 && s.a2 == a.2 { return true }
            i = (i &+ 1) & mask
        }
    }

    /// Removes `address` (the undo of an insertion: the journal reverts insertions in reverse order).
    mutating func remove(_ address: Address) {
        guard !slots.isEmpty else { return }
        let a = SlotCache.words(address)
        var i = Self.hash(a) & mask
        while slots[i].epoch == epoch {
            if slots[i].a0 == a.0 && slots[i].a1 == a.1 && slots[i].a2 == a.2 {
                // Backward-shift deletion keeps every probe chain unbroken without tombstones.
                var hole = i
                var j = (i &+ 1) & mask
                while slots[j].epoch == epoch {
                    let home = Self.hash((slots[j].a0, slots[j].a1, slots[j].a2)) & mask
                    // Move slot j into the hole unless its home lies cyclically in (hole, j].
                    let homeAfterHole = (home &- hole) & mask
                    let jAfterHole = (j &- hole) & mask
                    if homeAfterHole == 0 || homeAfterHole > jAfterHole {
                        slots[hole] = slots[j]
                        hole = j
                    }
                    j = (j &+ 1) & mask
                }
                slots[hole].epoch = 0
                count &-= 1
                return
            }
            i = (i &+ 1) & mask
        }
    }

    /// Empties the set in O(1).
    mutating func removeAll() {
        count = 0
        if epoch == UInt32.max {
            for i in slots.indices { slots[i].epoch = 0 }
            epoch = 1
        } else {
            epoch &+= 1
        }
    }

    private mutating func grow() {
        let old = slots
        let oldEpoch = epoch
        slots = ContiguousArray(
            repeating: Slot(a0: 0, a1: 0, a2: 0, epoch: 0), count: Swift.max(old.count * 2, Self.initialCapacity))
        mask = slots.count - 1
        epoch = 1
        for s in old where s.epoch == oldEpoch {
            var i = Self.hash((s.a0, s.a1, s.a2)) & mask
            while slots[i].epoch == epoch { i = (i &+ 1) & mask }
            slots[i] = Slot(a0: s.a0, a1: s.a1, a2: s.a2, epoch: epoch)
        }
    }
}
