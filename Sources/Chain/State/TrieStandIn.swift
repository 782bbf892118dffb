// TEMPORARY stand-in for the EthereumTrie module (branch h-precompiles), with the expected API:
// a Merkle-Patricia trie that only computes roots, by rebuilding the node structure from the sorted
// keys. Delete this file when EthereumTrie is merged from main.
import EthereumPrimitives

/// A Merkle-Patricia trie (stand-in: set, get and root only).
struct MerklePatriciaTrie {
    private var entries: [[UInt8]: [UInt8]] = [:]

    /// The root of the empty trie: keccak256(rlp("")).
    static let emptyRoot = Keccak256.hash([0x80] as [UInt8])

    init() {}

    /// Sets `key` to `value`; an empty value deletes the key.
    mutating func set(_ key: [UInt8], _ value: [UInt8]) {
        entries[key] = value.isEmpty ? nil : value
    }

    /// The value at `key`.
    func get(_ key: [UInt8]) -> [UInt8]? { entries[key] }

    /// The root hash.
    var rootHash: Bytes32 {
        if entries.isEmpty { return Self.emptyRoot }
        let pairs = entries.map { (nibbles(of: $0.key), $0.value) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
        return Keccak256.hash(RLP.encode(node(pairs[...], depth: 0)))
    }

    private func nibbles(of key: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(key.count * 2)
        for b in key {
            out.append(b >> 4)
            out.append(b & 0x0f)
        }
        return out
    }

    private func hexPrefix(_ path: ArraySlice<UInt8>, leaf: Bool) -> [UInt8] {
        var out = [UInt8]()
        let flag: UInt8 = leaf ? 2 : 0
        var rest = path
        if path.count % 2 == 1 {
            out.append((flag | 1) << 4 | path.first!)
            rest = path.dropFirst()
        } else {
            out.append(flag << 4)
        }
        var i = rest.startIndex
        while i < rest.endIndex {
            out.append(rest[i] << 4 | rest[i + 1])
            i += 2
        }
        return out
    }

    /// A child reference: the node itself when its encoding is shorter than 32 bytes, else its hash.
    private func reference(_ item: RLPItem) -> RLPItem {
        let encoded = RLP.encode(item)
        return encoded.count < 32 ? item : .bytes(Keccak256.hash(encoded).bytes)
    }

    private func node(_ pairs: ArraySlice<([UInt8], [UInt8])>, depth: Int) -> RLPItem {
        let first = pairs[pairs.startIndex]
        if pairs.count == 1 {
            return .list([.bytes(hexPrefix(first.0[depth...], leaf: true)), .bytes(first.1)])
        }
        // Longest common prefix beyond `depth`.
        let last = pairs[pairs.index(before: pairs.endIndex)]
        var common = 0
        while depth + common < first.0.count, depth + common < last.0.count,
            first.0[depth + common] == last.0[depth + common]
        {
            common += 1
        }
        if common > 0 {
            let child = node(pairs, depth: depth + common)
            return .list([.bytes(hexPrefix(first.0[depth..<(depth + common)], leaf: false)), reference(child)])
        }
        var children = [RLPItem](repeating: .bytes([]), count: 17)
        var index = pairs.startIndex
        if first.0.count == depth {
            children[16] = .bytes(first.1)
            index += 1
        }
        while index < pairs.endIndex {
            let nibble = pairs[index].0[depth]
            var end = index
            while end < pairs.endIndex && pairs[end].0[depth] == nibble { end += 1 }
            children[Int(nibble)] = reference(node(pairs[index..<end], depth: depth + 1))
            index = end
        }
        return .list(children)
    }
}
