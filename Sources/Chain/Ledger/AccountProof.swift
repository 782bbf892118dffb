import EthereumPrimitives
import EthereumTrie

/// An EIP-1186 account proof (`eth_getProof`): the account's fields with the state-trie nodes on its path,
/// and for each storage key asked for, its value with the storage-trie nodes on its path. Each proof is the
/// RLP encodings of the nodes from the root, so anyone holding the block's state root can check it.
public struct AccountProof: Sendable, Equatable {
    /// One storage key's value and proof.
    public struct StorageEntry: Sendable, Equatable {
        /// The slot.
        public var key: UInt256
        /// Its value (zero when unset).
        public var value: UInt256
        /// The storage-trie nodes on the path of `keccak256(key)`; empty when the account has no storage.
        public var proof: [[UInt8]]
    }

    /// The account.
    public var address: Address
    /// The state-trie nodes on the path of `keccak256(address)`, root first; it proves absence too.
    public var accountProof: [[UInt8]]
    /// The balance (zero for an absent account).
    public var balance: UInt256
    /// The nonce (zero for an absent account).
    public var nonce: UInt64
    /// keccak256 of the code; the zero hash for an absent account (as geth answers).
    public var codeHash: Bytes32
    /// The storage root; the zero hash for an absent account (as geth answers).
    public var storageHash: Bytes32
    /// The storage keys asked for, in order.
    public var storageProof: [StorageEntry]
}

extension CommittedState {
    /// The proof of `address` and `slots` in this state. Mutating only because hashing the tries caches node
    /// hashes. An absent account gets zero fields and hashes, and storage entries without proofs, as geth's do;
    /// so does every key of an account whose storage is empty.
    mutating func proof(_ address: Address, slots: [UInt256]) -> AccountProof {
        let accountProof = accountTrie.proof(for: Self.accountKey(address).bytes)
        guard let fields = fields(address) else {
            return AccountProof(
                address: address, accountProof: accountProof, balance: .zero, nonce: 0, codeHash: .zero,
                storageHash: .zero, storageProof: slots.map { AccountProof.StorageEntry(key: $0, value: .zero, proof: []) })
        }
        var storageHash = MerklePatriciaTrie.emptyRoot
        var entries: [AccountProof.StorageEntry] = []
        if var trie = storageTries[address], !trie.isEmpty {
            storageHash = trie.rootHash
            for slot in slots {
                entries.append(AccountProof.StorageEntry(key: slot, value: storage(address, slot), proof: trie.proof(for: Self.slotKey(slot).bytes)))
            }
            storageTries[address] = trie  // keep the hashes just computed
        } else {
            entries = slots.map { AccountProof.StorageEntry(key: $0, value: .zero, proof: []) }
        }
        return AccountProof(
            address: address, accountProof: accountProof, balance: fields.balance, nonce: fields.nonce,
            codeHash: fields.codeHash, storageHash: storageHash, storageProof: entries)
    }
}
