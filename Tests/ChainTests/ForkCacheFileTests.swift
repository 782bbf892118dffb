import Chain
import EthereumPrimitives
import Foundation
import Testing

/// The fork cache file (Chain/Fork/ForkCacheFile.swift): what is stored is loaded back, the fork block with it; a
/// file that is not a cache, a cache of another fork or format, or one whose values were changed on disk is
/// discarded with a reason and never read; a reorg empties it.
struct ForkCacheFileTests {
    func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("carchain-forkcache-\(UUID().uuidString)")
    }

    static let owner = Address(bytes: [UInt8](repeating: 1, count: 20))!
    /// A storage value easy to find in the file's bytes.
    static let marked = UInt256(truncatingBigEndian: (0..<32).map { UInt8(0xa0 + $0 % 16) })

    static let sample = ForkFetchResult(
        accounts: [
            owner: RemoteAccount(nonce: 7, balance: UInt256(123_456), code: [0x60, 0x00]),
            Address(bytes: [UInt8](repeating: 2, count: 20))!: RemoteAccount?.none,
            Address(bytes: [UInt8](repeating: 3, count: 20))!: RemoteAccount(nonce: 0, balance: UInt256(5), code: []),
        ],
        slots: [StorageSlot(address: owner, key: UInt256(5)): UInt256(99), StorageSlot(address: owner, key: UInt256(6)): marked],
        blockHashes: [3: Bytes32([UInt8](repeating: 0xab, count: 32))!])

    static func point(number: UInt64 = 10, extra: [UInt8] = []) -> ForkPoint {
        let header = BlockHeader(
            parentHash: .zero, coinbase: .zero, stateRoot: .zero, difficulty: .zero, number: number, gasLimit: 30_000_000,
            timestamp: 1_700_000_000, extraData: extra, baseFeePerGas: UInt256(7))
        return ForkPoint(chainId: 4, header: header, hash: header.hash)
    }

    @Test func storedValuesAndTheForkBlockLoadBackAfterReopening() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let file = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
            #expect(file.storedPoint == nil)
            try file.store(Self.sample)
            try file.storePoint(Self.point())
        }
        let reopened = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
        #expect(reopened.discarded == nil)
        #expect(reopened.loaded == Self.sample)
        #expect(reopened.storedPoint == Self.point())
    }

    @Test func aCorruptFileIsDiscardedWithAReason() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(ForkCacheFile.fileName(chainId: 4, block: 10))
        try Data(repeating: 0x5a, count: 8192).write(to: path)
        let file = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
        #expect(file.discarded != nil)
        #expect(file.loaded == ForkFetchResult())
    }

    @Test func aValueChangedOnDiskIsDetectedAndTheFileDiscarded() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do { try ForkCacheFile(directory: dir, chainId: 4, block: 10).store(Self.sample) }
        // One byte of the marked storage value flipped where SQLite keeps it: the page stays well-formed, so only the
        // row's checksum can tell.
        let pattern = Self.marked.bigEndianBytes
        var tampered = false
        for suffix in ["", "-wal"] {
            let path = dir.appendingPathComponent(ForkCacheFile.fileName(chainId: 4, block: 10) + suffix)
            guard var bytes = try? [UInt8](Data(contentsOf: path)) else { continue }
            var i = 0
            while i + pattern.count <= bytes.count {
                if bytes[i] == pattern[0] && Array(bytes[i..<(i + pattern.count)]) == pattern {
                    bytes[i + 31] ^= 0x01
                    tampered = true
                    i += pattern.count
                } else {
                    i += 1
                }
            }
            if tampered { try Data(bytes).write(to: path) }
        }
        #expect(tampered)
        let file = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
        #expect(file.discarded?.contains("fails its checksum") == true, "\(file.discarded ?? "kept")")
        #expect(file.loaded == ForkFetchResult())
    }

    @Test func aCacheOfAnotherForkIsNotTrusted() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do { try ForkCacheFile(directory: dir, chainId: 4, block: 10).store(Self.sample) }
        let path = dir.appendingPathComponent(ForkCacheFile.fileName(chainId: 4, block: 10))
        let other = dir.appendingPathComponent(ForkCacheFile.fileName(chainId: 5, block: 10))
        try FileManager.default.moveItem(at: path, to: other)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path.path + suffix) }
        let file = try ForkCacheFile(directory: dir, chainId: 5, block: 10)
        #expect(file.discarded?.contains("4/10") == true)
        #expect(file.loaded == ForkFetchResult())
    }

    @Test func aReorgEmptiesTheFile() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let file = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
            try file.store(Self.sample)
            try file.storePoint(Self.point())
            try file.reset(because: "block 10 is now another block")
            #expect(file.discarded == "block 10 is now another block")
            try file.storePoint(Self.point(extra: [1]))
        }
        let reopened = try ForkCacheFile(directory: dir, chainId: 4, block: 10)
        #expect(reopened.loaded == ForkFetchResult())
        #expect(reopened.storedPoint == Self.point(extra: [1]))
    }
}
