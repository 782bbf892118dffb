import EthereumPrimitives
import Foundation
import GRDB

/// What a forked chain read from its remote, kept on disk so a second start at the same fork block asks the
/// remote nothing it already answered: one SQLite file (WAL, so a kill -9 loses at most the batch being
/// written, never the file) per (chain id, fork block), `fork-<chain id>-<block>.sqlite` in the node's data
/// directory. Values at a fixed block never change, so the file is never invalidated, only extended.
///
/// A file that is not a readable cache of that chain and block (not SQLite, a failed integrity check, another
/// chain id or block in its meta row) is discarded and started afresh: the warning says so, and nothing read
/// from it is trusted.
public final class ForkCacheFile: @unchecked Sendable {
    /// The file's path.
    public let path: String
    /// Why an earlier file was discarded at open, if one was (for a warning line).
    public let discarded: String?
    private let queue: DatabaseQueue

    /// The file's name for `chainId` at `block`.
    public static func fileName(chainId: UInt64, block: UInt64) -> String { "fork-\(chainId)-\(block).sqlite" }

    /// Opens (creating) the cache for `chainId` at `block` in `directory`.
    public init(directory: URL, chainId: UInt64, block: UInt64) throws(ForkError) {
        let path = directory.appendingPathComponent(Self.fileName(chainId: chainId, block: block)).path
        self.path = path
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw .cache("cannot create \(directory.path): \(error.localizedDescription)")
        }
        var reason: String?
        var opened: DatabaseQueue?
        do { opened = try Self.open(path, chainId: chainId, block: block) } catch {
            reason = "\(error)"
        }
        if opened == nil {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            do { opened = try Self.open(path, chainId: chainId, block: block) } catch {
                throw .cache("cannot create \(path): \(error)")
            }
        }
        self.discarded = reason
        // Checked above: one of the two opens succeeded or the initializer threw.
        guard let opened else { throw .cache("cannot open \(path)") }
        self.queue = opened
    }

    private struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    private static func open(_ path: String, chainId: UInt64, block: UInt64) throws -> DatabaseQueue {
        var config = Configuration()
        config.label = "carchain.fork-cache"
        config.journalMode = .wal
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.write { db in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer"
            guard check == "ok" else { throw Mismatch(description: "integrity check failed: \(check)") }
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS accounts (
                        address BLOB PRIMARY KEY, present INTEGER NOT NULL, nonce BLOB NOT NULL, balance BLOB NOT NULL,
                        code BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS slots (
                        address BLOB NOT NULL, slot BLOB NOT NULL, value BLOB NOT NULL, PRIMARY KEY (address, slot))
                        WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS block_hashes (number BLOB PRIMARY KEY, hash BLOB NOT NULL) WITHOUT ROWID;
                    """)
            let identity = "\(chainId)/\(block)"
            if let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'fork'") {
                guard stored == identity else { throw Mismatch(description: "it caches \(stored), not \(identity)") }
            } else {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('fork', ?)", arguments: [identity])
            }
        }
        return queue
    }

    /// The fork block as stored by ``storePoint(_:)`` (so a start naming the chain id and block needs no remote
    /// round trip to begin); nil when absent or not readable.
    public func storedPoint() -> ForkPoint? {
        guard let text = try? queue.read({ db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'point'") }),
            let bytes = try? Hex.decode(text), let header = try? BlockHeader(encoded: bytes),
            let chain = try? queue.read({ db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'fork'") }),
            let chainId = chain.split(separator: "/").first.flatMap({ UInt64($0) })
        else { return nil }
        return ForkPoint(chainId: chainId, header: header, hash: header.hash)
    }

    /// Keeps the fork block's header.
    public func storePoint(_ point: ForkPoint) throws(ForkError) {
        do {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('point', ?)", arguments: [Hex.encode(point.header.encoded)])
            }
        } catch {
            throw .cache("cannot write \(path): \(error)")
        }
    }

    /// Everything the file holds. A row that does not decode makes the whole file untrusted.
    func load() throws(ForkError) -> ForkFetchResult {
        do {
            return try queue.read { db in
                var result = ForkFetchResult()
                for row in try Row.fetchAll(db, sql: "SELECT address, present, nonce, balance, code FROM accounts") {
                    let address = try Self.address(row["address"])
                    let present: Int64 = row["present"]
                    result.accounts[address] =
                        present == 0
                        ? .some(nil)
                        : RemoteAccount(
                            nonce: try Self.word(row["nonce"]).low64, balance: try Self.word(row["balance"]),
                            code: [UInt8](row["code"] as Data))
                }
                for row in try Row.fetchAll(db, sql: "SELECT address, slot, value FROM slots") {
                    let slot = StorageSlot(address: try Self.address(row["address"]), key: try Self.word(row["slot"]))
                    result.slots[slot] = try Self.word(row["value"])
                }
                for row in try Row.fetchAll(db, sql: "SELECT number, hash FROM block_hashes") {
                    let hash = try Self.word(row["hash"])
                    result.blockHashes[try Self.word(row["number"]).low64] = Bytes32(hash.bigEndianBytes) ?? .zero
                }
                return result
            }
        } catch {
            throw .cache("\(path) is unreadable: \(error)")
        }
    }

    /// Everything the file holds (for tests of the file format).
    public func loadForTests() throws(ForkError) -> ForkFetchResult { try load() }

    /// Adds fetched values (one transaction).
    public func store(_ result: ForkFetchResult) throws(ForkError) {
        do {
            try queue.write { db in
                for (address, account) in result.accounts {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO accounts (address, present, nonce, balance, code) VALUES (?, ?, ?, ?, ?)",
                        arguments: [
                            Data(address.bytes), account == nil ? 0 : 1, Data(UInt256(account?.nonce ?? 0).bigEndianBytes),
                            Data((account?.balance ?? .zero).bigEndianBytes), Data(account?.code ?? []),
                        ])
                }
                for (slot, value) in result.slots {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO slots (address, slot, value) VALUES (?, ?, ?)",
                        arguments: [Data(slot.address.bytes), Data(slot.key.bigEndianBytes), Data(value.bigEndianBytes)])
                }
                for (number, hash) in result.blockHashes {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO block_hashes (number, hash) VALUES (?, ?)",
                        arguments: [Data(UInt256(number).bigEndianBytes), Data(hash.bytes)])
                }
            }
        } catch {
            throw .cache("cannot write \(path): \(error)")
        }
    }

    private static func address(_ data: Data) throws -> Address {
        guard let address = Address(bytes: [UInt8](data)) else { throw Mismatch(description: "an address of \(data.count) bytes") }
        return address
    }

    private static func word(_ data: Data) throws -> UInt256 {
        guard data.count == 32 else { throw Mismatch(description: "a word of \(data.count) bytes") }
        return UInt256(truncatingBigEndian: [UInt8](data))
    }
}
