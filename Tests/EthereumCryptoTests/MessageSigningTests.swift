import EthereumCrypto
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

@Suite struct MessageSigningTests {
    /// eth-account's documented example: personal_sign of "I♥SF".
    @Test func personalMessage() throws {
        let key = try PrivateKey(hex: "0xb25c7db31feed9122727bf0939dc769a96564b2de4c4726d035b36ecf1e5b364")
        let message = Array("I♥SF".utf8)
        #expect(PersonalMessage.hash(message).hexString == "0x1476abb745d423bf09273f1afd887d951181d25adc66c4834a70491911b7f750")
        let signature = PersonalMessage.sign(message, with: key)
        #expect(Hex.encode(signature.rsv) == "0xe6ca9bba58c88611fad66a6ce8f996908195593807c4b38bd528d2cff09d4eb33e5bfbbf4d3e39b1a2fd816a7680c19ebebaf3a141b239934ad43cb33fcec8ce1c")
        #expect(try PersonalMessage.recoverSigner(message, signature: signature) == key.address)
        #expect(PersonalMessage.verify(message, signature: signature, address: key.address))
        #expect(!PersonalMessage.verify(Array("I♥NY".utf8), signature: signature, address: key.address))
    }

    static let mailJSON = """
        {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],
        "Person":[{"name":"name","type":"string"},{"name":"wallet","type":"address"}],
        "Mail":[{"name":"from","type":"Person"},{"name":"to","type":"Person"},{"name":"contents","type":"string"}]},
        "primaryType":"Mail",
        "domain":{"name":"Ether Mail","version":"1","chainId":1,"verifyingContract":"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
        "message":{"from":{"name":"Cow","wallet":"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},"to":{"name":"Bob","wallet":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},"contents":"Hello, Bob!"}}
        """

    /// The "Mail" example of EIP-712 (assets/eip-712/Example.js): encodeType, domain separator, message hash,
    /// digest, and the signature by keccak256("cow").
    @Test func eip712MailExample() throws {
        let data = try TypedData(jsonText: Self.mailJSON)
        #expect(try data.encodeType("Mail") == "Mail(Person from,Person to,string contents)Person(string name,address wallet)")
        #expect(try data.domainSeparator().hexString == "0xf2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f")
        #expect(try data.messageHash().hexString == "0xc52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e")
        #expect(try data.signingHash().hexString == "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")
        let key = try PrivateKey(bytes: Keccak256.hash("cow").bytes)
        #expect(key.address.checksummed == "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")
        let signature = try data.sign(with: key)
        #expect(signature.recoveryID == 1)
        #expect(UInt256(signature.r).paddedHexString.hasSuffix("4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d"))
        #expect(UInt256(signature.s).paddedHexString.hasSuffix("07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b91562"))
        #expect(try data.recoverSigner(signature) == key.address)
    }

    @Test func eip712Errors() throws {
        var data = try TypedData(jsonText: Self.mailJSON)
        data.message = .object([("from", data.message["from"]!), ("contents", .string("x"))])
        #expect(throws: TypedDataError.invalidValue(path: "message.to", "missing (declared as Person)")) { try data.messageHash() }
        data.types["Mail"]?.append(TypedData.Field(name: "extra", type: "Unknown"))
        #expect(throws: TypedDataError.self) { try data.encodeType("Mail") }
    }
}
