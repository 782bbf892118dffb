import EthereumCrypto
import EthereumPrimitives
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Keystore files made to hurt (issue 14): KDF parameters demanding terabytes or hours, huge, empty, binary or
/// deeply nested files, devices and links. Each is refused with a clear error, quickly, before any KDF work.
@Suite struct KeystoreHostileFileTests {
    static func isInvalidParameter(_ error: any Error, containing text: String) -> Bool {
        guard case .invalidParameter(let why) = error as? KeystoreError else { return false }
        return why.contains(text)
    }

    @Test func kdfParametersBeyondTheWorkBoundAreRefusedBeforeDeriving() throws {
        var keystore = try Keystore.encrypt(PrivateKey.random(), password: "p", kdf: .scrypt(n: 1_024, r: 8, p: 1))
        // Memory within 1 GiB but 1024 passes of it: 1 TiB of mixing.
        keystore.kdf = .scrypt(n: 1 << 20, r: 8, p: 1_024)
        #expect { try keystore.decrypt(password: "p") } throws: { Self.isInvalidParameter($0, containing: "GiB of mixing") }
        // Twice the bound (n·r·p = 2^26).
        keystore.kdf = .scrypt(n: 1 << 18, r: 8, p: 32)
        #expect { try keystore.decrypt(password: "p") } throws: { Self.isInvalidParameter($0, containing: "n·r·p at most 33554432") }
        keystore.kdf = .scrypt(n: 1 << 40, r: 1, p: 1)
        #expect { try keystore.decrypt(password: "p") } throws: { Self.isInvalidParameter($0, containing: "MiB") }
        keystore.kdf = .pbkdf2(iterations: 10_000_001)
        #expect { try keystore.decrypt(password: "p") } throws: { Self.isInvalidParameter($0, containing: "pbkdf2 c must be 1…10000000") }
        keystore.kdf = .pbkdf2(iterations: Int.max)
        #expect { try keystore.decrypt(password: "p") } throws: { Self.isInvalidParameter($0, containing: "pbkdf2 c") }
        // What geth writes (standard and light) and ethereum/tests' n = 2^18, r = 1, p = 8 stay inside.
        for kdf in [Keystore.KDF.standardScrypt, .lightScrypt, .scrypt(n: 1 << 18, r: 1, p: 8), .pbkdf2(iterations: 262_144), .pbkdf2(iterations: 1_000_000)] {
            #expect(throws: Never.self, "\(kdf)") { try kdf.check() }
        }
    }

    @Test func hostileNumbersInTheJSON() throws {
        let good = try Keystore.encrypt(PrivateKey.random(), password: "p", kdf: .scrypt(n: 1_024, r: 8, p: 1)).json
        for (n, reason) in [
            ("18446744073709551616", "missing or non-integer \"n\""), ("1e400", "missing or non-integer \"n\""),
            ("-1024", "missing or non-integer \"n\""), ("\"1024\"", "missing or non-integer \"n\""),
        ] {
            let text = good.replacingOccurrences(of: "\"n\":1024", with: "\"n\":\(n)")
            #expect(throws: KeystoreError.invalidJSON(reason), "n = \(n)") { try Keystore(json: text) }
        }
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: KeystoreError.invalidJSON("the file is not JSON")) { try Keystore(json: nested) }
        #expect(throws: KeystoreError.invalidJSON("the file is not JSON")) { try Keystore(json: "") }
    }

    @Test func hostileFiles() throws {
        let dir = NSTemporaryDirectory() + "carchain-ks-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let key = PrivateKey.random()
        let good = try Keystore.encrypt(key, password: "p", kdf: .scrypt(n: 1_024, r: 8, p: 1))
        try Data(good.json.utf8).write(to: URL(fileURLWithPath: dir + "/good"))
        try Data(repeating: 0x20, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: dir + "/huge"))
        try Data([0xff, 0xfe, 0x00, 0x7b]).write(to: URL(fileURLWithPath: dir + "/binary"))
        try Data().write(to: URL(fileURLWithPath: dir + "/empty"))
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/zero", withDestinationPath: "/dev/zero")
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)

        func load(_ name: String) throws -> Keystore { try KeystoreDirectory.load(URL(fileURLWithPath: dir + "/" + name)) }
        #expect(try load("good") == good)
        #expect(throws: KeystoreError.io("cannot read keystore \(dir)/huge: larger than 1 MiB, the limit for this kind of file")) { try load("huge") }
        #expect(throws: KeystoreError.io("cannot read keystore \(dir)/zero: larger than 1 MiB, the limit for this kind of file")) { try load("zero") }
        #expect(throws: KeystoreError.io("cannot read keystore \(dir)/sub: a directory, not a file")) { try load("sub") }
        #expect(throws: KeystoreError.invalidJSON("the file is not UTF-8 text")) { try load("binary") }
        #expect(throws: KeystoreError.invalidJSON("the file is not JSON")) { try load("empty") }
        #expect(throws: KeystoreError.invalidJSON("the file is not JSON")) { try load("fifo") }
        // Listing the directory skips every one of them, promptly (the FIFO has no writer).
        let start = ContinuousClock.now
        #expect(try KeystoreDirectory(url: URL(fileURLWithPath: dir)).entries().map(\.address) == [key.address])
        #expect(ContinuousClock.now - start < .seconds(10))
    }
}
