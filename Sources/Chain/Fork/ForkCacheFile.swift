import EthereumPrimitives
import Foundation
import GRDB
import Synchronization

/// What a forked chain read from its remote, kept on disk so a second start at the same fork block asks the
/// remote nothing it already answered: one SQLite file (WAL, so a kill -9 loses at most the batch being
/// written, never the file) per (chain id, fork block), `fork-<chain id>-<block>.sqlite` in the node's data
/// directory. Values at a fixed block never change, so the file is only extended — unless the remote's block at
/// that height changes (a reorg), which ``reset(because:)`` handles.
///
/// Nothing read from the file is trusted unchecked: every row carries a checksum (the first 16 bytes of
/// keccak256 over the fork's identity and the row's values), and the whole file is read and checked when it is
/// opened. A file that is not a readable cache of that chain and block — not SQLite, a failed integrity check,
/// another chain id or block, another format, or a single row whose checksum does not match — is discarded and
/// started afresh; ``discarded`` says why, for a warning line.
public final class ForkCacheFile: @unchecked Sendable {
    // @unchecked: `queue` serializes every access to the database; `discardReason` is a lock; the other properties
    // are set once in init.
    /// The file's path.
    public let path: String
    /// Why an earlier file was discarded at open, or emptied by ``reset(because:)``, if it was (for a warning line).
    public var discarded: String? { discardReason.withLock { $0 } }
    private let discardReason: Mutex<String?>
    /// Everything the file held when it was opened, every row checked.
    public let loaded: ForkFetchResult
    /// The fork block as the file recorded it (``storePoint(_:)``), checked; nil when the file has none.
    public let storedPoint: ForkPoint?
    private let queue: DatabaseQueue
    private let identity: String

    /// The version of the file's layout; a file of another version is discarded, not migrated.
    static let format = "2"

    /// The file's name for `chainId` at `block`.
    public static func fileName(chainId: UInt64, block: UInt64) -> String { "fork-\(chainId)-\(block).sqlite" }

    /// Opens (creating) the cache for `chainId` at `block` in `directory`, reading and checking what it holds.
    public init(directory: URL, chainId: UInt64, block: UInt64) throws(ForkError) {
        let path = directory.appendingPathComponent(Self.fileName(chainId: chainId, block: block)).path
        let identity = "\(chainId)/\(block)"
        self.path = path
        self.identity = identity
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw .cache("cannot create \(directory.path): \(error.localizedDescription)")
        }
        var reason: String?
        var opened: (DatabaseQueue, ForkFetchResult, ForkPoint?)?
        do { opened = try Self.open(path, identity: identity) } catch {
            reason = "\(error)"
        }
        if opened == nil {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            do { opened = try Self.open(path, identity: identity) } catch {
                throw .cache("cannot create \(path): \(error)")
            }
        }
        // Checked above: one of the two opens succeeded or the initializer threw.
        guard let (queue, loaded, point) = opened else { throw .cache("cannot open \(path)") }
        self.discardReason = Mutex(reason)
        self.queue = queue
        self.loaded = loaded
        self.storedPoint = point
    }

    private struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    private static func open(_ path: String, identity: String) throws -> (DatabaseQueue, ForkFetchResult, ForkPoint?) {
        var config = Configuration()
        config.label = "carchain.fork-cache"
        config.journalMode = .wal
        // Two nodes forking the same block from one data directory share the file: wait for the other's write.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let (loaded, point) = try queue.write { db -> (ForkFetchResult, ForkPoint?) in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer"
            guard check == "ok" else { throw Mismatch(description: "integrity check failed: \(check)") }
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS accounts (
                        address BLOB PRIMARY KEY, present INTEGER NOT NULL, nonce BLOB NOT NULL, balance BLOB NOT NULL,
                        code BLOB NOT NULL, checksum BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS slots (
                        address BLOB NOT NULL, slot BLOB NOT NULL, value BLOB NOT NULL, checksum BLOB NOT NULL,
                        PRIMARY KEY (address, slot)) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS block_hashes (
                        number BLOB PRIMARY KEY, hash BLOB NOT NULL, checksum BLOB NOT NULL) WITHOUT ROWID;
                    """)
            var stored: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta") {
                stored[String(decoding: try text(row, "key"), as: UTF8.self)] = String(decoding: try text(row, "value"), as: UTF8.self)
            }
            if let fork = stored["fork"] {
                guard fork == identity else { throw Mismatch(description: "it caches \(fork), not \(identity)") }
                guard stored["format"] == format else {
                    throw Mismatch(description: "it has format \(stored["format"] ?? "1"), not \(format)")
                }
            } else {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('fork', ?), ('format', ?)", arguments: [identity, format])
            }
            return (try load(db, identity: identity), try readPoint(stored, identity: identity))
        }
        return (queue, loaded, point)
    }

    /// Every row, each checked against its checksum. Columns are read as raw values, so a value of the wrong type is
    /// a mismatch, never a trap.
    private static func load(_ db: Database, identity: String) throws -> ForkFetchResult {
        var result = ForkFetchResult()
        for row in try Row.fetchAll(db, sql: "SELECT address, present, nonce, balance, code, checksum FROM accounts") {
            let (address, present, nonce, balance, code) = (
                try blob(row, "address"), try integer(row, "present"), try blob(row, "nonce"), try blob(row, "balance"), try blob(row, "code")
            )
            try verify(try blob(row, "checksum"), identity, "account", [address, UInt64(bitPattern: present).bigEndianBytes, nonce, balance, code])
            result.accounts[try Self.address(address)] =
                present == 0 ? .some(nil) : RemoteAccount(nonce: try word64(nonce), balance: try word(balance), code: code)
        }
        for row in try Row.fetchAll(db, sql: "SELECT address, slot, value, checksum FROM slots") {
            let (address, key, value) = (try blob(row, "address"), try blob(row, "slot"), try blob(row, "value"))
            try verify(try blob(row, "checksum"), identity, "slot", [address, key, value])
            result.slots[StorageSlot(address: try Self.address(address), key: try word(key))] = try word(value)
        }
        for row in try Row.fetchAll(db, sql: "SELECT number, hash, checksum FROM block_hashes") {
            let (number, hash) = (try blob(row, "number"), try blob(row, "hash"))
            try verify(try blob(row, "checksum"), identity, "block hash", [number, hash])
            guard let bytes = Bytes32(hash) else { throw Mismatch(description: "a block hash of \(hash.count) bytes") }
            result.blockHashes[try word64(number)] = bytes
        }
        return result
    }

    /// The stored fork block, checked; nil when the file has none yet.
    private static func readPoint(_ meta: [String: String], identity: String) throws -> ForkPoint? {
        guard let text = meta["point"] else { return nil }
        // `header:checksum`, or `header:hash:checksum` with the hash the remote reported (a header whose fields do not
        // hash to it: ForkSettings.verify).
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 2 || parts.count == 3, let encoded = try? Hex.decode(parts[0]) else {
            throw Mismatch(description: "its fork block record is unreadable")
        }
        var reported: Bytes32?
        if parts.count == 3 {
            guard let bytes = try? Hex.decode(parts[1]), let hash = Bytes32(bytes) else {
                throw Mismatch(description: "its fork block record is unreadable")
            }
            reported = hash
        }
        guard Hex.encode(checksum(identity, "point", [encoded] + (reported.map { [$0.bytes] } ?? []))) == parts[parts.count - 1] else {
            throw Mismatch(description: "its fork block record fails its checksum")
        }
        let header: BlockHeader
        do { header = try BlockHeader(encoded: encoded) } catch { throw Mismatch(description: "its fork block record: \(error)") }
        guard let chainId = identity.split(separator: "/").first.flatMap({ UInt64($0) }), "\(chainId)/\(header.number)" == identity else {
            throw Mismatch(description: "its fork block record is block \(header.number), not the file's")
        }
        return ForkPoint(chainId: chainId, header: header, hash: reported ?? header.hash)
    }

    /// Keeps the fork block's header (so a start naming the chain id and block needs no remote round trip).
    public func storePoint(_ point: ForkPoint) throws(ForkError) {
        let encoded = point.header.encoded
        // The reported hash is kept only when the fields do not hash to it, so files of verified headers stay as they were.
        let reported = point.hash == point.header.hash ? nil : point.hash
        let fields = [encoded] + (reported.map { [$0.bytes] } ?? [])
        let value = ([Hex.encode(encoded)] + (reported.map { [Hex.encode($0.bytes)] } ?? []) + [Hex.encode(Self.checksum(identity, "point", fields))])
            .joined(separator: ":")
        do {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('point', ?)", arguments: [value])
            }
        } catch {
            throw .cache("cannot write \(path): \(error)")
        }
    }

    /// Empties the file (the remote's block at this height is no longer the one cached: a reorg), keeping `reason`
    /// in ``discarded``.
    public func reset(because reason: String) throws(ForkError) {
        do {
            try queue.write { db in
                try db.execute(sql: "DELETE FROM accounts; DELETE FROM slots; DELETE FROM block_hashes; DELETE FROM meta WHERE key = 'point'")
            }
        } catch {
            throw .cache("cannot write \(path): \(error)")
        }
        discardReason.withLock { $0 = reason }
    }

    /// Adds fetched values (one transaction).
    public func store(_ result: ForkFetchResult) throws(ForkError) {
        do {
            try queue.write { db in
                for (address, account) in result.accounts {
                    let fields: [[UInt8]] = [
                        address.bytes, UInt64(account == nil ? 0 : 1).bigEndianBytes, UInt256(account?.nonce ?? 0).bigEndianBytes,
                        (account?.balance ?? .zero).bigEndianBytes, account?.code ?? [],
                    ]
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO accounts (address, present, nonce, balance, code, checksum) VALUES (?, ?, ?, ?, ?, ?)",
                        arguments: [
                            Data(fields[0]), account == nil ? 0 : 1, Data(fields[2]), Data(fields[3]), Data(fields[4]),
                            Data(Self.checksum(identity, "account", fields)),
                        ])
                }
                for (slot, value) in result.slots {
                    let fields = [slot.address.bytes, slot.key.bigEndianBytes, value.bigEndianBytes]
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO slots (address, slot, value, checksum) VALUES (?, ?, ?, ?)",
                        arguments: [Data(fields[0]), Data(fields[1]), Data(fields[2]), Data(Self.checksum(identity, "slot", fields))])
                }
                for (number, hash) in result.blockHashes {
                    let fields = [UInt256(number).bigEndianBytes, hash.bytes]
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO block_hashes (number, hash, checksum) VALUES (?, ?, ?)",
                        arguments: [Data(fields[0]), Data(fields[1]), Data(Self.checksum(identity, "block hash", fields))])
                }
            }
        } catch {
            throw .cache("cannot write \(path): \(error)")
        }
    }

    // MARK: Checksums and decoding

    /// The first 16 bytes of keccak256 over the fork's identity, the row's kind and its fields, each length-prefixed.
    static func checksum(_ identity: String, _ kind: String, _ fields: [[UInt8]]) -> [UInt8] {
        var input: [UInt8] = []
        for field in [Array(identity.utf8), Array(kind.utf8)] + fields {
            input += UInt64(field.count).bigEndianBytes
            input += field
        }
        return Array(Keccak256.hash(input).bytes.prefix(16))
    }

    private static func verify(_ stored: [UInt8], _ identity: String, _ kind: String, _ fields: [[UInt8]]) throws {
        guard stored == checksum(identity, kind, fields) else {
            throw Mismatch(description: "a \(kind) row fails its checksum (the file was changed or damaged)")
        }
    }

    private static func blob(_ row: Row, _ column: String) throws -> [UInt8] {
        let value: DatabaseValue = row[column]
        guard case .blob(let data) = value.storage else { throw Mismatch(description: "a \(column) that is not a blob") }
        return [UInt8](data)
    }

    private static func integer(_ row: Row, _ column: String) throws -> Int64 {
        let value: DatabaseValue = row[column]
        guard case .int64(let number) = value.storage else { throw Mismatch(description: "a \(column) that is not an integer") }
        return number
    }

    private static func text(_ row: Row, _ column: String) throws -> [UInt8] {
        let value: DatabaseValue = row[column]
        guard case .string(let text) = value.storage else { throw Mismatch(description: "a meta \(column) that is not text") }
        return Array(text.utf8)
    }

    private static func address(_ data: [UInt8]) throws -> Address {
        guard let address = Address(bytes: data) else { throw Mismatch(description: "an address of \(data.count) bytes") }
        return address
    }

    private static func word(_ data: [UInt8]) throws -> UInt256 {
        guard data.count == 32 else { throw Mismatch(description: "a word of \(data.count) bytes") }
        return UInt256(truncatingBigEndian: data)
    }

    private static func word64(_ data: [UInt8]) throws -> UInt64 {
        let value = try word(data)
        guard value <= UInt256(UInt64.max) else { throw Mismatch(description: "a number past 2^64") }
        return value.low64
    }
}
