import EthereumPrimitives
import EthereumTrie
import TestSupport
import Testing

/// ethereum/tests TrieTests and BasicTests/hexencodetest.json. Vector strings starting with `0x` are
/// hex, others UTF-8; a null value deletes. Each file is tallied separately.
@Suite struct TrieConformanceTests {
    /// A vector's key or value as bytes.
    static func bytes(_ value: JSONValue) throws -> [UInt8]? {
        switch value {
        case .null: return nil
        case .string(let s) where s.hasPrefix("0x"): return try [UInt8](hex: s)
        case .string(let s): return Array(s.utf8)
        default: throw VectorError(description: "expected a string or null, got \(value)")
        }
    }

    /// The case's `in` as ordered (key, value-or-nil) pairs: a list of pairs or an object.
    static func pairs(_ input: JSONValue?) throws -> [([UInt8], [UInt8]?)] {
        switch input {
        case .array(let items)?:
            return try items.map { pair in
                guard let two = pair.arrayValue, two.count == 2, let key = try bytes(two[0]) else {
                    throw VectorError(description: "expected a [key, value] pair, got \(pair)")
                }
                return (key, try bytes(two[1]))
            }
        case .object(let members)?:
            return try members.map { member in
                let key = try bytes(.string(member.key)) ?? []
                return (key, try bytes(member.value))
            }
        default:
            throw VectorError(description: "`in` is neither a list nor an object")
        }
    }

    /// The root after applying `pairs` in order, with `get` checked against the final map.
    static func root(of pairs: [([UInt8], [UInt8]?)], secure: Bool) -> (Bytes32, String?) {
        var plain = MerklePatriciaTrie()
        var hashed = SecureTrie()
        var expected: [[UInt8]: [UInt8]] = [:]
        for (key, value) in pairs {
            let v = value ?? []
            if secure { hashed.set(key, v) } else { plain.set(key, v) }
            expected[key] = v.isEmpty ? nil : v
        }
        for (key, value) in expected {
            let got = secure ? hashed.get(key) : plain.get(key)
            if got != value { return (.zero, "get(\(key.hexString)) returned \(got?.hexString ?? "nil"), expected \(value.hexString)") }
        }
        return (secure ? hashed.rootHash : plain.rootHash, nil)
    }

    static func runRootFile(_ file: String, secure: Bool, anyOrder: Bool) -> ConformanceTally {
        ConformanceVectors.run(suite: "TrieTests/\(file)", directory: "TrieTests", files: [file]) { _, _, value in
            do {
                let input = try pairs(value["in"])
                guard let rootHex = value["root"]?.stringValue else { return .fail("case has no `root`") }
                let expected = try Bytes32(hex: rootHex)
                var orders = [input]
                if anyOrder {
                    orders.append(input.reversed())
                    var generator = SplitMix64(seed: UInt64(input.count))
                    orders.append(input.shuffled(using: &generator))
                }
                for (n, order) in orders.enumerated() {
                    let (root, problem) = root(of: order, secure: secure)
                    if let problem { return .fail("order \(n): \(problem)") }
                    if root != expected { return .fail("order \(n): root \(root), expected \(expected)") }
                }
                return .pass
            } catch {
                return .fail("\(error)")
            }
        }
    }

    @Test func trietest() { Self.runRootFile("trietest.json", secure: false, anyOrder: false).report() }
    @Test func trieanyorder() { Self.runRootFile("trieanyorder.json", secure: false, anyOrder: true).report() }
    @Test func trietestSecure() { Self.runRootFile("trietest_secureTrie.json", secure: true, anyOrder: false).report() }
    @Test func trieanyorderSecure() {
        Self.runRootFile("trieanyorder_secureTrie.json", secure: true, anyOrder: true).report()
    }
    @Test func hexEncodedSecure() {
        Self.runRootFile("hex_encoded_securetrie_test.json", secure: true, anyOrder: true).report()
    }

    /// trietestnextprev.json: keys are inserted (value = key); each `[key, prev, next]` triple is a case,
    /// with "" meaning no such key.
    @Test func trietestnextprev() {
        var tally = ConformanceTally(suite: "TrieTests/trietestnextprev.json")
        guard let dir = ConformanceVectors.directory("TrieTests", suite: tally.suite) else {
            tally.record(.skip("vectors not found"), case: "trietestnextprev.json")
            tally.report()
            return
        }
        do {
            for (name, value) in try ConformanceVectors.cases(in: dir.appendingPathComponent("trietestnextprev.json")) {
                var trie = MerklePatriciaTrie()
                for key in value["in"]?.arrayValue ?? [] {
                    let bytes = Array((key.stringValue ?? "").utf8)
                    trie.set(bytes, bytes)
                }
                for (n, triple) in (value["tests"]?.arrayValue ?? []).enumerated() {
                    guard let parts = triple.arrayValue?.compactMap(\.stringValue), parts.count == 3 else {
                        tally.record(.fail("malformed test \(triple)"), case: "\(name)#\(n)")
                        continue
                    }
                    let key = Array(parts[0].utf8)
                    let previous = trie.entry(before: key).map { String(decoding: $0.key, as: UTF8.self) } ?? ""
                    let next = trie.entry(after: key).map { String(decoding: $0.key, as: UTF8.self) } ?? ""
                    tally.check(
                        previous == parts[1] && next == parts[2], "\(name)#\(n)",
                        "key \(parts[0]): prev \(previous.debugDescription), next \(next.debugDescription); expected \(parts[1].debugDescription), \(parts[2].debugDescription)")
                }
            }
        } catch {
            tally.record(.fail("cannot load: \(error)"), case: "trietestnextprev.json")
        }
        tally.report()
    }

    /// BasicTests/hexencodetest.json: `seq` nibbles with the `term` flag encode to `out`, and decode back.
    @Test func hexencodetest() {
        let tally = ConformanceVectors.run(suite: "BasicTests/hexencodetest.json", directory: "BasicTests", files: ["hexencodetest.json"]) {
            _, _, value in
            guard let seq = value["seq"]?.arrayValue, let term = value["term"]?.boolValue,
                let outHex = value["out"]?.stringValue
            else { return .fail("case lacks seq, term or out") }
            let nibbles = seq.compactMap { item -> UInt8? in
                if case .number(let n) = item { return UInt8(n) }
                return nil
            }
            guard nibbles.count == seq.count else { return .fail("seq holds a non-nibble") }
            do {
                let expected = try [UInt8](hex: outHex)
                let encoded = HexPrefix.encode(nibbles: nibbles, isLeaf: term)
                guard encoded == expected else { return .fail("encoding: \(firstDifference(encoded, expected))") }
                let decoded = try HexPrefix.decode(expected)
                guard decoded.nibbles == nibbles, decoded.isLeaf == term else {
                    return .fail("decoded \(decoded.nibbles) leaf=\(decoded.isLeaf)")
                }
                return .pass
            } catch {
                return .fail("\(error)")
            }
        }
        tally.report()
    }
}

struct VectorError: Error, CustomStringConvertible {
    let description: String
}
