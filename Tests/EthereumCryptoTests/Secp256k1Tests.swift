import EthereumCrypto
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

@Suite struct Secp256k1Tests {
    struct KeyAddrCase: Decodable {
        struct Sig: Decodable { let v: String; let r: String; let s: String }
        let seed: String
        let key: String
        let addr: String
        let sig_of_emptystring: Sig
    }

    /// BasicTests/keyaddrtest.json: key → address, and the deterministic (RFC 6979) signature of keccak256("").
    @Test func keyAddressVectors() throws {
        guard let url = TestPaths.ethTest("BasicTests/keyaddrtest.json", suite: "BasicTests/keyaddrtest") else { return }
        let cases = try JSONDecoder().decode([KeyAddrCase].self, from: Data(contentsOf: url))
        var tally = ConformanceTally(suite: "BasicTests/keyaddrtest")
        for c in cases {
            let key = try PrivateKey(hex: c.key)
            let address = key.address.lowercasedHex
            tally.check(address == "0x" + c.addr, "\(c.seed) address", "got \(address), want 0x\(c.addr)")
            let sig = key.sign(hash: Keccak256.hash([UInt8]()))
            let r = UInt256(sig.r).description
            let s = UInt256(sig.s).description
            let v = String(27 + Int(sig.recoveryID))
            tally.check(
                r == c.sig_of_emptystring.r && s == c.sig_of_emptystring.s && v == c.sig_of_emptystring.v,
                "\(c.seed) signature", "got v=\(v) r=\(r) s=\(s)")
            let recovered = try Secp256k1.recover(hash: Keccak256.hash([UInt8]()), signature: sig)
            tally.check(recovered.address == key.address, "\(c.seed) recovery", "recovered \(recovered.address)")
        }
        tally.report()
        #expect(tally.passed == cases.count * 3)
    }

    @Test func signRecoverVerifyRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let key = PrivateKey.random()
            var msg = [UInt8](repeating: 0, count: 32)
            for i in 0..<32 { msg[i] = generator.next() }
            let hash = Bytes32(msg)!
            let sig = key.sign(hash: hash)
            #expect(sig.isLowS, "libsecp256k1 signatures are low-s (EIP-2)")
            #expect(sig.recoveryID <= 1)
            #expect(try Secp256k1.recover(hash: hash, signature: sig) == key.publicKey)
            #expect(Secp256k1.verify(hash: hash, signature: sig, publicKey: key.publicKey))
            // Same input, same signature (RFC 6979).
            #expect(key.sign(hash: hash) == sig)
            // A different hash does not verify.
            var other = msg
            other[0] ^= 1
            #expect(!Secp256k1.verify(hash: Bytes32(other)!, signature: sig, publicKey: key.publicKey))
        }
    }

    @Test func highSIsRejectedUnlessAllowed() throws {
        let key = try PrivateKey(hex: String(repeating: "01", count: 32))
        let hash = Keccak256.hash("carchain")
        let sig = key.sign(hash: hash)
        // s' = n - s, with the recovery id flipped, is the same signature in high-s form.
        let n = UInt256(Secp256k1.curveOrder)
        let highS = Signature(r: sig.r, s: (n &- UInt256(sig.s)).bytes32, recoveryID: sig.recoveryID ^ 1)
        #expect(!highS.isLowS)
        #expect(throws: Secp256k1.Error.highS) { try Secp256k1.recover(hash: hash, signature: highS) }
        #expect(try Secp256k1.recover(hash: hash, signature: highS, allowHighS: true).address == key.address)
        #expect(!Secp256k1.verify(hash: hash, signature: highS, publicKey: key.publicKey))
    }

    @Test func privateKeyValidation() throws {
        #expect(throws: Secp256k1.Error.self) { try PrivateKey(hex: String(repeating: "00", count: 32)) }
        #expect(throws: Secp256k1.Error.self) { try PrivateKey(hex: Secp256k1.curveOrder.hexString) }
        #expect(throws: Secp256k1.Error.self) { try PrivateKey(hex: "0x1234") }
        #expect(throws: Secp256k1.Error.self) { try PrivateKey(hex: "zz") }
        // n - 1 is the largest valid key.
        let nMinus1 = (UInt256(Secp256k1.curveOrder) &- 1).bytes32
        _ = try PrivateKey(bytes: nMinus1.bytes)
        // Keys never show up in descriptions, and errors never echo the input.
        let key = PrivateKey.random()
        #expect(!"\(key)".contains(Hex.encode(key.rawBytes, prefix: false)))
        do {
            _ = try PrivateKey(hex: "0xdeadbeefzz")
        } catch {
            #expect(!error.description.contains("deadbeef"))
        }
    }

    @Test func publicKeyForms() throws {
        // The well-known first dev account of the test mnemonic.
        let key = try PrivateKey(hex: "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
        #expect(key.address.checksummed == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        let pub = key.publicKey
        #expect(try PublicKey(bytes: pub.compressed) == pub)
        #expect(try PublicKey(bytes: pub.uncompressed) == pub)
        #expect(try PublicKey(bytes: pub.rawBytes) == pub)
        #expect(throws: Secp256k1.Error.self) { try PublicKey(bytes: [UInt8](repeating: 7, count: 64)) }
    }

    @Test func rsvForm() throws {
        let key = PrivateKey.random()
        let sig = key.sign(hash: Keccak256.hash("x"))
        #expect(sig.rsv.count == 65)
        #expect(try Signature(rsv: sig.rsv) == sig)
        var bad = sig.rsv
        bad[64] = 29
        #expect(throws: Secp256k1.Error.invalidRecoveryID(29)) { try Signature(rsv: bad) }
    }
}
