import EthereumPrimitives

/// A node of the in-memory Merkle-Patricia trie. Paths are nibble arrays relative to the node's
/// position. Each node remembers its reference (embedded encoding or hash) once computed, so after an
/// update only the nodes on the changed paths are re-encoded and re-hashed; nodes are immutable values
/// shared between copies of a trie, and updates copy the path from the root.
indirect enum TrieNode: Sendable {
    case empty
    /// The rest of a key and its value.
    case leaf(path: [UInt8], value: [UInt8], reference: NodeReference?)
    /// A shared run of nibbles leading to a branch.
    case `extension`(path: [UInt8], child: TrieNode, reference: NodeReference?)
    /// Sixteen children, one per next nibble, and the value of the key that ends here.
    case branch(children: [TrieNode], value: [UInt8]?, reference: NodeReference?)

    static let emptyChildren = [TrieNode](repeating: .empty, count: 16)

    var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }

    // MARK: Lookup

    func value(at path: ArraySlice<UInt8>) -> [UInt8]? {
        var node = self
        var path = path
        while true {
            switch node {
            case .empty:
                return nil
            case .leaf(let leafPath, let value, _):
                return leafPath.elementsEqual(path) ? value : nil
            case .extension(let extensionPath, let child, _):
                guard path.starts(with: extensionPath) else { return nil }
                path = path.dropFirst(extensionPath.count)
                node = child
            case .branch(let children, let value, _):
                guard let nibble = path.first else { return value }
                path = path.dropFirst()
                node = children[Int(nibble)]
            }
        }
    }

    // MARK: Insertion

    /// This node with `value` stored at `path` (relative to the node).
    func inserting(_ value: [UInt8], at path: ArraySlice<UInt8>) -> TrieNode {
        switch self {
        case .empty:
            return .leaf(path: Array(path), value: value, reference: nil)

        case .leaf(let leafPath, let leafValue, _):
            let common = Nibbles.commonPrefixLength(leafPath[...], path)
            if common == leafPath.count && common == path.count {
                return .leaf(path: leafPath, value: value, reference: nil)
            }
            var children = TrieNode.emptyChildren
            var branchValue: [UInt8]? = nil
            if common == leafPath.count {
                branchValue = leafValue
            } else {
                children[Int(leafPath[common])] = .leaf(
                    path: Array(leafPath[(common + 1)...]), value: leafValue, reference: nil)
            }
            let start = path.startIndex + common
            if common == path.count {
                branchValue = value
            } else {
                children[Int(path[start])] = .leaf(path: Array(path[(start + 1)...]), value: value, reference: nil)
            }
            return TrieNode.prefixed(Array(path.prefix(common)), .branch(children: children, value: branchValue, reference: nil))

        case .extension(let extensionPath, let child, _):
            let common = Nibbles.commonPrefixLength(extensionPath[...], path)
            if common == extensionPath.count {
                return .extension(
                    path: extensionPath, child: child.inserting(value, at: path.dropFirst(common)), reference: nil)
            }
            var children = TrieNode.emptyChildren
            var branchValue: [UInt8]? = nil
            let rest = extensionPath[(common + 1)...]
            children[Int(extensionPath[common])] =
                rest.isEmpty ? child : .extension(path: Array(rest), child: child, reference: nil)
            let start = path.startIndex + common
            if common == path.count {
                branchValue = value
            } else {
                children[Int(path[start])] = .leaf(path: Array(path[(start + 1)...]), value: value, reference: nil)
            }
            return TrieNode.prefixed(Array(path.prefix(common)), .branch(children: children, value: branchValue, reference: nil))

        case .branch(var children, let branchValue, _):
            guard let nibble = path.first else {
                return .branch(children: children, value: value, reference: nil)
            }
            let index = Int(nibble)
            children[index] = children[index].inserting(value, at: path.dropFirst())
            return .branch(children: children, value: branchValue, reference: nil)
        }
    }

    /// `node` behind an extension with `path`, or `node` itself for an empty path.
    private static func prefixed(_ path: [UInt8], _ node: TrieNode) -> TrieNode {
        path.isEmpty ? node : .extension(path: path, child: node, reference: nil)
    }

    // MARK: Deletion

    /// This node without the key at `path`, or nil when the key is absent (the node is unchanged).
    /// The result is normalized: no branch with a single entry, no extension to a non-branch.
    func deleting(at path: ArraySlice<UInt8>) -> TrieNode? {
        switch self {
        case .empty:
            return nil
        case .leaf(let leafPath, _, _):
            return leafPath.elementsEqual(path) ? .empty : nil
        case .extension(let extensionPath, let child, _):
            guard path.starts(with: extensionPath),
                let newChild = child.deleting(at: path.dropFirst(extensionPath.count))
            else { return nil }
            return TrieNode.joined(extensionPath, newChild)
        case .branch(var children, var value, _):
            if let nibble = path.first {
                guard let newChild = children[Int(nibble)].deleting(at: path.dropFirst()) else { return nil }
                children[Int(nibble)] = newChild
            } else {
                guard value != nil else { return nil }
                value = nil
            }
            return TrieNode.normalizedBranch(children, value)
        }
    }

    /// `child` reached through `path`, merged into it when it is a leaf or an extension.
    private static func joined(_ path: [UInt8], _ child: TrieNode) -> TrieNode {
        switch child {
        case .empty: return .empty
        case .leaf(let rest, let value, _): return .leaf(path: path + rest, value: value, reference: nil)
        case .extension(let rest, let grandchild, _):
            return .extension(path: path + rest, child: grandchild, reference: nil)
        case .branch: return .extension(path: path, child: child, reference: nil)
        }
    }

    /// A branch with these entries, collapsed when it holds fewer than two.
    private static func normalizedBranch(_ children: [TrieNode], _ value: [UInt8]?) -> TrieNode {
        var only = -1
        var count = 0
        for i in 0..<16 where !children[i].isEmpty {
            count += 1
            only = i
        }
        if count + (value == nil ? 0 : 1) >= 2 {
            return .branch(children: children, value: value, reference: nil)
        }
        if let value { return .leaf(path: [], value: value, reference: nil) }
        if count == 0 { return .empty }
        return joined([UInt8(only)], children[only])
    }

    // MARK: Encoding and hashing

    /// The node's reference, computed without storing it (cached references of children are used).
    var reference: NodeReference {
        switch self {
        case .leaf(_, _, let cached?), .extension(_, _, let cached?), .branch(_, _, let cached?):
            return cached
        default:
            return NodeReference(encoding: encoded())
        }
    }

    /// The node's RLP encoding (the empty node is the empty string, 0x80).
    func encoded() -> [UInt8] {
        switch self {
        case .empty:
            return [0x80]
        case .leaf(let path, let value, _):
            return TrieNode.encodePair(HexPrefix.encode(nibbles: path, isLeaf: true)) { out in
                NodeRLP.appendString(value, to: &out)
            } size: { NodeRLP.stringSize(value) }
        case .extension(let path, let child, _):
            let childReference = child.reference
            return TrieNode.encodePair(HexPrefix.encode(nibbles: path, isLeaf: false)) { out in
                childReference.append(to: &out)
            } size: { childReference.encodedSize }
        case .branch(let children, let value, _):
            return TrieNode.encodeBranch(children.map { $0.reference }, value)
        }
    }

    /// Computes and stores the references of this node and every descendant that has none, and returns
    /// this node's reference.
    mutating func commit() -> NodeReference {
        switch self {
        case .empty:
            return .inline([0x80])
        case .leaf(_, _, let cached?), .extension(_, _, let cached?), .branch(_, _, let cached?):
            return cached
        case .leaf(let path, let value, nil):
            let reference = NodeReference(encoding: encoded())
            self = .leaf(path: path, value: value, reference: reference)
            return reference
        case .extension(let path, var child, nil):
            self = .empty  // release our hold on `child` so committing it does not copy
            _ = child.commit()
            let node = TrieNode.extension(path: path, child: child, reference: nil)
            let reference = NodeReference(encoding: node.encoded())
            self = .extension(path: path, child: child, reference: reference)
            return reference
        case .branch(var children, let value, nil):
            self = .empty
            var references = [NodeReference]()
            references.reserveCapacity(16)
            for i in 0..<16 { references.append(children[i].commit()) }
            let reference = NodeReference(encoding: TrieNode.encodeBranch(references, value))
            self = .branch(children: children, value: value, reference: reference)
            return reference
        }
    }

    /// RLP of a two-item node: the hex-prefix path as a string, then the second item.
    private static func encodePair(
        _ path: [UInt8], second: (inout [UInt8]) -> Void, size: () -> Int
    ) -> [UInt8] {
        let payload = NodeRLP.stringSize(path) + size()
        var out = [UInt8]()
        out.reserveCapacity(NodeRLP.headerSize(payload) + payload)
        NodeRLP.appendHeader(payload, base: 0xC0, to: &out)
        NodeRLP.appendString(path, to: &out)
        second(&out)
        return out
    }

    /// RLP of a branch: seventeen items, the children's references and the value (empty string if none).
    private static func encodeBranch(_ references: [NodeReference], _ value: [UInt8]?) -> [UInt8] {
        var payload = 0
        for reference in references { payload += reference.encodedSize }
        payload += value.map { NodeRLP.stringSize($0) } ?? 1
        var out = [UInt8]()
        out.reserveCapacity(NodeRLP.headerSize(payload) + payload)
        NodeRLP.appendHeader(payload, base: 0xC0, to: &out)
        for reference in references { reference.append(to: &out) }
        if let value { NodeRLP.appendString(value, to: &out) } else { out.append(0x80) }
        return out
    }
}
