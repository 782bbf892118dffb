import EthereumCrypto

extension FuzzHarness {
    /// The largest key-derivation work the keystore harness runs a decryption with (scrypt 128·n·r·p bytes mixed,
    /// PBKDF2 rounds): enough for the light test vectors, small enough for thousands of executions a second.
    static let keystoreWorkLimit = 1 << 16

    /// `Keystore(json:)`: a parsed document prints (``Keystore/json``) to one that parses back equal; with cheap
    /// KDF parameters it is decrypted (with the password "testpassword" of the ethereum/tests vectors, and a
    /// wrong one), which may fail with a ``KeystoreError`` but never trap.
    static func keystore(_ data: [UInt8]) throws(FuzzInvariantFailure) {
        let keystore: Keystore
        do { keystore = try Keystore(json: String(decoding: data, as: UTF8.self)) } catch {
            _ = String(describing: error)
            return
        }
        let printed = keystore.json
        let reparsed: Keystore
        do { reparsed = try Keystore(json: printed) } catch {
            throw FuzzInvariantFailure(.keystore, "printed keystore does not parse: \(error): \(printed.prefix(300))")
        }
        guard reparsed == keystore else { throw FuzzInvariantFailure(.keystore, "json round trip changed the document") }
        guard (try? keystore.kdf.check()) != nil, keystoreWork(keystore.kdf) <= keystoreWorkLimit else { return }
        for password in ["testpassword", "fuzz"] {
            do { _ = try keystore.decrypt(password: password) } catch { _ = String(describing: error) }
        }
    }

    private static func keystoreWork(_ kdf: Keystore.KDF) -> Int {
        switch kdf {
        case .scrypt(let n, let r, let p):
            let (a, o1) = n.multipliedReportingOverflow(by: r)
            let (b, o2) = a.multipliedReportingOverflow(by: p)
            return o1 || o2 ? Int.max : b
        case .pbkdf2(let iterations): return iterations
        }
    }
}
