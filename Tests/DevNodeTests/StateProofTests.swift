import Chain
import DevNode
import EthereumPrimitives
import EthereumWire
import Foundation
import Testing

/// `eth_getProof` (EIP-1186) and `eth_getStorageValues` on a dev chain. Each proof is checked by a walk of its
/// own (below, not the trie module's verifier) from the state root of the block's header, which the mining path
/// computed, down to the account leaf and from the proof's storage hash down to each slot; the values proven must
/// be what eth_getBalance / eth_getStorageAt answer at that block. Earlier blocks' proofs come from rebuilt state,
/// so they must verify against those blocks' own roots.
@Suite struct StateProofTests {
    static let contract = "0x00000000000000000000000000000000000c0de1"
    static let slot1 = "0x" + String(repeating: "0", count: 63) + "1"
    static let slot2 = "0x" + String(repeating: "0", count: 63) + "2"
    static let absentSlot = "0x" + String(repeating: "0", count: 62) + "99"

    /// Block 1: the contract with slots 1 and 2; block 2: a transfer to it; block 3: slot 1 changed.
    static func chain() async throws -> HandlerHarness {
        let h = try await HandlerHarness.make()
        _ = try await h.result("anvil_setCode", "[\"\(contract)\",\"0x600160005500\"]")
        _ = try await h.result("anvil_setStorageAt", "[\"\(contract)\",\"\(slot1)\",\"0x\(String(repeating: "0", count: 62))2a\"]")
        _ = try await h.result("anvil_setStorageAt", "[\"\(contract)\",\"\(slot2)\",\"0x\(String(repeating: "0", count: 60))beef\"]")
        _ = try await h.result("evm_mine")
        _ = try await h.send(to: contract, value: "0x1234", gas: "0x186a0")
        _ = try await h.result("anvil_setStorageAt", "[\"\(contract)\",\"\(slot1)\",\"0x\(String(repeating: "0", count: 62))07\"]")
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_blockNumber") == .string("0x3"))
        return h
    }

    /// The proven value under `key` (nil: proven absent), walking `proof` from `root`; fails the test on a
    /// node that does not hash to its reference, a malformed node, or nodes left over.
    static func walk(root: Bytes32, key: [UInt8], proof: [String]) throws -> [UInt8]? {
        let nodes = try proof.map { try Hex.decode($0) }
        var nibbles: [UInt8] = Keccak256.hash(key).bytes.flatMap { [$0 >> 4, $0 & 0x0f] }
        var used = 0
        var reference: RLPItem = .bytes(root.bytes)
        while true {
            let node: RLPItem
            switch reference {
            case .bytes(let hash) where hash.count == 32:
                guard used < nodes.count else { Issue.record("the proof ends early"); return nil }
                let encoded = nodes[used]
                #expect(Keccak256.hash(encoded).bytes == hash, "node \(used) does not hash to its reference")
                used += 1
                node = try RLP.decode(encoded)
            case .list:
                node = reference  // embedded in its parent
            default:
                Issue.record("bad reference \(reference)")
                return nil
            }
            guard case .list(let items) = node else { Issue.record("a node is not a list"); return nil }
            if items.count == 17 {
                guard let nibble = nibbles.first else {
                    #expect(used == nodes.count)
                    return try items[16].byteString()
                }
                nibbles.removeFirst()
                if case .bytes(let child) = items[Int(nibble)], child.isEmpty {
                    #expect(used == nodes.count, "nodes after the proven absence")
                    return nil
                }
                reference = items[Int(nibble)]
                continue
            }
            try #require(items.count == 2, "a node of \(items.count) items")
            let encodedPath = try items[0].byteString()
            let flag = encodedPath.first.map { $0 >> 4 } ?? 0
            var path = encodedPath.dropFirst().flatMap { [$0 >> 4, $0 & 0x0f] }
            if flag & 1 == 1, let first = encodedPath.first { path.insert(first & 0x0f, at: 0) }
            guard nibbles.starts(with: path) else {
                #expect(used == nodes.count, "nodes after the proven absence")
                return nil
            }
            nibbles.removeFirst(path.count)
            if flag >= 2 {  // leaf
                guard nibbles.isEmpty else { return nil }
                #expect(used == nodes.count, "nodes after the leaf")
                return try items[1].byteString()
            }
            reference = items[1]
        }
    }

    /// Checks one `eth_getProof` answer at `block` against that block's state root and the plain reads.
    static func check(_ h: HandlerHarness, address: String, keys: [String], block: String) async throws -> JSONValue {
        let keyList = keys.map { "\"\($0)\"" }.joined(separator: ",")
        let proof = try await h.result("eth_getProof", "[\"\(address)\",[\(keyList)],\"\(block)\"]")
        let header = try await h.result("eth_getBlockByNumber", "[\"\(block)\",false]")
        let rootText = try #require(header["stateRoot"]?.stringValue)
        let root = try #require(Bytes32(try Hex.decode(rootText)))
        let accountProof = try #require(proof["accountProof"]?.arrayValue?.compactMap { $0.stringValue })
        #expect(!accountProof.isEmpty)
        let leaf = try walk(root: root, key: try Address(address).bytes, proof: accountProof)
        let balance = try await h.result("eth_getBalance", "[\"\(address)\",\"\(block)\"]")
        #expect(proof["balance"] == balance)
        if let leaf {
            guard case .list(let fields) = try RLP.decode(leaf), fields.count == 4 else { Issue.record("bad account leaf"); return proof }
            #expect(proof["nonce"] == .string(Quantity.encode(try UInt64(rlp: fields[0]))))
            #expect(proof["balance"] == .string(Quantity.encode(UInt256(truncatingBigEndian: try fields[1].byteString()))))
            #expect(proof["storageHash"] == .string(Hex.encode(try fields[2].byteString())))
            #expect(proof["codeHash"] == .string(Hex.encode(try fields[3].byteString())))
        } else {
            #expect(proof["codeHash"] == .string(Hex.encode(Bytes32.zero.bytes)))
            #expect(proof["storageHash"] == .string(Hex.encode(Bytes32.zero.bytes)))
            #expect(proof["nonce"] == .string("0x0"))
        }
        let storageText = try #require(proof["storageHash"]?.stringValue)
        let storageRoot = try #require(Bytes32(try Hex.decode(storageText)))
        let entries = try #require(proof["storageProof"]?.arrayValue)
        #expect(entries.count == keys.count)
        for (key, entry) in zip(keys, entries) {
            let expectedText = try #require(try await h.result("eth_getStorageAt", "[\"\(address)\",\"\(key)\",\"\(block)\"]").stringValue)
            let expected = UInt256(truncatingBigEndian: try Hex.decode(expectedText))
            #expect(entry["value"] == .string(Quantity.encode(expected)))
            let nodes = try #require(entry["proof"]?.arrayValue?.compactMap { $0.stringValue })
            guard leaf != nil, !nodes.isEmpty else {
                #expect(nodes.isEmpty)  // no storage: geth sends no nodes
                continue
            }
            let slot = UInt256(truncatingBigEndian: try Hex.decode(key.count % 2 == 1 ? "0x0" + key.dropFirst(2) : key))
            let proven = try walk(root: storageRoot, key: slot.bigEndianBytes, proof: nodes)
            let value = try proven.map { try RLP.decode($0).byteString() } ?? []
            #expect(UInt256(truncatingBigEndian: value) == expected)
        }
        return proof
    }

    @Test func proofsAtTheHeadAndEarlierBlocksVerifyAgainstTheirRoots() async throws {
        let h = try await Self.chain()
        for block in ["latest", "0x3", "0x2", "0x1", "0x0"] {
            _ = try await Self.check(h, address: Self.contract, keys: [Self.slot1, Self.slot2, Self.absentSlot], block: block)
            _ = try await Self.check(h, address: HandlerHarness.account0, keys: [Self.slot1], block: block)
        }
        // The values differ between blocks: block 1 has slot 1 = 42, block 3 has 7.
        let early = try await Self.check(h, address: Self.contract, keys: [Self.slot1], block: "0x1")
        let late = try await Self.check(h, address: Self.contract, keys: [Self.slot1], block: "0x3")
        #expect(early["storageProof"]?.arrayValue?[0]["value"] == .string("0x2a"))
        #expect(late["storageProof"]?.arrayValue?[0]["value"] == .string("0x7"))
        #expect(late["balance"] == .string("0x1234"))
        #expect(early["balance"] == .string("0x0"))
    }

    @Test func anAbsentAccountIsProvenAbsentWithGethsZeroFields() async throws {
        let h = try await Self.chain()
        let proof = try await Self.check(h, address: "0x00000000000000000000000000000000deadbeef", keys: [Self.slot1], block: "latest")
        #expect(proof["balance"] == .string("0x0"))
        #expect(proof["storageProof"]?.arrayValue?[0]["proof"] == .array([]))
        #expect(proof["storageProof"]?.arrayValue?[0]["value"] == .string("0x0"))
    }

    @Test func keysAreEchoedAsGethDoesAndBadKeysRefused() async throws {
        let h = try await Self.chain()
        let proof = try await h.result("eth_getProof", "[\"\(Self.contract)\",[\"0x1\",\"\(Self.slot1)\",\"02\"]]")
        let keys = proof["storageProof"]?.arrayValue?.map { $0["key"] }
        #expect(keys == [.string("0x1"), .string(Self.slot1), .string("0x2")])
        #expect(proof["storageProof"]?.arrayValue?[0]["value"] == .string("0x7"))
        #expect(proof["storageProof"]?.arrayValue?[2]["value"] == .string("0xbeef"))
        let tooLong = "0x" + String(repeating: "1", count: 66)
        #expect(try await h.errorCode("eth_getProof", "[\"\(Self.contract)\",[\"\(tooLong)\"],\"latest\"]") == -32602)
        #expect(try await h.errorCode("eth_getProof", "[\"\(Self.contract)\",[\"0xzz\"],\"latest\"]") == -32602)
        #expect(try await h.errorCode("eth_getProof", "[\"\(Self.contract)\",\"0x1\",\"latest\"]") == -32602)
        #expect(try await h.errorCode("eth_getProof", "[\"\(Self.contract)\"]") == -32602)
        let noKeys = try await h.result("eth_getProof", "[\"\(Self.contract)\",null]")
        #expect(noKeys["storageProof"] == .array([]))
        #expect(try await h.errorCode("eth_getProof", "[\"\(Self.contract)\",[],\"0x99\"]") == -32000)
    }

    @Test func storageValuesReadManyAccountsAtABlock() async throws {
        let h = try await Self.chain()
        let request = "{\"\(Self.contract)\":[\"\(Self.slot1)\",\"\(Self.slot2)\"],\"0x00000000000000000000000000000000deadbeef\":[\"\(Self.slot1)\"]}"
        let latest = try await h.result("eth_getStorageValues", "[\(request)]")
        let word = { (hex: String) in JSONValue.string("0x" + String(repeating: "0", count: 64 - hex.count) + hex) }
        #expect(latest[Self.contract] == .array([word("7"), word("beef")]))
        #expect(latest["0x00000000000000000000000000000000deadbeef"] == .array([word("0")]))
        let early = try await h.result("eth_getStorageValues", "[\(request),\"0x1\"]")
        #expect(early[Self.contract] == .array([word("2a"), word("beef")]))
        let empty = try await h.answer("eth_getStorageValues", "[{},\"latest\"]")
        #expect(empty["error"]?["code"] == .number("-32602"))
        #expect(empty["error"]?["message"] == .string("empty request"))
        #expect(try await h.errorCode("eth_getStorageValues", "[{\"\(Self.contract)\":[\"0x1\"]}]") == -32602)  // not 32 bytes
        let many = (0..<1025).map { _ in "\"\(Self.slot1)\"" }.joined(separator: ",")
        #expect(try await h.errorCode("eth_getStorageValues", "[{\"\(Self.contract)\":[\(many)]}]") == -32005)
    }
}
