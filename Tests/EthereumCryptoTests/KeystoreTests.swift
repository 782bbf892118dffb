import EthereumCrypto
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct KeystoreTests {
    /// True when expensive KDF vectors should run: release builds, or CARCHAIN_SLOW_TESTS=1.
    static var runSlowVectors: Bool {
        #if DEBUG
        return ProcessInfo.processInfo.environment["CARCHAIN_SLOW_TESTS"] == "1"
        #else
        return true
        #endif
    }

    /// Vectors whose KDF costs n ≥ 2^18 scrypt rounds with p = 8 (seconds in a debug build).
    static let slowVectors: Set<String> = ["test2"]

    /// KeyStoreTests/basic_tests.json: every vector decrypts to its key with its password, and fails with a
    /// wrong password. test2's parameters (n = 2^18, r = 1) break RFC 7914's bound n < 2^(16·r), which
    /// BoringSSL enforces, so it exercises the project's own ROMix. Expensive vectors run in release builds or with
    /// CARCHAIN_SLOW_TESTS=1.
    @Test func basicVectors() throws {
        let tally = ConformanceVectors.run(suite: "KeyStoreTests", directory: "KeyStoreTests", files: ["basic_tests.json"]) { _, name, value in
            guard let json = value["json"], let password = value["password"]?.stringValue, let priv = value["priv"]?.stringValue else {
                return .fail("missing json/password/priv")
            }
            do {
                let keystore = try Keystore(json: json)
                if Self.slowVectors.contains(name) && !Self.runSlowVectors {
                    return .skip("scrypt n=262144 p=8 is slow in debug builds; runs in release or with CARCHAIN_SLOW_TESTS=1")
                }
                let key = try keystore.decrypt(password: password)
                guard Hex.encode(key.rawBytes, prefix: false) == priv else { return .fail("decrypted another key") }
                // The document survives our JSON writer.
                guard try Keystore(json: keystore.json) == keystore else { return .fail("JSON round trip changed the document") }
                do {
                    _ = try keystore.decrypt(password: password + "x")
                    return .fail("a wrong password decrypted")
                } catch KeystoreError.wrongPassword {
                    return .pass
                }
            } catch {
                return .fail("\(error)")
            }
        }
        tally.report()
        for reason in tally.skipReasons { print("  skipped \(reason)") }
        #expect(tally.failed == 0)
    }

    @Test(arguments: [Keystore.KDF.scrypt(n: 1_024, r: 8, p: 1), .pbkdf2(iterations: 1_000)])
    func encryptDecryptRoundTrip(kdf: Keystore.KDF) throws {
        let key = PrivateKey.random()
        let keystore = try Keystore.encrypt(key, password: "pässword", kdf: kdf)
        #expect(keystore.address == key.address)
        #expect(keystore.kdf == kdf)
        let parsed = try Keystore(json: keystore.json)
        #expect(parsed == keystore)
        #expect(try parsed.decrypt(password: "pässword") == key)
        #expect(throws: KeystoreError.wrongPassword) { try parsed.decrypt(password: "password") }
        // The JSON never contains the key.
        #expect(!keystore.json.contains(Hex.encode(key.rawBytes, prefix: false)))
    }

    @Test func wrongPasswordMessageIsClear() {
        #expect(KeystoreError.wrongPassword.description == "could not decrypt key: wrong password (MAC mismatch)")
    }

    @Test func rejectsHostileParameters() throws {
        let keystore = try Keystore.encrypt(PrivateKey.random(), password: "p", kdf: .scrypt(n: 1_024, r: 8, p: 1))
        var bad = keystore
        bad.kdf = .scrypt(n: 1 << 30, r: 8, p: 1)
        #expect { try bad.decrypt(password: "p") } throws: { error in
            if case .invalidParameter = error as? KeystoreError { return true }
            return false
        }
        bad.kdf = .scrypt(n: 1_000, r: 8, p: 1)
        #expect { try bad.decrypt(password: "p") } throws: { error in
            if case .invalidParameter = error as? KeystoreError { return true }
            return false
        }
        #expect(throws: KeystoreError.unsupportedVersion("2")) {
            try Keystore(json: keystore.json.replacingOccurrences(of: "\"version\":3", with: "\"version\":2"))
        }
    }

    @Test func directoryWritesPrivateFilesAtomically() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-ks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = KeystoreDirectory(url: root.appendingPathComponent("home/keystore"))
        #expect(try directory.entries().isEmpty)
        let key = PrivateKey.random()
        let file = try directory.store(try Keystore.encrypt(key, password: "pw", kdf: .scrypt(n: 1_024, r: 8, p: 1)))
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(directory.url.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(file.lastPathComponent.hasPrefix("UTC--"))
        #expect(file.lastPathComponent.hasSuffix(Hex.encode(key.address.bytes, prefix: false)))
        #expect(try directory.entries() == [KeystoreDirectory.Entry(address: key.address, file: file)])
        #expect(try KeystoreDirectory.load(file).decrypt(password: "pw") == key)
        // No temporary files are left behind, and a second file for the same address is refused.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).count == 1)
        #expect(throws: KeystoreError.alreadyExists(key.address)) {
            try directory.store(try Keystore.encrypt(key, password: "pw", kdf: .pbkdf2(iterations: 10)))
        }
    }
}
