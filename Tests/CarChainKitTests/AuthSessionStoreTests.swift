import CarChain
import CarChainKit
import Foundation
import Testing

@Suite("SessionStore: the signed-in session on disk")
struct AuthSessionStoreTests {
    private func temporaryHome() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("carchain-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private let session = AuthSession(
        uid: "abcdefghijklmnopqrstuvwxyz12", email: "gil@example.com", idToken: "eyJ.header.sig",
        refreshToken: "refresh-secret", expiresAt: Date(timeIntervalSince1970: 1_700_003_600), backend: "in-process")

    @Test("write, read, delete; file 0600 in a 0700 directory")
    func roundTrip() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let nested = (home as NSString).appendingPathComponent("nested/home")
        let store = SessionStore(home: nested)
        #expect(try store.read() == nil)
        try store.write(session)
        #expect(try mode(store.path) == 0o600)
        #expect(try mode(nested) == 0o700)
        #expect(try store.read() == session)
        var updated = session
        updated.idToken = "eyJ.new.sig"
        try store.write(updated)
        #expect(try store.read() == updated)
        #expect(try mode(store.path) == 0o600)
        try store.delete()
        #expect(try store.read() == nil)
        try store.delete()
        // Only session.json is left behind, never temporary files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: nested).isEmpty)
    }

    @Test("the file holds tokens, never a password; descriptions never show tokens")
    func contents() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = SessionStore(home: home)
        try store.write(session)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: store.path)), as: UTF8.self)
        #expect(text.contains("refresh-secret"))
        #expect(!text.lowercased().contains("password"))
        #expect(!session.description.contains("refresh-secret"))
        #expect(!session.description.contains("eyJ"))
        #expect(!String(reflecting: session).contains("refresh-secret"))
        #expect(!"\(session)".contains("refresh-secret"))
    }

    @Test("a session file others can read is refused; a corrupt one is reported")
    func unsafeOrCorrupt() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = SessionStore(home: home)
        try store.write(session)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.path)
        #expect(throws: SessionStoreError.self) { try store.read() }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.path)
        _ = FileManager.default.createFile(atPath: store.path, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o600])
        do {
            _ = try store.read()
            Issue.record("a corrupt session was accepted")
        } catch {
            #expect(error.description.contains("log in again"))
        }
    }

    @Test("CARCHAIN_HOME, else ~/.carchain")
    func location() {
        #expect(SessionStore.standard(environment: ["CARCHAIN_HOME": "/tmp/ch", "HOME": "/home/u"]).path == "/tmp/ch/session.json")
        #expect(SessionStore.standard(environment: ["HOME": "/home/u"]).path == "/home/u/.carchain/session.json")
        #expect(SessionStore.home(environment: ["CARCHAIN_HOME": "", "HOME": "/home/u"]) == "/home/u/.carchain")
        // The keystores and the embedded chain live in the same home (CarchainHome, the one place it is resolved).
        #expect(CarchainHome.current(environment: ["CARCHAIN_HOME": "/x"]).keystores.url.path == "/x/keystore")
        #expect(CarchainHome.current(environment: ["HOME": "/h"]).keystores.url.path == "/h/.carchain/keystore")
        #expect(CarchainHome.current(environment: ["CARCHAIN_HOME": "/x"]).chainDirectory.path == "/x/chain")
    }

    @Test("isExpired with a margin")
    func expiry() {
        let expires = session.expiresAt
        #expect(!session.isExpired(at: expires.addingTimeInterval(-1)))
        #expect(session.isExpired(at: expires))
        #expect(session.isExpired(at: expires.addingTimeInterval(-299), margin: 300))
        #expect(!session.isExpired(at: expires.addingTimeInterval(-301), margin: 300))
    }
}
