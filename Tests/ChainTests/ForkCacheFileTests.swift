import Chain
import EthereumPrimitives
import Foundation
import Testing

/// The fork cache file (Chain/Fork/ForkCacheFile.swift): what is stored is loaded back; a file that is not a cache,
/// or a cache of another fork, is discarded with a reason and never read.
struct ForkCacheFileTests {
    func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("carchain-forkcache-\(UUID().uuidString)")
    }

    static let sample = ForkFetchResult(
        accounts: [
            Address(bytes: [UInt8](repeating: 1, count: 20))!: RemoteAccount(nonce: 7, balance: UInt256(123_456), code: [0x60, 0x00]),
            Address(bytes: [UInt8](repeating: 2, count: 20))!: RemoteAccount?.none,
        ],
        slots: [StorageSlot(address: Address(bytes: [UInt8](repeating: 1, count: 20))!, key: UInt256(5)): UInt256(99)],
        blockHashes: [3: Bytes32([UInt8](repeating: 0xab, count: 32))!])

    @Test func storedValuesLoadBackAfterReopening() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try ForkCacheFile(directory: dir, chainId: 4, block: 10).store(Self.sample)
        let reopened = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
        #expect(reopened.discarded == nil)
        #expect(try reopened.loadForTests() == Self.sample)
    }

    @Test func aCorruptFileIsDiscardedWithAReason() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(ForkCacheFile.fileName(chainId: 4, block: 10))
        try Data(repeating: 0x5a, count: 8192).write(to: path)
        let file = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
        #expect(file.discarded != nil)
        #expect(try file.loadForTests() == ForkFetchResult())
    }

    @Test func aCacheOfAnotherForkIsNotTrusted() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try ForkCacheFile(directory: dir, chainId: 4, block: 10).store(Self.sample)
        let path = dir.appendingPathComponent(ForkCacheFile.fileName(chainId: 4, block: 10))
        let other = dir.appendingPathComponent(ForkCacheFile.fileName(chainId: 5, block: 10))
        try FileManager.default.moveItem(at: path, to: other)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path.path + suffix) }
        let file = try ForkCacheFile(directory: dir, chainId: 5, block: 10)
        #expect(file.discarded?.contains("4/10") == true)
        #expect(try file.loadForTests() == ForkFetchResult())
    }
}
