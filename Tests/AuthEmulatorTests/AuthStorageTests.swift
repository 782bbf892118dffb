import AuthEmulator
import Foundation
import GRDB
import Testing

@Suite("storage: SQLite file, signing key file")
struct AuthStorageTests {
    @Test("the data directory holds only hashes: no password or refresh token in the SQLite file")
    func noSecretsOnDisk() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let password = "Sup3r-Distinctive-Passw0rd"
        var refreshToken = ""
        do {
            let emulator = try await AuthEmulator.open(dataDirectory: directory, projectId: "demo-carchain", policy: fastPolicy)
            let created = try await emulator.signUp(.init(email: "sam@example.com", password: password))
            refreshToken = created.refreshToken
            _ = try await emulator.signInWithPassword(.init(email: "sam@example.com", password: password))
        }
        var files = try FileManager.default.contentsOfDirectory(atPath: directory)
        files.sort()
        #expect(files.contains(AuthStore.fileName))
        #expect(files.contains(TokenSigner.keyFileName))
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(file)))
            #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file) contains the password")
            #expect(bytes.range(of: Data(refreshToken.utf8)) == nil, "\(file) contains the refresh token")
        }
        // What is stored instead: a scrypt PHC string with its parameters, and a 32-byte token digest.
        let database = try DatabaseQueue(path: (directory as NSString).appendingPathComponent(AuthStore.fileName))
        let (stored, digestLength) = try await database.read { db in
            (try String.fetchOne(db, sql: "SELECT password_hash FROM users") ?? "",
             try Int.fetchOne(db, sql: "SELECT length(token_sha256) FROM sessions LIMIT 1") ?? 0)
        }
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        let parsed = try #require(PasswordHash(encoded: stored))
        #expect(parsed.salt.count == 16)
        #expect(parsed.hash.count == 32)
        #expect(try PasswordHasher().verify(password, against: parsed))
        #expect(digestLength == 32)
    }

    @Test("key file and database are mode 0600; the key survives a restart and old tokens still verify")
    func keyFilePersistence() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualAuthClock()
        let first = try await AuthEmulator.open(dataDirectory: directory, projectId: "demo-carchain", clock: clock, policy: fastPolicy)
        let created = try await first.signUp(.init(email: "tess@example.com", password: "secret-pw"))
        let keyPath = (directory as NSString).appendingPathComponent(TokenSigner.keyFileName)
        #expect(try fileMode(keyPath) == 0o600)
        #expect(try fileMode((directory as NSString).appendingPathComponent(AuthStore.fileName)) == 0o600)
        let pem = String(decoding: try #require(FileManager.default.contents(atPath: keyPath)), as: UTF8.self)
        #expect(pem.hasPrefix("-----BEGIN"))
        #expect(pem.contains("PRIVATE KEY-----"))

        let second = try await AuthEmulator.open(dataDirectory: directory, projectId: "demo-carchain", clock: clock, policy: fastPolicy)
        #expect(second.signer.keyID == first.signer.keyID)
        let account = try await second.lookup(.init(idToken: created.idToken))
        #expect(account.users?.first?.localId == created.localId)
        _ = try await second.refresh(.init(refreshToken: created.refreshToken))
        _ = try await second.signInWithPassword(.init(email: "tess@example.com", password: "secret-pw"))
    }

    @Test("a key file readable by others is refused")
    func permissiveKeyFileRefused() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = (directory as NSString).appendingPathComponent(TokenSigner.keyFileName)
        _ = try await TokenSigner.loadOrCreate(keyFile: keyPath)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyPath)
        do {
            _ = try await TokenSigner.loadOrCreate(keyFile: keyPath)
            Issue.record("a 0644 key file was accepted")
        } catch {
            #expect(String(describing: error).contains("chmod 600"))
        }
    }

    @Test("a key file that is not a key is refused with its path")
    func invalidKeyFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = (directory as NSString).appendingPathComponent(TokenSigner.keyFileName)
        _ = FileManager.default.createFile(atPath: keyPath, contents: Data("not a key".utf8), attributes: [.posixPermissions: 0o600])
        do {
            _ = try await TokenSigner.loadOrCreate(keyFile: keyPath)
            Issue.record("garbage was accepted as a key")
        } catch {
            #expect(String(describing: error).contains(keyPath))
        }
    }

    @Test("the in-memory store keeps nothing between instances")
    func inMemory() async throws {
        let first = try await AuthEmulator.ephemeral(projectId: "demo-carchain", policy: fastPolicy)
        _ = try await first.signUp(.init(email: "uma@example.com", password: "secret-pw"))
        let second = try await AuthEmulator.ephemeral(projectId: "demo-carchain", policy: fastPolicy)
        #expect(try await second.store.userCount() == 0)
        #expect(first.signer.keyID != second.signer.keyID)
    }
}
