import EthereumPrimitives
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading user-named input with a cap: a file of exactly the limit passes, one byte more fails; `/dev/zero`, a
/// directory, a loop of links and a FIFO without a writer end promptly with one line naming the path.
@Suite struct InputFileTests {
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "carchain-input-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func limitIsExact() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/f"
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path))
        #expect(try InputFile.read(path, limit: 1000) == [UInt8](repeating: 7, count: 1000))
        #expect(throws: InputFileError.tooLarge(path: path, limit: 999)) { try InputFile.read(path, limit: 999) }
        try Data().write(to: URL(fileURLWithPath: dir + "/empty"))
        #expect(try InputFile.read(dir + "/empty", limit: 10).isEmpty)
        #expect(InputFileError.tooLarge(path: "k.json", limit: 1 << 20).description
            == "k.json is larger than 1 MiB, the limit for this kind of file")
    }

    @Test func endlessDevicesDirectoriesAndLinks() throws {
        #expect(throws: InputFileError.tooLarge(path: "/dev/zero", limit: 1 << 16)) { try InputFile.read("/dev/zero", limit: 1 << 16) }
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: InputFileError.directory(path: dir)) { try InputFile.read(dir, limit: 10) }
        // A link to /dev/zero is followed, and capped; a loop of links and a missing file are one-line errors.
        try FileManager.default.createSymbolicLink(atPath: dir + "/zero", withDestinationPath: "/dev/zero")
        #expect(throws: InputFileError.tooLarge(path: dir + "/zero", limit: 100)) { try InputFile.read(dir + "/zero", limit: 100) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/a", withDestinationPath: dir + "/b")
        try FileManager.default.createSymbolicLink(atPath: dir + "/b", withDestinationPath: dir + "/a")
        #expect(throws: InputFileError.system(operation: "open", path: dir + "/a", errno: ELOOP)) { try InputFile.read(dir + "/a", limit: 100) }
        #expect(throws: InputFileError.system(operation: "open", path: dir + "/none", errno: ENOENT)) { try InputFile.read(dir + "/none", limit: 100) }
        #expect(InputFileError.system(operation: "open", path: "x", errno: ENOENT).description == "cannot open x: No such file or directory")
    }

    @Test func fifoWithoutAWriterDoesNotBlock() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let start = ContinuousClock.now
        #expect(try InputFile.read(fifo, limit: 100).isEmpty)
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
