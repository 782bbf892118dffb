import EthereumPrimitives

/// An in-memory Merkle-Patricia trie (Ethereum Yellow Paper, appendix D): byte keys to byte values,
/// with leaf, extension and branch nodes, nodes under 32 bytes embedded in their parent, and the root
/// hash as the Keccak-256 of the root node's RLP encoding.
///
/// A value type: copies share their nodes and diverge on update (the path from the root is copied).
/// Node references are cached, so reading ``rootHash`` after a few updates re-hashes only the
/// changed paths.
public struct MerklePatriciaTrie: Sendable {
    var root: TrieNode = .empty

    /// The root hash of the empty trie: Keccak-256 of RLP("") (`0x56e81f…b421`).
    public static let emptyRoot = Keccak256.hash([0x80] as [UInt8])

    /// An empty trie.
    public init() {}

    /// A trie holding `pairs`; later pairs overwrite earlier ones with the same key, and an empty
    /// value deletes.
    public init(_ pairs: some Sequence<([UInt8], [UInt8])>) {
        for (key, value) in pairs { set(key, value) }
    }

    /// True when the trie holds no keys.
    public var isEmpty: Bool { root.isEmpty }

    /// Stores `value` under `key`; an empty value deletes the key (the trie never stores empty values).
    public mutating func set(_ key: [UInt8], _ value: [UInt8]) {
        if value.isEmpty {
            delete(key)
            return
        }
        let path = Nibbles.from(key)
        root = root.inserting(value, at: path[...])
    }

    /// Removes `key` if present.
    public mutating func delete(_ key: [UInt8]) {
        let path = Nibbles.from(key)
        if let node = root.deleting(at: path[...]) { root = node }
    }

    /// The value stored under `key`, or nil.
    public func get(_ key: [UInt8]) -> [UInt8]? {
        let path = Nibbles.from(key)
        return root.value(at: path[...])
    }

    /// The root hash. Reading it caches the hashes of all nodes, so the next read after a few updates
    /// re-hashes only the changed paths.
    public var rootHash: Bytes32 {
        mutating get {
            switch root.commit() {
            case .hash(let hash): return hash
            case .inline(let encoding): return Keccak256.hash(encoding)  // the root is hashed whatever its size
            }
        }
    }

    /// The root hash, computed without caching (for a `let` trie); prefer ``rootHash`` when updating.
    public func computeRootHash() -> Bytes32 {
        var copy = self
        return copy.rootHash
    }

    /// The root hash of a trie holding `pairs` (later pairs overwrite earlier ones; empty values
    /// delete). Used for transaction, receipt and withdrawal roots, where keys are `RLP(index)`.
    public static func root(of pairs: some Sequence<([UInt8], [UInt8])>) -> Bytes32 {
        var trie = MerklePatriciaTrie(pairs)
        return trie.rootHash
    }

    /// The root hash of a list trie: item `i` stored under key `RLP(i)`, as for the transactions,
    /// receipts and withdrawals of a block.
    public static func root(ofList items: some Sequence<[UInt8]>) -> Bytes32 {
        root(of: items.enumerated().map { (RLP.encode(RLPItem.bytes(minimalBigEndian($0.offset))), $0.element) })
    }

    static func minimalBigEndian(_ n: Int) -> [UInt8] {
        var out = [UInt8]()
        var v = UInt64(n)
        while v > 0 {
            out.insert(UInt8(truncatingIfNeeded: v), at: 0)
            v >>= 8
        }
        return out
    }
}
