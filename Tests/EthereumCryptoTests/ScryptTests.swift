import CryptoExtras
import EthereumCrypto
import EthereumPrimitives
import Testing

/// The project's scrypt (used only where BoringSSL refuses the parameters) against RFC 7914's vectors and
/// against swift-crypto's BoringSSL scrypt on parameters both accept.
@Suite struct ScryptTests {
    /// RFC 7914 §12, the two cheap vectors.
    @Test(arguments: [
        ("", "", 16, 1, 1,
         "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"),
        ("password", "NaCl", 1024, 8, 16,
         "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"),
    ])
    func rfc7914Vectors(password: String, salt: String, n: Int, r: Int, p: Int, expected: String) throws {
        let key = try Scrypt.deriveKey(password: Array(password.utf8), salt: Array(salt.utf8), n: n, r: r, p: p, length: 64)
        #expect(Hex.encode(key, prefix: false) == expected)
    }

    @Test(arguments: [(2, 1, 1), (16, 2, 3), (256, 1, 2), (1024, 4, 1)])
    func matchesBoringSSL(n: Int, r: Int, p: Int) throws {
        let password = Array("correct horse battery staple".utf8)
        let salt = (0..<32).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let ours = try Scrypt.deriveKey(password: password, salt: salt, n: n, r: r, p: p, length: 32)
        let theirs = try KDF.Scrypt.deriveKey(from: password, salt: salt, outputByteCount: 32, rounds: n, blockSize: r, parallelism: p)
        #expect(ours == theirs.withUnsafeBytes { [UInt8]($0) })
    }
}
