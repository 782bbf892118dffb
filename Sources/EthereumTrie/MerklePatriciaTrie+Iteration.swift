/// Ordered access: keys in lexicographic byte order, which is the order of their nibble paths.
extension MerklePatriciaTrie {
    /// Every key and value, in ascending key order.
    public var entries: [(key: [UInt8], value: [UInt8])] {
        var out: [(key: [UInt8], value: [UInt8])] = []
        var prefix: [UInt8] = []
        if let root { TrieNode.collect(root, prefix: &prefix, into: &out) }
        return out
    }

    /// The entry with the smallest key greater than `key`, or nil.
    public func entry(after key: [UInt8]) -> (key: [UInt8], value: [UInt8])? {
        var prefix: [UInt8] = []
        let target = Nibbles.from(key)
        return root?.successor(of: target[...], prefix: &prefix).map { (Nibbles.toBytes($0.path), $0.value) }
    }

    /// The entry with the largest key less than `key`, or nil.
    public func entry(before key: [UInt8]) -> (key: [UInt8], value: [UInt8])? {
        var prefix: [UInt8] = []
        let target = Nibbles.from(key)
        return root?.predecessor(of: target[...], prefix: &prefix).map { (Nibbles.toBytes($0.path), $0.value) }
    }
}

extension TrieNode {
    static func collect(_ node: TrieNode, prefix: inout [UInt8], into out: inout [(key: [UInt8], value: [UInt8])]) {
        switch node.kind {
        case .leaf:
            out.append((Nibbles.toBytes(prefix + node.path), node.value ?? []))
        case .extension:
            prefix.append(contentsOf: node.path)
            if let child = node.children[0] { collect(child, prefix: &prefix, into: &out) }
            prefix.removeLast(node.path.count)
        case .branch:
            if let value = node.value { out.append((Nibbles.toBytes(prefix), value)) }
            for i in 0..<16 {
                guard let child = node.children[i] else { continue }
                prefix.append(UInt8(i))
                collect(child, prefix: &prefix, into: &out)
                prefix.removeLast()
            }
        }
    }

    /// Lexicographic comparison of nibble sequences: -1, 0 or 1.
    private static func compare(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Int {
        var ia = a.makeIterator(), ib = b.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    /// The smallest entry in this subtree (full path from the root, value).
    func minimum(prefix: inout [UInt8]) -> (path: [UInt8], value: [UInt8])? {
        switch kind {
        case .leaf: return (prefix + path, value ?? [])
        case .extension:
            prefix.append(contentsOf: path)
            defer { prefix.removeLast(path.count) }
            return children[0]?.minimum(prefix: &prefix)
        case .branch:
            if let value { return (prefix, value) }
            for i in 0..<16 {
                guard let child = children[i] else { continue }
                prefix.append(UInt8(i))
                defer { prefix.removeLast() }
                return child.minimum(prefix: &prefix)
            }
            return nil
        }
    }

    /// The largest entry in this subtree.
    func maximum(prefix: inout [UInt8]) -> (path: [UInt8], value: [UInt8])? {
        switch kind {
        case .leaf: return (prefix + path, value ?? [])
        case .extension:
            prefix.append(contentsOf: path)
            defer { prefix.removeLast(path.count) }
            return children[0]?.maximum(prefix: &prefix)
        case .branch:
            for i in stride(from: 15, through: 0, by: -1) {
                guard let child = children[i] else { continue }
                prefix.append(UInt8(i))
                defer { prefix.removeLast() }
                return child.maximum(prefix: &prefix)
            }
            return value.map { (prefix, $0) }
        }
    }

    /// The smallest entry whose path (relative to this node) is greater than `target`.
    func successor(of target: ArraySlice<UInt8>, prefix: inout [UInt8]) -> (path: [UInt8], value: [UInt8])? {
        switch kind {
        case .leaf:
            return TrieNode.compare(path, target) > 0 ? (prefix + path, value ?? []) : nil
        case .extension:
            let order = TrieNode.compare(path, target.prefix(path.count))
            if order < 0 { return nil }
            prefix.append(contentsOf: path)
            defer { prefix.removeLast(path.count) }
            if order > 0 { return children[0]?.minimum(prefix: &prefix) }
            return children[0]?.successor(of: target.dropFirst(path.count), prefix: &prefix)
        case .branch:
            guard let first = target.first else {
                // The branch's own value has exactly the target's path; only its children are greater.
                for i in 0..<16 {
                    guard let child = children[i] else { continue }
                    prefix.append(UInt8(i))
                    defer { prefix.removeLast() }
                    return child.minimum(prefix: &prefix)
                }
                return nil
            }
            let index = Int(first)
            prefix.append(first)
            if let found = children[index]?.successor(of: target.dropFirst(), prefix: &prefix) {
                prefix.removeLast()
                return found
            }
            prefix.removeLast()
            for i in (index + 1)..<16 {
                guard let child = children[i] else { continue }
                prefix.append(UInt8(i))
                defer { prefix.removeLast() }
                return child.minimum(prefix: &prefix)
            }
            return nil
        }
    }

    /// The largest entry whose path (relative to this node) is less than `target`.
    func predecessor(of target: ArraySlice<UInt8>, prefix: inout [UInt8]) -> (path: [UInt8], value: [UInt8])? {
        switch kind {
        case .leaf:
            return TrieNode.compare(path, target) < 0 ? (prefix + path, value ?? []) : nil
        case .extension:
            // A `target` that is a proper prefix of `path` compares less: every key here is greater.
            let order = TrieNode.compare(path, target.prefix(path.count))
            if order > 0 { return nil }
            prefix.append(contentsOf: path)
            defer { prefix.removeLast(path.count) }
            if order < 0 { return children[0]?.maximum(prefix: &prefix) }
            return children[0]?.predecessor(of: target.dropFirst(path.count), prefix: &prefix)
        case .branch:
            guard let first = target.first else { return nil }
            let index = Int(first)
            prefix.append(first)
            if let found = children[index]?.predecessor(of: target.dropFirst(), prefix: &prefix) {
                prefix.removeLast()
                return found
            }
            prefix.removeLast()
            for i in stride(from: index - 1, through: 0, by: -1) {
                guard let child = children[i] else { continue }
                prefix.append(UInt8(i))
                defer { prefix.removeLast() }
                return child.maximum(prefix: &prefix)
            }
            return value.map { (prefix, $0) }
        }
    }
}
