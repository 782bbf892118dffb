import EthereumPrimitives

/// A node of the in-memory Merkle-Patricia trie: a leaf (the rest of a key and its value), an extension (a shared
/// run of nibbles leading to a branch) or a branch (sixteen children and the value of the key that ends there).
/// Paths are nibble arrays relative to the node's position.
///
/// Nodes are objects shared between copies of a trie and changed in place only when no other trie holds them
/// (`isKnownUniquelyReferenced`); a shared node is copied first, so copies of a trie never see each other's
/// updates (value semantics, as for an array). A trie updated block after block without being copied therefore
/// allocates nothing on the paths it changes but new leaves. Each node caches its reference (embedded encoding
/// or hash) until it changes, so a root hash after a few updates re-encodes and re-hashes only the changed
/// paths.
final class TrieNode: @unchecked Sendable {
    enum Kind: UInt8 {
        case leaf
        case `extension`
        case branch
    }

    // Unchecked exclusivity: a node is only written through a unique reference (see above), so the dynamic
    // checks a class property otherwise costs on every `inout` access would find nothing.
    @exclusivity(unchecked) var kind: Kind
    /// Leaf and extension: the nibbles of the path.
    @exclusivity(unchecked) var path: [UInt8]
    /// Leaf: the value (never empty); branch: the value of the key ending here, if any.
    @exclusivity(unchecked) var value: [UInt8]?
    /// Extension: one child (a branch); branch: sixteen, nil where empty.
    @exclusivity(unchecked) var children: ContiguousArray<TrieNode?>
    /// Whether ``hash`` or ``inlineEncoding`` is the node's reference as of now (false after a change).
    @exclusivity(unchecked) var isCommitted = false
    /// The Keccak-256 of the node's encoding, when that is 32 bytes or longer.
    @exclusivity(unchecked) var hash = Bytes32.zero
    /// The node's encoding, when shorter than 32 bytes (embedded in the parent); empty otherwise.
    @exclusivity(unchecked) var inlineEncoding: [UInt8] = []

    private init(kind: Kind, path: [UInt8], value: [UInt8]?, children: ContiguousArray<TrieNode?>) {
        self.kind = kind
        self.path = path
        self.value = value
        self.children = children
    }

    static func leaf(_ path: [UInt8], _ value: [UInt8]) -> TrieNode {
        TrieNode(kind: .leaf, path: path, value: value, children: [])
    }

    static func `extension`(_ path: [UInt8], _ child: TrieNode) -> TrieNode {
        TrieNode(kind: .extension, path: path, value: nil, children: [child])
    }

    static func branch(_ children: ContiguousArray<TrieNode?>, _ value: [UInt8]?) -> TrieNode {
        TrieNode(kind: .branch, path: [], value: value, children: children)
    }

    static let noChildren = ContiguousArray<TrieNode?>(repeating: nil, count: 16)

    /// A shallow copy (children shared), to be changed in place of a shared node.
    func copy() -> TrieNode {
        let node = TrieNode(kind: kind, path: path, value: value, children: children)
        node.isCommitted = isCommitted
        node.hash = hash
        node.inlineEncoding = inlineEncoding
        return node
    }

    /// Replaces a shared node in `slot` by a copy, so it can be changed in place.
    @inline(__always)
    static func makeUnique(_ slot: inout TrieNode) {
        if !isKnownUniquelyReferenced(&slot) { slot = slot.copy() }
    }

    // MARK: Lookup

    /// The value stored at `key[from...]` below `node`.
    static func value(in node: TrieNode?, key: UnsafeBufferPointer<UInt8>, from: Int) -> [UInt8]? {
        var node = node
        var position = from
        while let current = node {
            switch current.kind {
            case .leaf:
                let path = current.path
                guard path.count == key.count - position else { return nil }
                for i in 0..<path.count where path[i] != key[position + i] { return nil }
                return current.value
            case .extension:
                let path = current.path
                guard path.count <= key.count - position else { return nil }
                for i in 0..<path.count where path[i] != key[position + i] { return nil }
                position += path.count
                node = current.children[0]
            case .branch:
                guard position < key.count else { return current.value }
                node = current.children[Int(key[position])]
                position += 1
            }
        }
        return nil
    }

    // MARK: Insertion

    /// Stores `value` at `key[from...]` in the subtree at `slot` (nil: empty).
    static func insert(_ slot: inout TrieNode?, key: UnsafeBufferPointer<UInt8>, from: Int, value: [UInt8]) {
        guard var node = slot else {
            slot = .leaf(Array(key[from...]), value)
            return
        }
        slot = nil  // our reference alone, so a node no other trie holds is changed in place
        makeUnique(&node)
        node.isCommitted = false
        switch node.kind {
        case .leaf:
            let common = commonPrefix(node.path, key, from)
            let rest = key.count - from
            if common == node.path.count && common == rest {
                node.value = value
                slot = node
                return
            }
            var children = noChildren
            var branchValue: [UInt8]?
            if common == node.path.count {
                branchValue = node.value
            } else {
                let nibble = Int(node.path[common])
                node.path = Array(node.path[(common + 1)...])
                children[nibble] = node
            }
            if common == rest {
                branchValue = value
            } else {
                children[Int(key[from + common])] = .leaf(Array(key[(from + common + 1)...]), value)
            }
            slot = prefixed(Array(key[from..<(from + common)]), .branch(children, branchValue))

        case .extension:
            let common = commonPrefix(node.path, key, from)
            if common == node.path.count {
                insert(&node.children[0], key: key, from: from + common, value: value)
                slot = node
                return
            }
            var children = noChildren
            var branchValue: [UInt8]?
            let nibble = Int(node.path[common])
            if common + 1 == node.path.count {
                children[nibble] = node.children[0]
            } else {
                node.path = Array(node.path[(common + 1)...])
                children[nibble] = node
            }
            if common == key.count - from {
                branchValue = value
            } else {
                children[Int(key[from + common])] = .leaf(Array(key[(from + common + 1)...]), value)
            }
            slot = prefixed(Array(key[from..<(from + common)]), .branch(children, branchValue))

        case .branch:
            if from == key.count {
                node.value = value
            } else {
                insert(&node.children[Int(key[from])], key: key, from: from + 1, value: value)
            }
            slot = node
        }
    }

    /// `node` behind an extension with `path`, or `node` itself for an empty path.
    private static func prefixed(_ path: [UInt8], _ node: TrieNode) -> TrieNode {
        path.isEmpty ? node : .extension(path, node)
    }

    /// The length of the common prefix of `path` and `key[from...]`.
    @inline(__always)
    private static func commonPrefix(_ path: [UInt8], _ key: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        let n = Swift.min(path.count, key.count - from)
        var i = 0
        while i < n && path[i] == key[from + i] { i += 1 }
        return i
    }

    // MARK: Deletion

    /// Removes the key at `key[from...]`, which must be present (``value(in:key:from:)``), from the subtree at
    /// `slot`. The result is normalized: no branch with a single entry, no extension to a non-branch.
    static func delete(_ slot: inout TrieNode?, key: UnsafeBufferPointer<UInt8>, from: Int) {
        guard var node = slot else { return }
        if node.kind == .leaf {
            slot = nil
            return
        }
        slot = nil
        makeUnique(&node)
        node.isCommitted = false
        switch node.kind {
        case .leaf:
            return
        case .extension:
            delete(&node.children[0], key: key, from: from + node.path.count)
            slot = joined(node)
        case .branch:
            if from == key.count {
                node.value = nil
            } else {
                delete(&node.children[Int(key[from])], key: key, from: from + 1)
            }
            slot = normalizedBranch(node)
        }
    }

    /// An extension (changed in place) whose child changed: merged with a leaf or extension child, dropped with
    /// an empty one.
    private static func joined(_ node: TrieNode) -> TrieNode? {
        guard let child = node.children[0] else { return nil }
        switch child.kind {
        case .branch:
            return node
        case .leaf:
            return .leaf(node.path + child.path, child.value ?? [])
        case .extension:
            return .extension(node.path + child.path, child.children[0] ?? child)
        }
    }

    /// A branch (changed in place) that lost an entry, collapsed when it holds fewer than two.
    private static func normalizedBranch(_ node: TrieNode) -> TrieNode? {
        var only = -1
        var count = 0
        for i in 0..<16 where node.children[i] != nil {
            count += 1
            only = i
        }
        if count + (node.value == nil ? 0 : 1) >= 2 { return node }
        if let value = node.value { return .leaf([], value) }
        guard count == 1, let child = node.children[only] else { return nil }
        switch child.kind {
        case .leaf: return .leaf([UInt8(only)] + child.path, child.value ?? [])
        case .extension: return .extension([UInt8(only)] + child.path, child.children[0] ?? child)
        case .branch: return .extension([UInt8(only)], child)
        }
    }

    // MARK: Encoding and hashing

    /// The size of this node's reference inside its parent's encoding (committed nodes only).
    @inline(__always)
    var referenceSize: Int { inlineEncoding.isEmpty ? 33 : inlineEncoding.count }

    /// Appends this node's reference as its parent's encoding holds it: the embedded encoding, or the hash as a
    /// 32-byte RLP string (committed nodes only).
    @inline(__always)
    func appendReference(to out: inout [UInt8]) {
        if inlineEncoding.isEmpty {
            out.append(0xA0)
            hash.withUnsafeBytes { out.append(contentsOf: $0) }
        } else {
            out.append(contentsOf: inlineEncoding)
        }
    }

    /// Computes and caches the references of the nodes in `roots` and of every descendant that has none (copying
    /// shared nodes first), several tries at once. The changed nodes are grouped by height (a node's height is one
    /// more than its highest changed child's), and each height is encoded and then hashed side by side
    /// (``Keccak256/hashes(of:ranges:into:)``): the nodes of one height depend only on lower ones.
    static func commit(_ roots: inout [TrieNode]) {
        var changed: [(node: TrieNode, height: Int)] = []
        // Room for a block's changed paths at once (a few dozen nodes), rather than growth by doubling from one.
        changed.reserveCapacity(64)
        var top = 0
        for i in roots.indices where !roots[i].isCommitted { top = Swift.max(top, collect(&roots[i], into: &changed)) }
        guard !changed.isEmpty else { return }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1024)
        let room = Swift.min(changed.count, Self.hashBatch)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(room)
        var hashed: [TrieNode] = []
        hashed.reserveCapacity(room)
        var digests: [Bytes32] = []
        digests.reserveCapacity(room)
        // Hashes the encodings gathered so far; a trie built from scratch (a genesis of a million accounts) is hashed
        // in batches, so the buffer stays small.
        func hashGathered() {
            buffer.withUnsafeBytes { Keccak256.hashes(of: $0, ranges: ranges, into: &digests) }
            for (node, digest) in zip(hashed, digests) {
                node.inlineEncoding = []
                node.hash = digest
                node.isCommitted = true
            }
            buffer.removeAll(keepingCapacity: true)
            ranges.removeAll(keepingCapacity: true)
            hashed.removeAll(keepingCapacity: true)
        }
        for height in 0...top {
            for (node, nodeHeight) in changed where nodeHeight == height {
                let start = buffer.count
                node.appendEncoding(to: &buffer)
                if buffer.count - start < 32 {
                    node.inlineEncoding = Array(buffer[start...])
                    node.isCommitted = true
                    buffer.removeSubrange(start...)
                } else {
                    ranges.append(start..<buffer.count)
                    hashed.append(node)
                    if ranges.count == Self.hashBatch { hashGathered() }
                }
            }
            hashGathered()
        }
    }

    /// The most encodings ``commit(_:)`` gathers before hashing them: a block's changed nodes of one height are far
    /// fewer, and a trie built from scratch keeps a buffer of about 0.5 MiB.
    private static let hashBatch = 1024

    /// Adds the uncommitted node in `slot` (made unique first) and its uncommitted descendants to `changed` with their
    /// heights; returns the node's height.
    private static func collect(_ slot: inout TrieNode, into changed: inout [(node: TrieNode, height: Int)]) -> Int {
        makeUnique(&slot)
        let node = slot
        var height = 0
        // Children are tested in place, not bound to a local: a second reference held across the recursive call
        // would make `makeUnique` copy every changed node.
        switch node.kind {
        case .leaf:
            break
        case .extension:
            if node.children[0]?.isCommitted == false { height = collect(&node.children[0]!, into: &changed) + 1 }
        case .branch:
            for i in 0..<16 where node.children[i]?.isCommitted == false {
                height = Swift.max(height, collect(&node.children[i]!, into: &changed) + 1)
            }
        }
        changed.append((node, height))
        return height
    }

    /// The node's RLP encoding; every child must be committed (``commit(_:)``).
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    /// Writes the node's RLP encoding into `out` (replacing its contents); children must be committed.
    func encode(into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        appendEncoding(to: &out)
    }

    /// Appends the node's RLP encoding to `out`; children must be committed.
    func appendEncoding(to out: inout [UInt8]) {
        switch kind {
        case .leaf:
            let value = self.value ?? []
            let payload = HexPrefix.encodedSize(nibbles: path.count) + RLP.stringSize(value)
            RLP.appendHeader(payload: payload, list: true, to: &out)
            HexPrefix.appendEncoded(path, isLeaf: true, to: &out)
            RLP.appendString(value, to: &out)
        case .extension:
            let child = children[0]
            let payload = HexPrefix.encodedSize(nibbles: path.count) + (child?.referenceSize ?? 1)
            RLP.appendHeader(payload: payload, list: true, to: &out)
            HexPrefix.appendEncoded(path, isLeaf: false, to: &out)
            if let child { child.appendReference(to: &out) } else { out.append(0x80) }
        case .branch:
            var payload = value.map { RLP.stringSize($0) } ?? 1
            for i in 0..<16 { payload += children[i]?.referenceSize ?? 1 }
            RLP.appendHeader(payload: payload, list: true, to: &out)
            for i in 0..<16 {
                if let child = children[i] { child.appendReference(to: &out) } else { out.append(0x80) }
            }
            if let value { RLP.appendString(value, to: &out) } else { out.append(0x80) }
        }
    }
}
