import AuthEmulator
import Foundation
import Testing

@Suite("scrypt password hashing")
struct PasswordHasherTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("RFC 7914 §12 test vectors")
    func rfcVectors() throws {
        let first = try PasswordHasher.derive(
            password: Array("password".utf8), salt: Array("NaCl".utf8), parameters: ScryptParameters(logN: 10, r: 8, p: 16),
            length: 64)
        #expect(hex(first) == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
        let second = try PasswordHasher.derive(
            password: Array("pleaseletmein".utf8), salt: Array("SodiumChloride".utf8),
            parameters: ScryptParameters(logN: 14, r: 8, p: 1), length: 64)
        #expect(hex(second) == "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887")
    }

    @Test("default parameters: hash and verify, salts differ")
    func defaultParameters() throws {
        let hasher = try PasswordHasher()
        #expect(hasher.parameters == ScryptParameters(logN: 15, r: 8, p: 1))
        let a = try hasher.hash("correct horse battery staple")
        let b = try hasher.hash("correct horse battery staple")
        #expect(a.salt != b.salt)
        #expect(a.hash != b.hash)
        #expect(try hasher.verify("correct horse battery staple", against: a))
        #expect(try !hasher.verify("correct horse battery stapler", against: a))
        #expect(try !hasher.verify("correct horse battery staple", against: hasher.unmatchableHash()))
    }

    @Test("PHC encoding round-trips; malformed or out-of-bounds strings are rejected")
    func encoding() throws {
        let hasher = try PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1))
        let hash = try hasher.hash("pw123456")
        #expect(PasswordHash(encoded: hash.encoded) == hash)
        #expect(hash.encoded.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        for bad in [
            "", "scrypt", "$bcrypt$ln=10,r=8,p=1$AAAA$AAAA", "$scrypt$ln=10,r=8$AAAA$AAAA",
            "$scrypt$ln=30,r=8,p=1$AAAA$AAAA", "$scrypt$ln=10,r=8,p=1$$AAAA", "$scrypt$ln=10,r=8,p=1$AA!A$AAAA",
            "$scrypt$ln=10,r=8,p=1,x=2$AAAA$AAAA",
        ] {
            #expect(PasswordHash(encoded: bad) == nil, "\(bad)")
        }
        #expect(throws: PasswordHasherError.self) { try PasswordHasher(parameters: ScryptParameters(logN: 25, r: 8, p: 1)) }
    }

    @Test("constant-time comparison")
    func constantTime() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), []))
    }

    @Test("base64url and form encoding")
    func encodings() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("-_8=") == [0xfb, 0xff])
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("A") == nil)
        #expect(FormEncoding.decode("grant_type=refresh_token&refresh_token=a%2Bb+c&empty") == [
            "grant_type": "refresh_token", "refresh_token": "a+b c", "empty": "",
        ])
        #expect(FormEncoding.encode([("key", "a b&c"), ("x", "é")]) == "key=a%20b%26c&x=%C3%A9")
    }
}
