import EthereumPrimitives
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files holding secrets: 0600 from the first byte, atomic replacement, never through a symbolic link, in
/// directories only their owner can enter.
@Suite struct SecureFileTests {
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("securefile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        _ = lstat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test func writesOwnerOnlyAndReplacesAtomically() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/secret.json"
        try SecureFile.write("first", to: file)
        #expect(Self.mode(file) == 0o600)
        try SecureFile.write(Array("second".utf8), to: file)
        #expect(try SecureFile.read(file) == Array("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["secret.json"])  // no temporary left
        #expect(try SecureFile.read(directory + "/absent") == nil)
    }

    @Test func refusesFilesOthersCanRead() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/key.pem"
        try SecureFile.write("key", to: file)
        chmod(file, 0o644)
        #expect(throws: SecureFileError.tooPermissive(path: file, mode: 0o644)) { try SecureFile.read(file) }
        try SecureFile.restrictToOwner(file)
        #expect(try SecureFile.read(file) == Array("key".utf8))
    }

    @Test func neverFollowsASymbolicLink() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/elsewhere"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        let link = directory + "/session.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: SecureFileError.self) { try SecureFile.read(link) }
        // Writing replaces the link itself; the file it pointed to keeps its content.
        try SecureFile.write("secret", to: link)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        #expect(try SecureFile.read(link) == Array("secret".utf8))
    }

    @Test func directoriesAreCreatedAndTightenedTo0700() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let nested = directory + "/a/b/keystore"
        try SecureFile.createDirectory(nested)
        #expect(Self.mode(nested) == 0o700)
        #expect(Self.mode(directory + "/a") == 0o700)
        // An existing directory of ours that others can enter is tightened.
        let loose = directory + "/loose"
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try SecureFile.createDirectory(loose)
        #expect(Self.mode(loose) == 0o700)
        // A shared sticky directory (like /tmp) is left as it is.
        let shared = directory + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        try SecureFile.createDirectory(shared)
        #expect(Self.mode(shared) == 0o1777)
        // A file where a directory should be is an error, not a silent success.
        try Data().write(to: URL(fileURLWithPath: directory + "/file"))
        #expect(throws: SecureFileError.notADirectory(path: directory + "/file")) { try SecureFile.createDirectory(directory + "/file") }
    }
}
