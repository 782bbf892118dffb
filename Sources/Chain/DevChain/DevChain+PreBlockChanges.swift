import EVM
import EthereumPrimitives

/// The dev changes a mined block was built on (`anvil_setBalance`, `setCode`, `setNonce`, `setStorageAt`, `loadState`,
/// the deal helpers… made between its parent and it): they are in the block's state change, not in its parent's state,
/// so a replay of the block (``DevChain/replay(_:through:tracing:tracer:limits:traceLimits:)``: every `debug_trace*`
/// of a mined transaction, and the revert data of an old one) puts them on the parent's state first, as anvil replays
/// a block on the state it was mined on.
///
/// They are kept with the block: taken from the live state when the block is mined (``PendingDevState``, the values
/// after the changes, so several changes of one account or slot keep the last), cached with the recent blocks
/// (``MinedBlock/devChanges``), in the block's journal record and in the table `block_dev_changes` (one row per block
/// that has any), and removed with the block by a revert or reset. Blocks mined by an earlier build, and imported
/// blocks (an import refuses to start on pending dev changes), have none.
extension DevChain {
    /// The dev changes block `number` was mined on (empty when none): from the block cache, else the database.
    func devChanges(before number: UInt64) throws(ChainError) -> PendingDevState {
        if let known = blockCache[number]?.devChanges { return known }
        let loaded = try store.devChanges(block: number) ?? PendingDevState()
        blockCache[number]?.devChanges = loaded
        return loaded
    }

    /// The blocks among `from...to` that were mined on dev changes, in order: what an RLP export cannot carry (the
    /// importing chain replays those blocks without the changes, and their state roots do not match).
    public func blocksMinedOnDevChanges(from: UInt64, to: UInt64) throws(ChainError) -> [UInt64] {
        let last = Swift.min(to, head.number)
        guard from <= last else { return [] }
        return try store.blocksWithDevChanges(from: from, to: last)
    }
}

extension PendingDevState {
    /// Writes the changes into `state` as the dev methods made them (an account that no longer exists is removed,
    /// the others get their nonce, code and balance, then the slots their values), ending like a dev change (without
    /// EIP-161's removal of empty accounts).
    func apply(to state: inout JournaledState) {
        for (address, fields) in accounts.sorted(by: { $0.key < $1.key }) {
            guard let fields else {
                if state.state.accounts[address] != nil { _ = state.markSelfDestructed(address) }
                continue
            }
            state.setNonce(address, fields.nonce)
            if state.code(at: address) != fields.code { state.setCode(address, fields.code) }
            state.setBalance(address, fields.balance)
        }
        for (slot, value) in slots.sorted(by: { ($0.key.address, $0.key.key) < ($1.key.address, $1.key.key) }) {
            state.setStorage(slot.address, slot.key, value)
        }
        state.finalize(rules: ForkRules(.homestead))
    }

    /// RLP, sorted so equal changes encode alike: `[[[address, exists, nonce, balance, code]…], [[address, slot,
    /// value]…]]` (a missing account: `exists` empty, the other fields zero).
    var encoded: [UInt8] {
        let accountItems: [RLPItem] = accounts.sorted(by: { $0.key < $1.key }).map { address, fields in
            .list([
                .bytes(address.bytes), .bytes(fields == nil ? [] : [1]), RLPItem(unsignedInteger: fields?.nonce ?? 0),
                .bytes(fields?.balance.minimalBigEndianBytes ?? []), .bytes(fields?.code ?? []),
            ])
        }
        let slotItems: [RLPItem] = slots.sorted(by: { ($0.key.address, $0.key.key) < ($1.key.address, $1.key.key) }).map {
            .list([.bytes($0.key.address.bytes), .bytes($0.key.key.minimalBigEndianBytes), .bytes($0.value.minimalBigEndianBytes)])
        }
        return RLP.encode(.list([.list(accountItems), .list(slotItems)]))
    }

    /// Decodes ``encoded``.
    init(encoded bytes: [UInt8]) throws(RLPError) {
        let parts = try RLP.decode(bytes).list(expectedCount: 2)
        guard case .list(let accountItems) = parts[0], case .list(let slotItems) = parts[1] else { throw RLPError(.expectedList) }
        func word(_ item: RLPItem) throws(RLPError) -> UInt256 {
            UInt256(truncatingBigEndian: try item.unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
        }
        self.init()
        for item in accountItems {
            let a = try item.list(expectedCount: 5)
            let address = try Address(rlp: a[0])
            if try Bool(rlp: a[1]) {
                accounts[address] = PendingAccount(nonce: try UInt64(rlp: a[2]), balance: try word(a[3]), code: try a[4].byteString())
            } else {
                accounts[address] = .some(nil)
            }
        }
        for item in slotItems {
            let s = try item.list(expectedCount: 3)
            slots[StorageSlot(address: try Address(rlp: s[0]), key: try word(s[1]))] = try word(s[2])
        }
    }
}
