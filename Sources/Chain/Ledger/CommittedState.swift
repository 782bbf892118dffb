import EVM
import EthereumPrimitives
import EthereumTrie

/// The state as of the head block, held as its Merkle-Patricia tries (the account trie and one
/// storage trie per account) plus all code by hash. Blocks update it incrementally from the
/// ``StateChanges`` their transactions recorded, so the state root costs the changed paths only,
/// whatever the size of the state. Reading the tries also gives the values a block overwrote,
/// which is how the reverse ``StateDiff`` of each block is made.
struct CommittedState: Sendable {
    // Internal rather than private: CommittedState+Proof walks them for EIP-1186 proofs.
    var accountTrie = MerklePatriciaTrie()
    var storageTries: [Address: MerklePatriciaTrie] = [:]
    /// All code ever deployed, by hash (code is content-addressed, so it is never removed).
    private(set) var codes: [Bytes32: [UInt8]] = [.emptyCodeHash: []]
    /// The account trie keys (Keccak-256 of the address) of accounts blocks changed, so an account changed block after
    /// block (a sender, a contract, the fee recipient, the system contracts) is hashed once. Emptied when it reaches
    /// ``accountKeyCacheLimit`` entries.
    private var accountKeys: [Address: Bytes32] = [:]
    private static let accountKeyCacheLimit = 4096

    /// The tries of `state`, built from scratch.
    init(state: WorldState) {
        for (address, account) in state.accounts {
            var storage = MerklePatriciaTrie()
            for (key, value) in account.storage where !value.isZero {
                storage.set(Self.slotKey(key), Self.slotValue(value))
            }
            if !storage.isEmpty { storageTries[address] = storage }
            if !account.code.isEmpty { codes[account.codeHash] = account.code }
            accountTrie.set(Self.accountKey(address), leaf(account, storageRoot: storage.rootHash))
        }
    }

    /// The state root.
    var stateRoot: Bytes32 { mutating get { accountTrie.rootHash } }

    /// The code with hash `hash` (empty when unknown).
    func code(_ hash: Bytes32) -> [UInt8] { codes[hash] ?? [] }

    /// The committed fields of an account, nil if it does not exist.
    func fields(_ address: Address) -> AccountFields? {
        accountTrie.get(Self.accountKey(address)).flatMap(Self.fields(leaf:))
    }

    /// The committed value of a storage slot.
    func storage(_ address: Address, _ key: UInt256) -> UInt256 {
        Self.slot(storageTries[address]?.get(Self.slotKey(key)))
    }

    /// The reverse diff of `changes`: the committed values of everything they name.
    func reverseDiff(for changes: StateChanges) -> StateDiff {
        var diff = StateDiff()
        for address in changes.allAccounts {
            let cleared = changes.clearedStorage[address]
            var keys = changes.slots[address] ?? []
            if let cleared { keys.formUnion(cleared.keys) }
            var slots: [UInt256: UInt256] = [:]
            for key in keys { slots[key] = storage(address, key) }
            diff.accounts[address] = AccountDiff(pre: fields(address), storageCleared: cleared != nil, slots: slots)
        }
        return diff
    }

    /// What to write to the database so its state tables match the tries after ``apply(_:from:)``.
    struct Writes: Sendable {
        /// Accounts to upsert (fields) or delete (nil, with all their storage).
        var accounts: [(Address, AccountFields?)] = []
        /// Accounts whose storage rows are all deleted before ``storage`` is written.
        var clearedStorage: [Address] = []
        /// Slots to upsert (non-zero) or delete (zero).
        var storage: [(Address, UInt256, UInt256)] = []
        /// New code.
        var codes: [(Bytes32, [UInt8])] = []

        init() {}

        /// The writes of consecutive blocks as one set, oldest first: each account and slot with its last value; an
        /// account whose storage any of them clears (or that any deletes) is cleared first, and only the slots written
        /// after that are kept.
        init(merging blocks: [Writes]) {
            var accounts: [Address: AccountFields?] = [:]
            var cleared = Set<Address>()
            var slots: [Address: [UInt256: UInt256]] = [:]
            var codes: [Bytes32: [UInt8]] = [:]
            for block in blocks {
                for (address, fields) in block.accounts {
                    accounts.updateValue(fields, forKey: address)
                    if fields == nil {
                        cleared.insert(address)
                        slots[address] = nil
                    }
                }
                for address in block.clearedStorage {
                    cleared.insert(address)
                    slots[address] = nil
                }
                for (address, slot, value) in block.storage { slots[address, default: [:]][slot] = value }
                for (hash, code) in block.codes { codes[hash] = code }
            }
            self.accounts = accounts.map { ($0.key, $0.value) }
            clearedStorage = Array(cleared)
            storage = slots.flatMap { address, values in values.map { (address, $0.key, $0.value) } }
            self.codes = codes.map { ($0.key, $0.value) }
        }
    }

    /// Brings the tries to `state` for what `changes` names, in place; returns the rows to write and the block's
    /// reverse diff (the values it overwrote, read from the tries on the way: each changed key is walked once).
    /// Keys and accounts whose value did not change are neither written nor in the diff, and cost no hashing.
    /// To undo, revert `state` with the diff and apply the same changes again.
    mutating func apply(_ changes: StateChanges, from state: WorldState) -> (writes: Writes, diff: StateDiff) {
        var writes = Writes()
        var diff = StateDiff()
        if accountKeys.count >= Self.accountKeyCacheLimit { accountKeys.removeAll(keepingCapacity: true) }
        let addresses = changes.allAccounts.sorted()
        // Room for every changed account at once (a block changes a few), rather than growth by doubling.
        writes.accounts.reserveCapacity(addresses.count)
        let slotCount = changes.slots.values.reduce(0) { $0 + $1.count }
        writes.storage.reserveCapacity(slotCount)
        diff.accounts.reserveCapacity(addresses.count)
        // First the storage tries of the accounts that remain, all of them, so that their changed nodes are hashed
        // together (MerklePatriciaTrie.commit(_:)); then the account trie, in address order, with their roots.
        var tries: [MerklePatriciaTrie] = []
        var overwritten: [[UInt256: UInt256]] = []
        tries.reserveCapacity(addresses.count)
        overwritten.reserveCapacity(addresses.count)
        let (writtenSlots, slotKeys) = Self.writtenSlots(changes, state: state, addresses: addresses, slotCount: slotCount)
        var nextWritten = 0
        var nextKey = 0
        for address in addresses {
            guard let account = state.accounts[address] else { continue }
            let cleared = changes.clearedStorage[address]
            var slots: [UInt256: UInt256] = [:]
            var trie = storageTries.removeValue(forKey: address) ?? MerklePatriciaTrie()
            if cleared != nil {
                let old = trie
                trie = MerklePatriciaTrie()
                writes.clearedStorage.append(address)
                for (slot, value) in account.storage where !value.isZero {
                    trie.set(Self.slotKey(slot), Self.slotValue(value))
                    writes.storage.append((address, slot, value))
                }
                for slot in Self.keys(changes.slots[address], cleared) { slots[slot] = Self.slot(old.get(Self.slotKey(slot))) }
            } else if changes.slots[address] != nil {
                let written = writtenSlots[nextWritten]
                nextWritten += 1
                slots.reserveCapacity(written.count)
                for slot in written {
                    let key = slotKeys[nextKey]
                    nextKey += 1
                    let value = account.storage[slot] ?? .zero
                    let old = trie.update(key, value.isZero ? [] : Self.slotValue(value))
                    let oldValue = Self.slot(old)
                    guard oldValue != value else { continue }
                    slots[slot] = oldValue
                    writes.storage.append((address, slot, value))
                }
            }
            tries.append(trie)
            overwritten.append(slots)
        }
        MerklePatriciaTrie.commit(&tries)
        var next = 0
        for address in addresses {
            let key = cachedAccountKey(address)
            let cleared = changes.clearedStorage[address]
            guard let account = state.accounts[address] else {
                let oldLeaf = accountTrie.update(key, [])
                let oldStorage = storageTries.removeValue(forKey: address)
                guard let oldLeaf else { continue }  // absent before and after
                var slots: [UInt256: UInt256] = [:]
                for slot in Self.keys(changes.slots[address], cleared) {
                    slots[slot] = Self.slot(oldStorage?.get(Self.slotKey(slot)))
                }
                diff.accounts[address] = AccountDiff(pre: Self.fields(leaf: oldLeaf), storageCleared: true, slots: slots)
                writes.accounts.append((address, nil))
                continue
            }
            // Moved out of the list, so the stored trie is the only holder of its nodes (the next block changes them
            // in place).
            var trie = MerklePatriciaTrie()
            swap(&trie, &tries[next])
            let slots = overwritten[next]
            next += 1
            let root = trie.rootHash
            if !trie.isEmpty { storageTries[address] = trie }
            if codes[account.codeHash] == nil {
                codes[account.codeHash] = account.code
                writes.codes.append((account.codeHash, account.code))
            }
            let newLeaf = leaf(account, storageRoot: root)
            let oldLeaf = accountTrie.update(key, newLeaf)
            guard oldLeaf != newLeaf || !slots.isEmpty || cleared != nil else { continue }
            diff.accounts[address] = AccountDiff(
                pre: oldLeaf.flatMap(Self.fields(leaf:)), storageCleared: cleared != nil, slots: slots)
            writes.accounts.append((address, AccountFields(account)))
        }
        return (writes, diff)
    }

    /// The slots written to each of `addresses` that remains and whose storage was not cleared (in that order: the
    /// accounts ``apply(_:from:)`` updates slot by slot), and their trie keys in the same order, hashed side by side.
    /// `slotCount` (every slot `changes` names) sizes the key buffer.
    private static func writtenSlots(
        _ changes: StateChanges, state: WorldState, addresses: [Address], slotCount: Int
    ) -> (slots: [[UInt256]], keys: [Bytes32]) {
        var slots: [[UInt256]] = []
        var bytes: [UInt8] = []
        slots.reserveCapacity(addresses.count)
        bytes.reserveCapacity(32 * slotCount)
        for address in addresses where state.accounts[address] != nil && changes.clearedStorage[address] == nil {
            guard let written = changes.slots[address] else { continue }
            let list = Array(written)
            for slot in list { slot.withBigEndianBytes { bytes.append(contentsOf: $0) } }
            slots.append(list)
        }
        let keys = bytes.withUnsafeBytes { raw in
            Keccak256.hashes(of: raw, ranges: (0..<(raw.count / 32)).map { (32 * $0)..<(32 * $0 + 32) })
        }
        return (slots, keys)
    }

    /// The slots a reverse diff names for an account: those written, and on a cleared account every slot it had.
    private static func keys(_ written: Set<UInt256>?, _ cleared: [UInt256: UInt256]?) -> Set<UInt256> {
        var keys = written ?? []
        if let cleared { keys.formUnion(cleared.keys) }
        return keys
    }

    /// A storage trie leaf's value (RLP of the minimal big-endian bytes); zero when absent.
    private static func slot(_ leaf: [UInt8]?) -> UInt256 {
        guard let leaf else { return .zero }
        return (try? RLP.withString(leaf) { UInt256(truncatingBigEndian: $0) }) ?? .zero
    }

    /// The fields of an account trie leaf, rlp([nonce, balance, storageRoot, codeHash]).
    /// Read without an item tree: the reverse diff reads the old leaf of every account a block changes.
    static func fields(leaf: [UInt8]) -> AccountFields? {
        var fields = AccountFields(nonce: 0, balance: .zero, codeHash: .zero)
        let count = try? RLP.forEachString(inList: leaf) { (index, bytes) throws(RLPError) in
            switch index {
            case 0:
                fields.nonce = try RLP.checkUnsignedInteger(bytes, maxBytes: 8, typeName: "account field")
                    .reduce(0) { $0 << 8 | UInt64($1) }
            case 1:
                fields.balance = UInt256(
                    truncatingBigEndian: try RLP.checkUnsignedInteger(bytes, maxBytes: 32, typeName: "account field"))
            case 3:
                guard bytes.count == 32 else { throw RLPError(.wrongByteCount(expected: 32, actual: bytes.count)) }
                fields.codeHash = Bytes32(unsafeBytes: bytes)
            default: break
            }
        }
        return count == 4 ? fields : nil
    }

    private func leaf(_ account: Account, storageRoot: Bytes32) -> [UInt8] {
        RLP.encodeList { add in
            account.nonce.withMinimalBigEndianBytes(add)
            account.balance.withMinimalBigEndianBytes(add)
            storageRoot.withUnsafeBytes(add)
            account.codeHash.withUnsafeBytes(add)
        }
    }

    private mutating func cachedAccountKey(_ address: Address) -> Bytes32 {
        if let key = accountKeys[address] { return key }
        let key = Self.accountKey(address)
        accountKeys[address] = key
        return key
    }

    /// The account trie's key of `address`: its Keccak-256.
    static func accountKey(_ address: Address) -> Bytes32 {
        address.withUnsafeBytes { Keccak256.hash($0) }
    }

    /// A storage trie's key of slot `key`: the Keccak-256 of its 32 big-endian bytes.
    static func slotKey(_ key: UInt256) -> Bytes32 {
        key.withBigEndianBytes { Keccak256.hash($0) }
    }

    private static func slotValue(_ value: UInt256) -> [UInt8] {
        value.withMinimalBigEndianBytes(RLP.encodeString)
    }
}
