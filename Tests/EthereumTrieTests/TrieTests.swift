import EthereumPrimitives
import EthereumTrie
import TestSupport
import Testing

@Suite struct TrieTests {
    @Test func emptyRoot() {
        var trie = MerklePatriciaTrie()
        #expect(MerklePatriciaTrie.emptyRoot.hexString == "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")
        #expect(trie.rootHash == MerklePatriciaTrie.emptyRoot)
        trie.set([1, 2], [3])
        trie.delete([1, 2])
        #expect(trie.rootHash == MerklePatriciaTrie.emptyRoot)
        #expect(trie.isEmpty)
    }

    /// The Yellow Paper's classic example (also ethereum/tests "puppy"): do, dog, doge, horse.
    @Test func knownRoot() throws {
        let root = MerklePatriciaTrie.root(of: [
            (Array("do".utf8), Array("verb".utf8)), (Array("dog".utf8), Array("puppy".utf8)),
            (Array("doge".utf8), Array("coin".utf8)), (Array("horse".utf8), Array("stallion".utf8)),
        ])
        #expect(root == (try Bytes32(hex: "0x5991bb8c6514148a29db676a14ac506cd2cd5775ace63c30a4fe457715e9ac84")))
    }

    /// A list trie of one empty-list receipt-like item, checked against the single-leaf encoding by hand:
    /// key RLP(0) = 0x80 → nibbles [8, 0]; leaf [HP([8,0], leaf) = 0x20 0x80, value].
    @Test func listRoot() {
        let value: [UInt8] = Array(repeating: 0xAB, count: 40)
        var leaf: [UInt8] = [0x82, 0x20, 0x80, 0xA8] + value
        leaf.insert(0xC0 + UInt8(leaf.count), at: 0)
        #expect(MerklePatriciaTrie.root(ofList: [value]) == Keccak256.hash(leaf))
        #expect(MerklePatriciaTrie.root(ofList: [[UInt8]]()) == MerklePatriciaTrie.emptyRoot)
        // The one-item shortcut agrees with the trie it stands for, whatever the item's size (an empty value is no
        // entry at all).
        for size in [0, 1, 2, 20, 29, 30, 31, 32, 55, 56, 300] {
            let item = [UInt8](repeating: 0x7F, count: size)
            #expect(MerklePatriciaTrie.root(ofList: [item]) == MerklePatriciaTrie.root(of: [([0x80], item)]), "size \(size)")
        }
    }

    @Test func hexPrefixRejectsMalformed() {
        #expect(throws: TrieError.self) { try HexPrefix.decode([UInt8]()) }
        #expect(throws: TrieError.self) { try HexPrefix.decode([0x41]) }
        #expect(throws: TrieError.self) { try HexPrefix.decode([0x05, 0x12]) }
    }

    @Test func copiesAreIndependent() {
        var a = MerklePatriciaTrie()
        for i in 0..<50 { a.set([UInt8(i)], [UInt8(i), 1]) }
        let rootBefore = a.rootHash
        var b = a
        b.set([7], [99])
        b.delete([8])
        #expect(a.get([7]) == [7, 1])
        #expect(a.get([8]) == [8, 1])
        #expect(a.rootHash == rootBefore)
        #expect(b.rootHash != rootBefore)
        #expect(b.get([7]) == [99])
        #expect(b.get([8]) == nil)
    }

    /// Random insert/overwrite/delete sequences give the same root as building the final map from
    /// scratch (in sorted order), with interleaved root reads to exercise the hash cache.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomizedAgainstRebuild(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var trie = MerklePatriciaTrie()
        var model: [[UInt8]: [UInt8]] = [:]
        // Short keys from a small alphabet force shared prefixes, prefix keys and branch values.
        func randomKey() -> [UInt8] {
            let length = Int(generator.next() % 5)
            return (0..<length).map { _ in UInt8(generator.next() % 3) * 0x11 }
        }
        for step in 0..<600 {
            let key = randomKey()
            if generator.next() % 3 == 0 {
                trie.delete(key)
                model[key] = nil
            } else {
                let value = generator.bytes(Int(generator.next() % 40) + 1)
                trie.set(key, value)
                model[key] = value
            }
            if step % 37 == 0 { _ = trie.rootHash }
        }
        let rebuilt = MerklePatriciaTrie.root(of: model.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.key, $0.value) })
        #expect(trie.rootHash == rebuilt, "seed \(seed)")
        #expect(trie.computeRootHash() == rebuilt)
        for (key, value) in model { #expect(trie.get(key) == value, "seed \(seed) key \(key)") }
        // Ordered iteration agrees with the sorted model.
        let sorted = model.keys.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(trie.entries.map(\.key) == sorted)
        // Deleting everything returns to the empty root.
        for key in model.keys { trie.delete(key) }
        #expect(trie.rootHash == MerklePatriciaTrie.emptyRoot)
    }

    /// Random 32-byte keys (the state trie's shape) with interleaved updates and root reads.
    @Test func randomizedHashedKeys() {
        var generator = SplitMix64(seed: 42)
        var trie = SecureTrie()
        var model: [[UInt8]: [UInt8]] = [:]
        let keys = (0..<300).map { _ in generator.bytes(20) }
        for round in 0..<5 {
            for _ in 0..<200 {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                if generator.next() % 4 == 0 {
                    trie.delete(key)
                    model[key] = nil
                } else {
                    let value = generator.bytes(Int(generator.next() % 70) + 1)
                    trie.set(key, value)
                    model[key] = value
                }
            }
            var fresh = SecureTrie()
            for (key, value) in model { fresh.set(key, value) }
            #expect(trie.rootHash == fresh.rootHash, "round \(round)")
        }
    }

    /// Nodes are changed in place when no copy holds them: copies taken at random points (some with hashes not yet
    /// cached, so dirty nodes are shared), then updated, read or hashed in any order, each keep their own contents
    /// and root, and updating a copy never shows in the trie it came from.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func copiesTakenAnywhereStayIndependent(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var trie = MerklePatriciaTrie()
        var model: [[UInt8]: [UInt8]] = [:]
        var copies: [(trie: MerklePatriciaTrie, model: [[UInt8]: [UInt8]])] = []
        func randomKey() -> [UInt8] { (0..<Int(generator.next() % 4 + 1)).map { _ in UInt8(generator.next() % 4) * 0x31 } }
        func rebuilt(_ model: [[UInt8]: [UInt8]]) -> Bytes32 { MerklePatriciaTrie.root(of: model.map { ($0.key, $0.value) }) }
        for step in 0..<800 {
            let key = randomKey()
            if generator.next() % 4 == 0 {
                trie.delete(key)
                model[key] = nil
            } else {
                let value = generator.bytes(Int(generator.next() % 45) + 1)
                trie.set(key, value)
                model[key] = value
            }
            switch generator.next() % 10 {
            case 0: copies.append((trie, model))
            case 1: _ = trie.rootHash
            case 2 where !copies.isEmpty:
                // Update a copy: the original and the other copies must not see it.
                let index = Int(generator.next() % UInt64(copies.count))
                let key = randomKey()
                copies[index].trie.set(key, [UInt8(step & 0xFF), 7])
                copies[index].model[key] = [UInt8(step & 0xFF), 7]
            case 3 where !copies.isEmpty:
                let index = Int(generator.next() % UInt64(copies.count))
                _ = copies[index].trie.rootHash
            default: break
            }
        }
        #expect(trie.rootHash == rebuilt(model), "seed \(seed)")
        for (key, value) in model { #expect(trie.get(key) == value) }
        for (i, copy) in copies.enumerated() {
            var copyTrie = copy.trie
            #expect(copyTrie.rootHash == rebuilt(copy.model), "seed \(seed) copy \(i)")
            #expect(copyTrie.entries.count == copy.model.count)
            for (key, value) in copy.model { #expect(copyTrie.get(key) == value, "seed \(seed) copy \(i)") }
        }
    }

    /// Tries committed together (`MerklePatriciaTrie.commit(_:)`: the changed nodes of all of them hashed level by
    /// level, several side by side) get the roots each gets alone, including copies of one trie that share changed
    /// nodes not yet hashed, an empty trie and a committed one; and committing them changes no other copy.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func triesCommittedTogetherGetTheirOwnRoots(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        func rebuilt(_ model: [[UInt8]: [UInt8]]) -> Bytes32 { MerklePatriciaTrie.root(of: model.map { ($0.key, $0.value) }) }
        var base = MerklePatriciaTrie()
        var baseModel: [[UInt8]: [UInt8]] = [:]
        for _ in 0..<400 {
            let key = generator.bytes(32)  // the shape of a secure trie: branches of sixteen, several levels
            let value = generator.bytes(Int(generator.next() % 60) + 1)
            base.set(key, value)
            baseModel[key] = value
        }
        _ = base.rootHash
        var tries: [MerklePatriciaTrie] = []
        var models: [[[UInt8]: [UInt8]]] = []
        for t in 0..<7 {
            // Copies of the base with a few changes each (a block's storage tries), an empty trie, one unchanged.
            var trie = base
            var model = baseModel
            if t == 5 {
                trie = MerklePatriciaTrie()
                model = [:]
            }
            for _ in 0..<(t == 6 ? 0 : Int(generator.next() % 6) + 1) {
                if generator.next() % 3 == 0, let key = model.keys.randomElement(using: &generator) {
                    trie.delete(key)
                    model[key] = nil
                } else {
                    let key = generator.next() % 2 == 0 ? generator.bytes(32) : Array(model.keys.first ?? [1])
                    let value = generator.bytes(Int(generator.next() % 60) + 1)
                    trie.set(key, value)
                    model[key] = value
                }
            }
            tries.append(trie)
            models.append(model)
        }
        // Two copies of one changed trie, sharing its unhashed nodes.
        tries.append(tries[0])
        models.append(models[0])
        let baseRoot = rebuilt(baseModel)
        MerklePatriciaTrie.commit(&tries)
        for i in tries.indices {
            #expect(tries[i].rootHash == rebuilt(models[i]), "seed \(seed) trie \(i)")
            for (key, value) in models[i] { #expect(tries[i].get(key) == value) }
        }
        #expect(base.rootHash == baseRoot)
        // Changing one of the two copies afterwards leaves the other as it was.
        tries[0].set([9, 9, 9], [1])
        models[0][[9, 9, 9]] = [1]
        MerklePatriciaTrie.commit(&tries)
        #expect(tries[0].rootHash == rebuilt(models[0]))
        #expect(tries[7].rootHash == rebuilt(models[7]))
        #expect(tries[0].rootHash != tries[7].rootHash)
    }

    /// A trie built from scratch with more changed nodes of one height than one hashing batch (3,000 leaves) gets the
    /// root of the same trie hashed as it grew, a few nodes at a time.
    @Test func aLargeTrieIsHashedInBatches() {
        var generator = SplitMix64(seed: 31)
        var atOnce = MerklePatriciaTrie()
        var asItGrew = MerklePatriciaTrie()
        for i in 0..<3_000 {
            let key = generator.bytes(32)
            let value = generator.bytes(Int(generator.next() % 80) + 1)
            atOnce.set(key, value)
            asItGrew.set(key, value)
            if i % 7 == 0 { _ = asItGrew.rootHash }
        }
        #expect(atOnce.rootHash == asItGrew.rootHash)
    }

    @Test func nextAndPrevious() {
        var trie = MerklePatriciaTrie()
        var generator = SplitMix64(seed: 9)
        var keys: [[UInt8]] = []
        for _ in 0..<200 {
            let key = generator.bytes(Int(generator.next() % 4)).map { $0 & 0x31 }
            trie.set(key, [1])
            keys.append(key)
        }
        let sorted = Set(keys).sorted { $0.lexicographicallyPrecedes($1) }
        for _ in 0..<300 {
            let probe = generator.bytes(Int(generator.next() % 5)).map { $0 & 0x33 }
            let next = sorted.first { probe.lexicographicallyPrecedes($0) }
            let previous = sorted.last { $0.lexicographicallyPrecedes(probe) }
            #expect(trie.entry(after: probe)?.key == next, "after \(probe)")
            #expect(trie.entry(before: probe)?.key == previous, "before \(probe)")
        }
    }

    @Test func proofs() throws {
        var generator = SplitMix64(seed: 5)
        var trie = MerklePatriciaTrie()
        var model: [[UInt8]: [UInt8]] = [:]
        for _ in 0..<300 {
            let key = generator.bytes(Int(generator.next() % 6) + 1).map { $0 & 0x0F }
            let value = generator.bytes(Int(generator.next() % 50) + 1)
            trie.set(key, value)
            model[key] = value
        }
        let root = trie.rootHash
        for _ in 0..<300 {
            let key = generator.bytes(Int(generator.next() % 6) + 1).map { $0 & 0x0F }
            let proof = trie.proof(for: key)
            #expect(try MerklePatriciaTrie.verifyProof(root: root, key: key, proof: proof) == model[key])
        }
        for (key, value) in model.prefix(50) {
            let proof = trie.proof(for: key)
            #expect(try MerklePatriciaTrie.verifyProof(root: root, key: key, proof: proof) == value)
            // A proof missing a node fails loudly rather than proving absence.
            if proof.count > 1 {
                #expect(throws: TrieError.self) {
                    try MerklePatriciaTrie.verifyProof(root: root, key: key, proof: Array(proof.dropLast()))
                }
            }
        }
        // Secure trie proofs and the empty trie.
        var secure = SecureTrie()
        secure.set([1], [2])
        secure.set([3], [4])
        let secureRoot = secure.rootHash
        #expect(try SecureTrie.verifyProof(root: secureRoot, key: [3], proof: secure.proof(for: [3])) == [4])
        #expect(try SecureTrie.verifyProof(root: secureRoot, key: [5], proof: secure.proof(for: [5])) == nil)
        var empty = MerklePatriciaTrie()
        #expect(try MerklePatriciaTrie.verifyProof(root: MerklePatriciaTrie.emptyRoot, key: [1], proof: empty.proof(for: [1])) == nil)
    }
}
