import EthereumPrimitives

/// A Merkle-Patricia trie whose keys are hashed with Keccak-256 before use, as Ethereum's state and
/// storage tries are (the "secure trie"): paths have a fixed length of 64 nibbles, whatever the keys.
public struct SecureTrie: Sendable {
    /// The underlying trie, keyed by `keccak256(key)`.
    public private(set) var trie = MerklePatriciaTrie()

    /// An empty trie.
    public init() {}

    /// True when the trie holds no keys.
    public var isEmpty: Bool { trie.isEmpty }

    /// Stores `value` under `key` (hashed); an empty value deletes.
    public mutating func set(_ key: [UInt8], _ value: [UInt8]) { trie.set(Keccak256.hash(key), value) }

    /// Removes `key` if present.
    public mutating func delete(_ key: [UInt8]) { trie.delete(Keccak256.hash(key)) }

    /// The value stored under `key`, or nil.
    public func get(_ key: [UInt8]) -> [UInt8]? { trie.get(Keccak256.hash(key)) }

    /// The root hash (cached as in ``MerklePatriciaTrie/rootHash``).
    public var rootHash: Bytes32 { mutating get { trie.rootHash } }

    /// The root hash, computed without caching.
    public func computeRootHash() -> Bytes32 { trie.computeRootHash() }

    /// The proof for `key`: the nodes on the path of `keccak256(key)`.
    public mutating func proof(for key: [UInt8]) -> [[UInt8]] { trie.proof(for: Self.hashedKey(key)) }

    /// Verifies a proof made by ``proof(for:)``; returns the proven value, or nil for a proven absence.
    public static func verifyProof(root: Bytes32, key: [UInt8], proof: [[UInt8]]) throws(TrieError) -> [UInt8]? {
        try MerklePatriciaTrie.verifyProof(root: root, key: hashedKey(key), proof: proof)
    }

    /// The path a key takes: its Keccak-256 hash.
    public static func hashedKey(_ key: [UInt8]) -> [UInt8] { Keccak256.hash(key).bytes }
}
