import EthereumPrimitives

/// Merkle proofs (as in `eth_getProof`): the RLP encodings of the nodes on a key's path, root first.
/// Nodes embedded in their parent are not listed separately.
extension MerklePatriciaTrie {
    /// The proof for `key`: the encoded nodes from the root along the key's path. It proves the value
    /// when the key is present and its absence otherwise. Caches node hashes as ``rootHash`` does.
    public mutating func proof(for key: [UInt8]) -> [[UInt8]] {
        commit()
        guard var node = root else { return [[0x80]] }  // the empty trie's root node proves every key absent
        let path = Nibbles.from(key)
        var remaining = path[...]
        var proof: [[UInt8]] = []
        var isRoot = true
        while true {
            let encoding = node.encoded()
            if isRoot || encoding.count >= 32 { proof.append(encoding) }
            isRoot = false
            switch node.kind {
            case .leaf:
                return proof
            case .extension:
                guard remaining.starts(with: node.path), let child = node.children[0] else { return proof }
                remaining = remaining.dropFirst(node.path.count)
                node = child
            case .branch:
                guard let nibble = remaining.first, let child = node.children[Int(nibble)] else { return proof }
                remaining = remaining.dropFirst()
                node = child
            }
        }
    }

    /// Checks `proof` against `root` and returns the value it proves for `key`, or nil when it proves
    /// the key absent. Throws ``TrieError`` when the proof is incomplete or malformed.
    public static func verifyProof(root: Bytes32, key: [UInt8], proof: [[UInt8]]) throws(TrieError) -> [UInt8]? {
        var nodes: [Bytes32: [UInt8]] = [:]
        for encoding in proof { nodes[Keccak256.hash(encoding)] = encoding }

        enum Next {
            case hash(Bytes32)
            case embedded(RLPItem)
        }
        func reference(_ item: RLPItem, depth: Int) throws(TrieError) -> Next? {
            switch item {
            case .bytes(let bytes) where bytes.isEmpty: return nil
            case .bytes(let bytes) where bytes.count == 32:
                guard let hash = Bytes32(bytes) else { return nil }
                return .hash(hash)
            case .list: return .embedded(item)
            case .bytes(let bytes):
                throw .invalidProofNode(depth: depth, reason: "child reference of \(bytes.count) bytes")
            }
        }

        let path = Nibbles.from(key)
        var remaining = path[...]
        var next = Next.hash(root)
        while true {
            let depth = path.count - remaining.count
            let item: RLPItem
            switch next {
            case .embedded(let embedded):
                item = embedded
            case .hash(let hash):
                guard let encoding = nodes[hash] else {
                    if depth == 0 && hash == emptyRoot { return nil }
                    throw .missingProofNode(hash: hash, depth: depth)
                }
                do { item = try RLP.decode(encoding) } catch {
                    throw .invalidProofNode(depth: depth, reason: error.description)
                }
            }
            if case .bytes(let bytes) = item, bytes.isEmpty { return nil }  // the empty trie's root node
            guard case .list(let items) = item else {
                throw .invalidProofNode(depth: depth, reason: "node is a byte string, not a list")
            }
            switch items.count {
            case 17:
                guard let nibble = remaining.first else {
                    guard case .bytes(let value) = items[16] else {
                        throw .invalidProofNode(depth: depth, reason: "branch value is a list")
                    }
                    return value.isEmpty ? nil : value
                }
                remaining = remaining.dropFirst()
                guard let child = try reference(items[Int(nibble)], depth: depth) else { return nil }
                next = child
            case 2:
                guard case .bytes(let encodedPath) = items[0] else {
                    throw .invalidProofNode(depth: depth, reason: "node path is a list")
                }
                let (nodePath, isLeaf) = try HexPrefix.decode(encodedPath)
                if isLeaf {
                    guard nodePath.elementsEqual(remaining) else { return nil }
                    guard case .bytes(let value) = items[1] else {
                        throw .invalidProofNode(depth: depth, reason: "leaf value is a list")
                    }
                    return value
                }
                guard remaining.starts(with: nodePath) else { return nil }
                remaining = remaining.dropFirst(nodePath.count)
                guard let child = try reference(items[1], depth: depth) else {
                    throw .invalidProofNode(depth: depth, reason: "extension without a child")
                }
                next = child
            default:
                throw .invalidProofNode(depth: depth, reason: "list of \(items.count) items (expected 2 or 17)")
            }
        }
    }
}
