import TestSupport
import Testing
import EthereumPrimitives

@Suite struct KeccakTests {
    // MARK: Known answers

    @Test(arguments: [
        ("", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
        ("abc", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"),
        ("The quick brown fox jumps over the lazy dog", "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15"),
        // The event topic of ERC-20 Transfer, and a function selector's source.
        ("Transfer(address,address,uint256)", "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"),
        ("transfer(address,uint256)", "a9059cbb2ab09eb219583f4a59a5d0623ade346d962bcd4e46b11da047c9049b"),
    ])
    func knownStrings(input: String, expected: String) throws {
        #expect(Keccak256.hash(input) == (try Bytes32(hex: expected)))
        #expect(Keccak256.hash(Array(input.utf8)) == (try Bytes32(hex: expected)))
    }

    @Test func knownByteStrings() throws {
        // Ethereum's empty-uncles hash (RLP of the empty list) and empty-trie root (RLP of "").
        #expect(Keccak256.hash([0xc0]) == (try Bytes32(hex: "1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347")))
        #expect(Keccak256.hash([0x80]) == (try Bytes32(hex: "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")))
    }

    /// FIPS 202 SHA3-256 vectors from the Keccak Code Package (ShortMsgKAT_SHA3-256, Len = 1080, 1088
    /// and 1096 bits: one byte short of the rate, exactly the rate, one byte over). SHA3-256 is the same
    /// sponge with domain byte 0x06, so these pin down block handling and padding at the rate boundary.
    @Test(arguments: [
        ("", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
        ("616263", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
        ("b771d5cef5d1a41a93d15643d7181d2a2ef0a8e84d91812f20ed21f147bef732bf3a60ef4067c3734b85bc8cd471780f"
            + "10dc9e8291b58339a677b960218f71e793f2797aea349406512829065d37bb55ea796fa4f56fd8896b49b2cd19b43215"
            + "ad967c712b24e5032d065232e02c127409d2ed4146b9d75d763d52db98d949d3b0fed6a8052fbb",
         "a19eee92bb2097b64e823d597798aa18be9b7c736b8059abfd6779ac35ac81b5"),
        ("b32d95b0b9aad2a8816de6d06d1f86008505bd8c14124f6e9a163b5a2ade55f835d0ec3880ef50700d3b25e42cc0af05"
            + "0ccd1be5e555b23087e04d7bf9813622780c7313a1954f8740b6ee2d3f71f768dd417f520482bd3a08d4f222b4ee9dbd"
            + "015447b33507dd50f3ab4247c5de9a8abd62a8decea01e3b87c8b927f5b08beb37674c6f8e380c04",
         "df673f4105379ff6b755eeab20ceb0dc77b5286364fe16c59cc8a907aff07732"),
        ("04410e31082a47584b406f051398a6abe74e4da59bb6f85e6b49e8a1f7f2ca00dfba5462c2cd2bfde8b64fb21d70c083"
            + "f11318b56a52d03b81cac5eec29eb31bd0078b6156786da3d6d8c33098c5c47bb67ac64db14165af65b44544d806dde5"
            + "f487d5373c7f9792c299e9686b7e5821e7c8e2458315b996b5677d926dac57b3f22da873c601016a0d",
         "d52432cf3b6b4b949aa848e058dcd62d735e0177279222e7ac0af8504762faa0"),
    ])
    func sha3Vectors(message: String, expected: String) throws {
        let bytes = try [UInt8](hex: message)
        let digest = bytes.withUnsafeBytes { Keccak256.digest($0, domain: 0x06) }
        #expect(digest == (try Bytes32(hex: expected)))
        #expect(ReferenceKeccak.hash256(bytes, domain: 0x06) == (try [UInt8](hex: expected)))
    }

    @Test func roundConstantsMatchTheLFSR() {
        #expect(KeccakF1600.roundConstants == ReferenceKeccak.roundConstants)
    }

    // MARK: Against the plain reference, across block boundaries

    @Test func matchesReferenceForEveryLengthUpTo700() {
        var rng = SplitMix64(seed: 1)
        let data = rng.bytes(700)
        for n in 0...700 {
            let message = Array(data[0..<n])
            let got = Keccak256.hash(message)
            let expected = ReferenceKeccak.hash256(message)
            #expect(got.bytes == expected, "length \(n)")
        }
    }

    @Test func matchesReferenceForMultiBlockInputs() {
        var rng = SplitMix64(seed: 2)
        for n in [1_087, 1_088, 1_089, 4_096, 16_384, 20_000] {
            let message = rng.bytes(n)
            #expect(Keccak256.hash(message).bytes == ReferenceKeccak.hash256(message), "length \(n)")
        }
    }

    // MARK: Streaming

    @Test func streamingWithRandomSplitsMatchesOneShot() {
        var rng = SplitMix64(seed: 3)
        for trial in 0..<200 {
            let n = Int(rng.next() % 1_500)
            let message = rng.bytes(n)
            var hasher = Keccak256()
            var i = 0
            while i < n {
                // Mostly small pieces, sometimes more than a block at once.
                let step = rng.next() % 4 == 0 ? Int(rng.next() % 400) : Int(rng.next() % 20)
                let j = min(n, i + step)
                hasher.update(message[i..<j])
                i = j
            }
            #expect(hasher.finalize() == Keccak256.hash(message), "trial \(trial), length \(n)")
        }
    }

    @Test func streamingByteByByteAndRawBuffers() {
        var rng = SplitMix64(seed: 4)
        let message = rng.bytes(1_000)
        var one = Keccak256()
        for b in message { one.update(CollectionOfOne(b)) }
        var raw = Keccak256()
        message.withUnsafeBytes { buffer in
            raw.update(UnsafeRawBufferPointer(rebasing: buffer[0..<136]))
            raw.update(UnsafeRawBufferPointer(rebasing: buffer[136..<137]))
            raw.update(UnsafeRawBufferPointer(rebasing: buffer[137...]))
        }
        let expected = Keccak256.hash(message)
        #expect(one.finalize() == expected)
        #expect(raw.finalize() == expected)
        message.withUnsafeBytes { #expect(Keccak256.hash($0) == expected) }
    }

    @Test func nonContiguousCollections() {
        var rng = SplitMix64(seed: 5)
        let message = rng.bytes(600)
        let reversed = message.reversed()  // not contiguous
        #expect(Keccak256.hash(reversed) == Keccak256.hash(Array(reversed)))
        var hasher = Keccak256()
        hasher.update(message.lazy.map { $0 ^ 0x5a })
        #expect(hasher.finalize() == Keccak256.hash(message.map { $0 ^ 0x5a }))
    }

    @Test func finalizeResetsTheHasher() {
        var hasher = Keccak256()
        hasher.update(Array("abc".utf8))
        let first = hasher.finalize()
        hasher.update(Array("abc".utf8))
        #expect(hasher.finalize() == first)
        #expect(hasher.finalize() == Keccak256.hash(""))
    }

    @Test func stringsHashTheirUTF8() {
        let s = "Grüße, 世界 🚗"
        #expect(Keccak256.hash(s) == Keccak256.hash(Array(s.utf8)))
        let sub = s.dropFirst(3)  // a Substring, then a String not at offset 0
        #expect(Keccak256.hash(String(sub)) == Keccak256.hash(Array(sub.utf8)))
    }

    // MARK: Several messages side by side

    /// The vector bodies this CPU runs (an AVX-512 CPU runs all three), and nil: one message at a time.
    static var bodies: [Keccak256.Lanes?] { [nil] + Keccak256.availableLanes }

    /// The digests of `ranges` of `buffer` with the vector body `lanes` (nil: one by one).
    static func hashes(_ buffer: [UInt8], _ ranges: [Range<Int>], lanes: Keccak256.Lanes?) -> [Bytes32] {
        var digests: [Bytes32] = [.zero]  // replaced, not appended to
        buffer.withUnsafeBytes { Keccak256.hashes(of: $0, ranges: ranges, lanes: lanes, into: &digests) }
        return digests
    }

    @Test func messagesSideBySideHashAsOneByOne() {
        var rng = SplitMix64(seed: 11)
        // Every length from 0 to 700 bytes (all the padding cases up to five blocks: 135, 136 and 137 bytes, 271, 272
        // and 273, …), in a shuffled order so that lanes finish at different steps and take the next message.
        var lengths = Array(0...700)
        for i in lengths.indices.reversed() { lengths.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        let buffer = rng.bytes(lengths.reduce(0, +) + 64)
        var ranges: [Range<Int>] = []
        var start = 0
        for length in lengths {
            ranges.append(start..<(start + length))
            start += length - (length > 40 ? 37 : 0)  // some slices overlap the next
        }
        let expected = ranges.map { Keccak256.hash(Array(buffer[$0])) }
        for lanes in Self.bodies {
            let got = Self.hashes(buffer, ranges, lanes: lanes)
            #expect(got == expected, "\(String(describing: lanes))")
            // Fewer messages than lanes, and a single one.
            let few = Self.hashes(buffer, Array(ranges.prefix(3)), lanes: lanes)
            #expect(few == Array(expected.prefix(3)), "\(String(describing: lanes)), three messages")
        }
        #expect(buffer.withUnsafeBytes { Keccak256.hashes(of: $0, ranges: []) }.isEmpty)
        #expect(Keccak256.hashes(of: [[], [0x80], [0xc0]]) == [Keccak256.hash(""), MerkleKnown.emptyTrie, MerkleKnown.emptyList])
    }

    private enum MerkleKnown {
        static let emptyTrie = try! Bytes32(hex: "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")
        static let emptyList = try! Bytes32(hex: "1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347")
    }
}
