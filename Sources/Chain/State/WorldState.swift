import EVM
import EthereumPrimitives
import EthereumTrie

/// The world state: every account by address. A value type; copies share storage until written.
public struct WorldState: Sendable, Equatable {
    /// The accounts.
    public var accounts: [Address: Account]
    /// On a forked chain, where accounts and slots not held in ``accounts`` come from (Fork/ForkOverlay.swift).
    public var fork: ForkOverlay?

    /// Creates a state with `accounts`.
    public init(accounts: [Address: Account] = [:], fork: ForkOverlay? = nil) {
        self.accounts = accounts
        self.fork = fork
    }

    /// The account at `address`, if it exists.
    public subscript(address: Address) -> Account? {
        get { accounts[address] }
        set { accounts[address] = newValue }
    }

    /// The state root: the root of the secure trie mapping keccak256(address) to
    /// rlp([nonce, balance, storageRoot, codeHash]).
    public var stateRoot: Bytes32 {
        var trie = MerklePatriciaTrie()
        for (address, account) in accounts {
            let body = RLPItem.list([
                RLPItem(unsignedInteger: account.nonce),
                .bytes(account.balance.minimalBigEndianBytes),
                .bytes(Self.storageRoot(account.storage).bytes),
                .bytes(account.codeHash.bytes),
            ])
            trie.set(Keccak256.hash(address.bytes).bytes, RLP.encode(body))
        }
        return trie.rootHash
    }

    /// The storage root of one account: keccak256(slot) → rlp(value), zero slots omitted.
    public static func storageRoot(_ storage: [UInt256: UInt256]) -> Bytes32 {
        if storage.isEmpty { return MerklePatriciaTrie.emptyRoot }
        var trie = MerklePatriciaTrie()
        for (key, value) in storage where !value.isZero {
            trie.set(Keccak256.hash(key.bigEndianBytes).bytes, RLP.encode(.bytes(value.minimalBigEndianBytes)))
        }
        return trie.rootHash
    }
}
