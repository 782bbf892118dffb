import EthereumPrimitives

/// An in-memory Merkle-Patricia trie (Ethereum Yellow Paper, appendix D): byte keys to byte values,
/// with leaf, extension and branch nodes, nodes under 32 bytes embedded in their parent, and the root
/// hash as the Keccak-256 of the root node's RLP encoding.
///
/// A value type: copies share their nodes, and an update changes a node in place only when no other copy holds
/// it (a shared node on the updated path is copied first). Node references are cached, so reading ``rootHash``
/// after a few updates re-hashes only the changed paths.
public struct MerklePatriciaTrie: Sendable {
    var root: TrieNode?

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
    public var isEmpty: Bool { root == nil }

    /// Calls `body` with the nibbles of `key`, high nibble first.
    @inline(__always)
    static func withNibbles<R>(_ key: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: key.count * 2) { buffer in
            for (i, byte) in key.enumerated() {
                buffer[2 * i] = byte >> 4
                buffer[2 * i + 1] = byte & 0x0F
            }
            return body(UnsafeBufferPointer(buffer))
        }
    }

    @inline(__always)
    static func withNibbles<R>(_ key: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        key.withUnsafeBytes { withNibbles($0, body) }
    }

    @inline(__always)
    static func withNibbles<R>(_ key: Bytes32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        key.withUnsafeBytes { withNibbles($0, body) }
    }

    /// Stores `value` under `key`; an empty value deletes the key (the trie never stores empty values).
    public mutating func set(_ key: [UInt8], _ value: [UInt8]) {
        Self.withNibbles(key) { set(path: $0, value) }
    }

    /// ``set(_:_:)`` for a 32-byte key (a secure trie's hashed key), without an array for it.
    public mutating func set(_ key: Bytes32, _ value: [UInt8]) {
        Self.withNibbles(key) { set(path: $0, value) }
    }

    private mutating func set(path: UnsafeBufferPointer<UInt8>, _ value: [UInt8]) {
        if value.isEmpty {
            delete(path: path)
        } else {
            TrieNode.insert(&root, key: path, from: 0, value: value)
        }
    }

    /// Stores `value` under `key` (an empty value deletes) and returns the value it replaced, nil when the key was
    /// absent. Writing the value a key already holds changes nothing, so nothing is re-hashed for it.
    @discardableResult
    public mutating func update(_ key: [UInt8], _ value: [UInt8]) -> [UInt8]? {
        Self.withNibbles(key) { update(path: $0, value) }
    }

    /// ``update(_:_:)`` for a 32-byte key (a secure trie's hashed key), without an array for it.
    @discardableResult
    public mutating func update(_ key: Bytes32, _ value: [UInt8]) -> [UInt8]? {
        Self.withNibbles(key) { update(path: $0, value) }
    }

    private mutating func update(path: UnsafeBufferPointer<UInt8>, _ value: [UInt8]) -> [UInt8]? {
        let old = TrieNode.value(in: root, key: path, from: 0)
        if value.isEmpty {
            if old != nil { TrieNode.delete(&root, key: path, from: 0) }
        } else if old != value {
            TrieNode.insert(&root, key: path, from: 0, value: value)
        }
        return old
    }

    /// Removes `key` if present.
    public mutating func delete(_ key: [UInt8]) {
        Self.withNibbles(key) { delete(path: $0) }
    }

    /// ``delete(_:)`` for a 32-byte key (a secure trie's hashed key), without an array for it.
    public mutating func delete(_ key: Bytes32) {
        Self.withNibbles(key) { delete(path: $0) }
    }

    private mutating func delete(path: UnsafeBufferPointer<UInt8>) {
        guard TrieNode.value(in: root, key: path, from: 0) != nil else { return }
        TrieNode.delete(&root, key: path, from: 0)
    }

    /// The value stored under `key`, or nil.
    public func get(_ key: [UInt8]) -> [UInt8]? {
        Self.withNibbles(key) { TrieNode.value(in: root, key: $0, from: 0) }
    }

    /// ``get(_:)`` for a 32-byte key (a secure trie's hashed key), without an array for it.
    public func get(_ key: Bytes32) -> [UInt8]? {
        Self.withNibbles(key) { TrieNode.value(in: root, key: $0, from: 0) }
    }

    /// The root hash. Reading it caches the hashes of all nodes, so the next read after a few updates
    /// re-hashes only the changed paths.
    public var rootHash: Bytes32 {
        mutating get {
            commit()
            guard let node = root else { return Self.emptyRoot }
            // The root is hashed whatever its size.
            return node.inlineEncoding.isEmpty ? node.hash : Keccak256.hash(node.inlineEncoding)
        }
    }

    /// Caches the references of every node (as reading ``rootHash`` does) so the root node can be encoded.
    mutating func commit() {
        guard root?.isCommitted == false else { return }
        var tries = [self]
        self = MerklePatriciaTrie()  // the list's reference alone, so the nodes no other trie holds are committed in place
        Self.commit(&tries)
        self = tries[0]
    }

    /// Caches the node references of several tries at once, as reading each one's ``rootHash`` would, so that their
    /// changed nodes are hashed side by side, level by level (``Keccak256/hashes(of:ranges:)``): a block's storage
    /// tries, before the account trie takes their roots. Each ``rootHash`` read afterwards costs nothing more.
    public static func commit(_ tries: inout [MerklePatriciaTrie]) {
        var roots: [TrieNode] = []
        var owners: [Int] = []
        for i in tries.indices {
            guard let node = tries[i].root, !node.isCommitted else { continue }
            roots.append(node)
            owners.append(i)
            tries[i].root = nil
        }
        guard !roots.isEmpty else { return }
        TrieNode.commit(&roots)
        for (k, i) in owners.enumerated() { tries[i].root = roots[k] }
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
    public static func root(ofList items: some Collection<[UInt8]>) -> Bytes32 {
        if items.count == 1, let item = items.first, !item.isEmpty {
            // One leaf under key RLP(0) = 0x80: rlp([hex-prefix of nibbles 8, 0 as a leaf = 0x20 0x80, item]).
            let payload = 3 + RLP.stringSize(item)
            var leaf: [UInt8] = []
            leaf.reserveCapacity(RLP.headerSize(payload: payload) + payload)
            RLP.appendHeader(payload: payload, list: true, to: &leaf)
            leaf += [0x82, 0x20, 0x80]
            RLP.appendString(item, to: &leaf)
            return Keccak256.hash(leaf)
        }
        var trie = MerklePatriciaTrie()
        for (index, item) in items.enumerated() { trie.set(listKey(index), item) }
        return trie.rootHash
    }

    /// `RLP(index)`, the key of a list trie's item `index`.
    static func listKey(_ index: Int) -> [UInt8] {
        if index == 0 { return [0x80] }
        if index < 0x80 { return [UInt8(index)] }
        let bytes = minimalBigEndian(index)
        return [0x80 + UInt8(bytes.count)] + bytes
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
