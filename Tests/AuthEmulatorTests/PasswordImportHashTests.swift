import AuthEmulator
import Foundation
import Testing

/// The hash algorithms of `accounts:batchCreate`, each against vectors computed by an independent implementation:
/// the published bcrypt vectors (OpenBSD/Openwall, as John the Ripper ships them), Firebase's own scrypt vectors
/// (github.com/firebase/scrypt's README; firebase-admin-node's import test), RFC 6070 (PBKDF2-SHA1), RFC 7914
/// (scrypt), RFC 6238 (TOTP), RFC 4648 (base32), and values Python's `hashlib`/`hmac` compute for Firebase's
/// salt/password conventions (`tools/auth_tests` recomputes them at run time against the live service).
@Suite("imported password hashes")
struct PasswordImportHashTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    private let password = Array("password".utf8)
    private let salt = Array("NaCl".utf8)

    @Test("bcrypt matches the Openwall/OpenBSD vectors and refuses wrong passwords and $2x$")
    func bcryptVectors() {
        let vectors: [(String, String)] = [
            ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
            ("U*U*", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"),
            ("U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
            ("", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
            (
                "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored",
                "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"
            ),
        ]
        for (plain, stored) in vectors {
            #expect(Bcrypt.verify(password: Array(plain.utf8), against: stored), "\(stored)")
            let setting = Bcrypt.parse(stored)!
            #expect(Bcrypt.string(password: Array(plain.utf8), salt: setting.salt, cost: 5, variant: "2a") == stored)
        }
        #expect(!Bcrypt.verify(password: Array("U*V".utf8), against: vectors[0].1))
        #expect(Bcrypt.verify(password: Array("U*U".utf8), against: vectors[0].1.replacingOccurrences(of: "$2a$", with: "$2b$")))
        #expect(!Bcrypt.verify(password: Array("U*U".utf8), against: vectors[0].1.replacingOccurrences(of: "$2a$", with: "$2x$")))
        #expect(Bcrypt.parse("$2a$05$short") == nil)
        #expect(Bcrypt.parse("$2a$99$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW") == nil)
    }

    @Test("Firebase's modified scrypt matches its published vectors")
    func firebaseScrypt() throws {
        let key = WireBytes.decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!
        let separator = WireBytes.decode("Bw==")!
        let readme = try FirebaseScrypt.hash(
            password: Array("user1password".utf8), salt: WireBytes.decode("42xEC+ixf3L2lw==")!,
            saltSeparator: separator, signerKey: key, rounds: 8, memoryCost: 14)
        #expect(
            Data(readme).base64EncodedString()
                == "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")
        let imported = ImportedPasswordHash(
            algorithm: .firebaseScrypt(signerKey: key, saltSeparator: separator, rounds: 8, memoryCost: 14), salt: salt,
            hash: WireBytes.decode(
                "V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T/rcaGieN04q/ZPJ08WhJEHGjj9lz/2TT+/86N5VjVoc5DdBhBiw==")!)
        #expect(imported.verify("password"))
        #expect(!imported.verify("Password"))
    }

    @Test("digest, HMAC, PBKDF2 and standard scrypt conventions match hashlib's values")
    func conventions() throws {
        let cases: [(PasswordHashAlgorithm, String)] = [
            (.md5(rounds: 0), "62d19f7e7ddcb5946728776d25e410ed"),
            (.md5(rounds: 3), "2e48a1323beca96f22b8c63da8fdc417"),
            (.sha(.sha1, rounds: 1, order: .saltFirst), "e329d4054aff39056c09041993fe859a861d272f"),
            (.sha(.sha256, rounds: 3, order: .saltFirst), "52184566ba1c2c2b8443e5e8afb937bb1e97f479f1d60332fd3d15f72dfabb56"),
            (
                .sha(.sha512, rounds: 2, order: .passwordFirst),
                "404a9a3f1d178fd8bc94aa772ea9baa1098818d90b1b06595ead971ba8224983f3e3427044819e0b06b40428e6ecf50f89a502fda53084b86fd5e39a132b7041"
            ),
            (.hmac(.sha256, key: Array("secret".utf8), order: .passwordFirst), "0b958a87e41ae5190c96afa1e435f95cab013ac42dfc310a11a50100c42aae52"),
            (.hmac(.md5, key: Array("secret".utf8), order: .saltFirst), "6195dd28e7f6b4d8f713d938456ae99f"),
            (.hmac(.sha1, key: Array("secret".utf8), order: .passwordFirst), "b528e5b70f1267169dd4063a93cc03602c147b22"),
            (
                .hmac(.sha512, key: Array("secret".utf8), order: .passwordFirst),
                "ca816cca04fe20c99ad6532ff88a81bdf1ccd430a68a76adea6f64bba45ee6797c412cbd6770703c6f459de8d245cbbdf6d2b8c52555918e88f5eb8e7fc9e640"
            ),
            (
                .pbkdf2(.sha256, rounds: 1000),
                "67dbcc78548a75328f6890125bec2c59876e8de2e4c92c99b201872a760e2aec07f928a3644f76386289fbada724473dcb945051de19b134d930b52b358f51d3"
            ),
            (.standardScrypt(cpuMemCost: 1024, blockSize: 8, parallelization: 1, keyLength: 32), "27b418c674c769d12501fbb1f53bac32df6514c0f28d043872b148b348961a79"),
        ]
        for (algorithm, expected) in cases {
            var stored = [UInt8]()
            var index = expected.startIndex
            while index < expected.endIndex {
                let next = expected.index(index, offsetBy: 2)
                stored.append(UInt8(expected[index..<next], radix: 16)!)
                index = next
            }
            if case .md5 = algorithm { stored = Array(expected.utf8) }
            let imported = ImportedPasswordHash(algorithm: algorithm, salt: salt, hash: stored)
            #expect(imported.verify("password"), "\(algorithm.name)")
            #expect(!imported.verify("passworD"), "\(algorithm.name)")
            #expect(ImportedPasswordHash(encoded: imported.encoded) == imported, "\(algorithm.name) round-trips")
        }
        // RFC 6070: PBKDF2-HMAC-SHA1("password", "salt", 2, 20).
        let rfc6070 = try ImportedPasswordHash.derive(
            .pbkdf2(.sha1, rounds: 2), password: password, salt: Array("salt".utf8), length: 20)
        #expect(hex(rfc6070) == "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
    }

    @Test("parameters outside Firebase's bounds match nothing")
    func bounds() {
        let huge = ImportedPasswordHash(algorithm: .md5(rounds: 1 << 30), salt: [], hash: [1, 2, 3])
        #expect(!huge.verify("x"))
        let scrypt = ImportedPasswordHash(
            algorithm: .standardScrypt(cpuMemCost: 1 << 20, blockSize: 8, parallelization: 1, keyLength: 32), salt: [],
            hash: [1])
        #expect(!scrypt.verify("x"))
        #expect(!ImportedPasswordHash(algorithm: .bcrypt, salt: [], hash: []).verify(""))
    }

    @Test("TOTP matches RFC 6238's SHA-1 vectors; base32 matches RFC 4648")
    func totpVectors() {
        let secret = Array("12345678901234567890".utf8)
        let vectors: [(Int64, String)] = [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ]
        for (time, code) in vectors {
            #expect(TOTP.code(secret: secret, at: time, digits: 8) == code)
            #expect(TOTP.verify(String(code.suffix(6)), secret: secret, at: time, window: 0))
            #expect(TOTP.verify(String(code.suffix(6)), secret: secret, at: time + 60, window: 2))
            #expect(!TOTP.verify(String(code.suffix(6)), secret: secret, at: time + 300, window: 2))
        }
        #expect(TOTP.base32(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(TOTP.decodeBase32("MZXW6YTBOI======") == Array("foobar".utf8))
        #expect(TOTP.decodeBase32("MZXW6!") == nil)
    }
}
