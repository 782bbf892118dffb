import Testing
import EthereumPrimitives

@Suite struct AddressTests {
    /// The examples in EIP-55's text: all-caps, all-lowercase and normal checksums.
    static let eip55Examples = [
        "0x52908400098527886E0F7030069857D2E4169EE7",
        "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        "0xde709f2102306220921060314715629080e2fb77",
        "0x27b1fdb04752bbc536007a920d24acb045561c26",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]

    @Test(arguments: eip55Examples)
    func checksumExamples(checksummed: String) throws {
        let address = try Address(checksummed)
        #expect(address.checksummed == checksummed)
        #expect(address.description == checksummed)
        #expect(address.lowercasedHex == checksummed.lowercased())
        // All-lowercase and all-uppercase spellings carry no checksum and are accepted.
        #expect(try Address(checksummed.lowercased()) == address)
        #expect(try Address("0x" + checksummed.dropFirst(2).uppercased()) == address)
        #expect(try Address(String(checksummed.dropFirst(2))) == address)  // no 0x
    }

    @Test func wrongChecksumIsRejectedWithTheCorrectSpelling() {
        // One letter's case flipped.
        let error = #expect(throws: AddressError.self) { try Address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD") }
        #expect(error == .checksumMismatch(expected: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"))
        #expect(error?.description == "address has an invalid EIP-55 checksum; the correct checksummed form is 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
    }

    @Test func malformedStrings() {
        #expect(throws: AddressError.wrongLength(digits: 39)) { try Address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae") }
        #expect(throws: AddressError.wrongLength(digits: 42)) { try Address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00") }
        #expect(throws: AddressError.wrongLength(digits: 0)) { try Address("0x") }
        #expect(throws: AddressError.invalidCharacter("g", offset: 5)) { try Address("0x5aagb6053f3e94c9b9a09f33669435e7ef1beaed") }
        #expect(throws: AddressError.invalidCharacter("é", offset: 2)) { try Address("0xé") }
        let e = #expect(throws: AddressError.self) { try Address("0x1234") }
        #expect(e?.description == "an address has 40 hex digits, got 4")
    }

    @Test func bytesAndWords() throws {
        let bytes = (1...20).map { UInt8($0) }
        let address = try #require(Address(bytes: bytes))
        #expect(address.bytes == bytes)
        #expect(Address(bytes: bytes.dropLast()) == nil)
        #expect(Address(bytes: bytes + [0]) == nil)
        let word = address.bytes32
        #expect(word.bytes == [UInt8](repeating: 0, count: 12) + bytes)
        #expect(Address(bytes32: word) == address)
        // The upper 12 bytes are ignored.
        let dirty = try #require(Bytes32([UInt8](repeating: 0xff, count: 12) + bytes))
        #expect(Address(bytes32: dirty) == address)
        #expect(Address.zero.bytes == [UInt8](repeating: 0, count: 20))
        #expect(Address.zero.checksummed == "0x0000000000000000000000000000000000000000")
        address.withUnsafeBytes { #expect(Array($0) == bytes) }
    }

    @Test func publicKeyToAddress() throws {
        // The generator point G of secp256k1 is the public key of private key 1, whose address is
        // well known.
        let g = try [UInt8](hex: "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
            + "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8")
        let expected = try Address("0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf")
        #expect(Address(publicKey: g) == expected)
        #expect(Address(publicKey: [0x04] + g) == expected)
        #expect(Address(publicKey: g.dropLast()) == nil)
        #expect(Address(publicKey: [0x02] + g) == nil)
    }

    @Test func orderingAndHashing() throws {
        let a = try Address("0x0000000000000000000000000000000000000001")
        let b = try Address("0x0000000000000000000000000000000000000100")
        let c = try Address("0x0100000000000000000000000000000000000000")
        #expect(a < b && b < c && !(c < a))
        #expect([c, a, b].sorted() == [a, b, c])
        #expect(Set([a, b, c, a]).count == 3)
    }
}
