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
        guard let leaf = accountTrie.get(Self.accountKey(address)),
            case .list(let f)? = try? RLP.decode(leaf), f.count == 4,
            let nonce = try? UInt64(rlp: f[0]),
            let balanceBytes = try? f[1].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"),
            let codeHash = try? Bytes32(rlp: f[3])
        else { return nil }
        return AccountFields(nonce: nonce, balance: UInt256(truncatingBigEndian: balanceBytes), codeHash: codeHash)
    }

    /// The committed value of a storage slot.
    func storage(_ address: Address, _ key: UInt256) -> UInt256 {
        guard let leaf = storageTries[address]?.get(Self.slotKey(key)),
            let bytes = try? RLP.decode(leaf).byteString()
        else { return .zero }
        return UInt256(truncatingBigEndian: bytes)
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
    }

    /// Brings the tries to `state` for what `changes` names; returns the rows to write.
    mutating func apply(_ changes: StateChanges, from state: WorldState) -> Writes {
        var writes = Writes()
        for address in changes.allAccounts.sorted() {
            guard let account = state.accounts[address] else {
                accountTrie.delete(Self.accountKey(address))
                storageTries[address] = nil
                writes.accounts.append((address, nil))
                continue
            }
            var trie: MerklePatriciaTrie
            if changes.clearedStorage[address] != nil {
                trie = MerklePatriciaTrie()
                writes.clearedStorage.append(address)
                for (key, value) in account.storage where !value.isZero {
                    trie.set(Self.slotKey(key), Self.slotValue(value))
                    writes.storage.append((address, key, value))
                }
            } else {
                trie = storageTries[address] ?? MerklePatriciaTrie()
                for key in changes.slots[address] ?? [] {
                    let value = account.storage[key] ?? .zero
                    if value.isZero { trie.delete(Self.slotKey(key)) } else { trie.set(Self.slotKey(key), Self.slotValue(value)) }
                    writes.storage.append((address, key, value))
                }
            }
            let root = trie.rootHash
            storageTries[address] = trie.isEmpty ? nil : trie
            if codes[account.codeHash] == nil {
                codes[account.codeHash] = account.code
                writes.codes.append((account.codeHash, account.code))
            }
            accountTrie.set(Self.accountKey(address), leaf(account, storageRoot: root))
            writes.accounts.append((address, AccountFields(account)))
        }
        return writes
    }

    private func leaf(_ account: Account, storageRoot: Bytes32) -> [UInt8] {
        RLP.encode(
            .list([
                RLPItem(unsignedInteger: account.nonce), .bytes(account.balance.minimalBigEndianBytes),
                .bytes(storageRoot.bytes), .bytes(account.codeHash.bytes),
            ]))
    }

    static func accountKey(_ address: Address) -> [UInt8] {
        address.withUnsafeBytes { Keccak256.hash($0).bytes }
    }

    static func slotKey(_ key: UInt256) -> [UInt8] {
        key.withBigEndianBytes { Keccak256.hash($0).bytes }
    }

    private static func slotValue(_ value: UInt256) -> [UInt8] {
        RLP.encode(.bytes(value.minimalBigEndianBytes))
    }
}
