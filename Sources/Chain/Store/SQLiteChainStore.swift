import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation
import GRDB
import GRDBSQLite

/// The SQLite database of a dev chain (through GRDB): blocks, transactions, receipts, logs indexed
/// for `eth_getLogs` (by address and by each topic position, with the block number), the state of the head block (accounts, storage, code), and one reverse state
/// diff per block. Everything a block adds — including its state changes — is written in one SQLite
/// transaction, so the file always holds a whole number of blocks whose state matches the head.
///
/// On disk the file is `<dir>/chain.sqlite` in WAL mode with `synchronous = NORMAL`: a committed
/// transaction survives the process being killed at any instant (it is in the WAL before the commit
/// returns); an operating-system crash may lose the last blocks but never leaves a partial one.
///
/// Mined blocks reach the database through ``append(_:)``: durable at once in `<dir>/chain.journal`
/// (``BlockJournal``, one `write(2)` per block), written to SQLite later by ``BlockWriter`` on its own thread, many
/// per transaction; a journal the database has not caught up with is applied when the store opens. Reads of a block
/// the writer has not written yet wait for it (the chain serves its recent blocks from memory, so they rarely do);
/// every other write waits for the writer first. Imports and the genesis write directly (``commit(_:)``).
///
/// Reads go through `inDatabase`, not `read`: GRDB's `read` toggles `PRAGMA query_only`, and every
/// flag pragma expires all prepared statements, so each read made the next block's cached INSERTs
/// re-compile (a fifth of the time of an automined transaction). The chain's actor serialises writes,
/// and nothing here writes outside `commit`, `setMeta` and `rewind`.
struct SQLiteChainStore: Sendable {
    typealias BlockWrite = ChainStore.BlockWrite
    typealias LogRow = ChainStore.LogRow

    private let queue: DatabaseQueue
    /// The read-only connection `eth_getLogs` reads through, so a query does not wait behind the block writer's
    /// transaction on `queue` (WAL readers see the last commit).
    private let logReader: DatabaseQueue
    /// The database file.
    let path: String
    /// The journal of blocks not yet in the database.
    private let journal: BlockJournal
    /// Writes appended blocks into the database.
    let writer: BlockWriter

    /// Opens (creating if needed) `<directory>/chain.sqlite`, first applying the journal's blocks the database does not
    /// hold yet.
    init(directory url: URL) throws(ChainError) {
        let queue: DatabaseQueue
        let logReader: DatabaseQueue
        let file = url.appendingPathComponent("chain.sqlite").path
        do {
            var config = Configuration()
            config.label = "carchain.chain"
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            config.journalMode = .wal
            // The dev-state journal (DevJournal) writes the same file through its own connection while the block
            // writer's thread commits blocks: each waits for the other's transaction instead of failing with
            // SQLITE_BUSY.
            config.busyMode = .timeout(10)
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            queue = try DatabaseQueue(path: file, configuration: config)
            try queue.write { db in try Self.createSchema(db) }
            var readConfig = Configuration()
            readConfig.label = "carchain.chain.logs"
            readConfig.readonly = true
            readConfig.busyMode = .timeout(10)
            logReader = try DatabaseQueue(path: file, configuration: readConfig)
        } catch let error as ChainError {
            throw error
        } catch {
            throw .storage("cannot open the database: \(error)")
        }
        self.queue = queue
        self.logReader = logReader
        path = file
        let head = try Self.headNumber(queue)
        let journalPath = BlockJournal.path(directory: url)
        // An empty database has no genesis for the journal's blocks to follow (a journal is only ever written after
        // the genesis is committed).
        let written = try head.map { head throws(ChainError) in try Self.replayJournal(at: journalPath, into: queue, head: head) } ?? 0
        let journal = try BlockJournal(path: journalPath)
        try journal.reset()  // the database holds all of it now
        self.journal = journal
        writer = BlockWriter(
            written: written, journaled: true,
            commit: { blocks throws(ChainError) in try Self.write(blocks, to: queue) },
            didWrite: { last in journal.compact(applied: last) })
    }

    /// Writes the journal's records above `head` that continue the chain (the next number, the head's hash as
    /// parent) into the database, in one transaction; returns the new head. Records the database holds are skipped;
    /// reading stops at the first record that is cut short, damaged or does not continue the chain.
    private static func replayJournal(at path: String, into queue: DatabaseQueue, head: UInt64) throws(ChainError) -> UInt64 {
        let records = try BlockJournal.records(at: path)
        guard let last = records.last, last.number > head else { return head }
        let parent: Bytes32?
        do {
            parent = try queue.inDatabase { db in
                try Data.fetchOne(db, sql: "SELECT hash FROM blocks WHERE number = ?", arguments: [Int64(bitPattern: head)])
                    .flatMap { Bytes32([UInt8]($0)) }
            }
        } catch { throw .storage("reading block \(head): \(error)") }
        guard var parent else { return head }
        var blocks: [BlockWrite] = []
        var next = head &+ 1
        for record in records where record.number >= next {
            guard record.number == next, let block = try? BlockWrite(journalRecord: Array(record.payload)),
                block.header.number == next, block.header.parentHash == parent
            else { break }
            blocks.append(block)
            parent = block.hash
            next &+= 1
        }
        guard !blocks.isEmpty else { return head }
        try write(blocks, to: queue)
        return head &+ UInt64(blocks.count)
    }

    private static func createSchema(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS blocks (
                    number INTEGER PRIMARY KEY, hash BLOB NOT NULL UNIQUE, header BLOB NOT NULL);
                CREATE TABLE IF NOT EXISTS transactions (
                    hash BLOB PRIMARY KEY, block_number INTEGER NOT NULL, idx INTEGER NOT NULL,
                    sender BLOB NOT NULL, raw BLOB NOT NULL) WITHOUT ROWID;
                CREATE UNIQUE INDEX IF NOT EXISTS transactions_position ON transactions (block_number, idx);
                CREATE TABLE IF NOT EXISTS receipts (
                    block_number INTEGER NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL,
                    PRIMARY KEY (block_number, idx)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS logs (
                    block_number INTEGER NOT NULL, log_index INTEGER NOT NULL, tx_index INTEGER NOT NULL,
                    address BLOB NOT NULL, topic0 BLOB, topic1 BLOB, topic2 BLOB, topic3 BLOB, data BLOB NOT NULL,
                    PRIMARY KEY (block_number, log_index)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS logs_address ON logs (address, block_number);
                CREATE INDEX IF NOT EXISTS logs_topic0 ON logs (topic0, block_number);
                CREATE INDEX IF NOT EXISTS logs_topic1 ON logs (topic1, block_number) WHERE topic1 IS NOT NULL;
                CREATE INDEX IF NOT EXISTS logs_topic2 ON logs (topic2, block_number) WHERE topic2 IS NOT NULL;
                CREATE INDEX IF NOT EXISTS logs_topic3 ON logs (topic3, block_number) WHERE topic3 IS NOT NULL;
                CREATE TABLE IF NOT EXISTS accounts (
                    address BLOB PRIMARY KEY, nonce INTEGER NOT NULL, balance BLOB NOT NULL,
                    code_hash BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS code (hash BLOB PRIMARY KEY, code BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS storage (
                    address BLOB NOT NULL, slot BLOB NOT NULL, value BLOB NOT NULL,
                    PRIMARY KEY (address, slot)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS state_diffs (block_number INTEGER PRIMARY KEY, diff BLOB NOT NULL);
                CREATE TABLE IF NOT EXISTS bodies (
                    block_number INTEGER PRIMARY KEY, ommers BLOB NOT NULL, withdrawals BLOB);
                CREATE TABLE IF NOT EXISTS block_dev_changes (block_number INTEGER PRIMARY KEY, changes BLOB NOT NULL);
                """)
    }

    /// Runs `body` and turns SQLite errors into ``ChainError/storage(_:)``.
    private func guarded<T>(_ what: String, _ body: () throws -> T) throws(ChainError) -> T {
        do { return try body() } catch let error as ChainError { throw error } catch {
            throw .storage("\(what): \(error)")
        }
    }

    // MARK: Meta

    /// A metadata value.
    func meta(_ key: String) throws(ChainError) -> [UInt8]? {
        try guarded("reading meta \(key)") {
            try queue.inDatabase { db in
                try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]).map { [UInt8]($0) }
            }
        }
    }

    /// Sets metadata values in one transaction (after every appended block is written).
    func setMeta(_ values: [String: [UInt8]]) throws(ChainError) {
        try writer.drain()
        try guarded("writing meta") {
            try queue.write { db in
                for (key, value) in values {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, Data(value)])
                }
            }
        }
    }

    // MARK: Writing blocks

    /// Makes a mined block durable and queues it for the database: in the journal on return (on disk), in the
    /// database soon after. Throws, with nothing kept, when the journal cannot be written or the database could not
    /// be written earlier.
    func append(_ block: BlockWrite) throws(ChainError) {
        try writer.check()
        try journal.append(number: block.header.number, payload: block.journalRecord)
        writer.enqueue(block)
    }

    /// Waits until the database holds every appended block.
    func drain() throws(ChainError) { try writer.drain() }

    /// The highest block number the database holds; appended blocks above it are still being written.
    var writtenThrough: UInt64 { writer.writtenThrough }

    /// Writes consecutive blocks, oldest first, and their state changes in one SQLite transaction, before returning:
    /// all or none (after every appended block is written). An import groups blocks this way; one transaction per
    /// block would spend most of its time in SQLite's commit (the WAL pages of the state tables are written again for
    /// every block).
    func commit(_ blocks: some Collection<BlockWrite>) throws(ChainError) {
        guard let last = blocks.reversed().first?.header.number else { return }
        try writer.drain()
        try Self.write(blocks, to: queue)
        writer.noteWritten(last)
    }

    /// Writes `blocks` in one transaction: each block's rows, then the state rows of all of them, merged (a state
    /// row several blocks change is written once, with its last value).
    private static func write(_ blocks: some Collection<BlockWrite>, to queue: DatabaseQueue) throws(ChainError) {
        guard let first = blocks.first?.header.number else { return }
        let what = blocks.count == 1 ? "committing block \(first)" : "committing blocks \(first)–\(first &+ UInt64(blocks.count) &- 1)"
        do {
            try queue.inDatabase { db in
                // BEGIN and COMMIT as cached statements: `write` would compile both for every block.
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                do {
                    for block in blocks { try Self.insert(block, db) }
                    if blocks.count == 1, let block = blocks.first {
                        try writeState(block.state, db)
                    } else {
                        try writeState(CommittedState.Writes(merging: blocks.map(\.state)), db)
                    }
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                } catch {
                    try? db.execute(sql: "ROLLBACK TRANSACTION")
                    throw error
                }
            }
        } catch let error as ChainError {
            throw error
        } catch {
            throw .storage("\(what): \(error)")
        }
    }

    private static func insert(_ block: BlockWrite, _ db: Database) throws {
        let number = BoundStatement.Value.number(block.header.number)
        try BoundStatement(db, "INSERT INTO blocks (number, hash, header) VALUES (?, ?, ?)")
            .run(number, .word(block.hash), .bytes(block.header.encoded))
        let txInsert = try BoundStatement(
            db, "INSERT OR REPLACE INTO transactions (hash, block_number, idx, sender, raw) VALUES (?, ?, ?, ?, ?)")
        for (i, tx) in block.transactions.enumerated() {
            try txInsert.run(.word(tx.hash), number, .int(i), .address(block.senders[i]), .bytes(tx.encoded))
        }
        let receiptInsert = try BoundStatement(db, "INSERT INTO receipts (block_number, idx, data) VALUES (?, ?, ?)")
        for (i, receipt) in block.receipts.enumerated() { try receiptInsert.run(number, .int(i), .bytes(receipt.encoded)) }
        let logInsert = try BoundStatement(
            db,
            """
            INSERT INTO logs (block_number, log_index, tx_index, address, topic0, topic1, topic2, topic3, data)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (i, entry) in block.logs.enumerated() {
            let topics = entry.log.topics
            func topic(_ n: Int) -> BoundStatement.Value { n < topics.count ? .word(topics[n]) : .null }
            try logInsert.run(
                number, .int(i), .int(entry.transactionIndex), .address(entry.log.address), topic(0), topic(1), topic(2),
                topic(3), .bytes(entry.log.data))
        }
        try BoundStatement(db, "INSERT INTO state_diffs (block_number, diff) VALUES (?, ?)").run(number, .bytes(block.diff.encoded))
        if !block.ommers.isEmpty || !block.withdrawals.isEmpty {
            try BoundStatement(db, "INSERT INTO bodies (block_number, ommers, withdrawals) VALUES (?, ?, ?)")
                .run(
                    number, .bytes(RLP.encode(.list(block.ommers.map(\.rlp)))),
                    .bytes(RLP.encode(.list(block.withdrawals.map(\.rlp)))))
        }
        if let changes = block.devChanges, !changes.isEmpty {
            try BoundStatement(db, "INSERT INTO block_dev_changes (block_number, changes) VALUES (?, ?)").run(number, .bytes(changes.encoded))
        }
    }

    private static func writeState(_ writes: CommittedState.Writes, _ db: Database) throws {
        let upsertAccount = try BoundStatement(
            db, "INSERT OR REPLACE INTO accounts (address, nonce, balance, code_hash) VALUES (?, ?, ?, ?)")
        let deleteAccount = try BoundStatement(db, "DELETE FROM accounts WHERE address = ?")
        let clearStorage = try BoundStatement(db, "DELETE FROM storage WHERE address = ?")
        for (address, fields) in writes.accounts {
            if let fields {
                try upsertAccount.run(.address(address), .number(fields.nonce), .uint256(fields.balance), .word(fields.codeHash))
            } else {
                try deleteAccount.run(.address(address))
                try clearStorage.run(.address(address))
            }
        }
        for address in writes.clearedStorage { try clearStorage.run(.address(address)) }
        let upsertSlot = try BoundStatement(db, "INSERT OR REPLACE INTO storage (address, slot, value) VALUES (?, ?, ?)")
        let deleteSlot = try BoundStatement(db, "DELETE FROM storage WHERE address = ? AND slot = ?")
        for (address, key, value) in writes.storage {
            if value.isZero {
                try deleteSlot.run(.address(address), .uint256(key))
            } else {
                try upsertSlot.run(.address(address), .uint256(key), .uint256(value))
            }
        }
        let insertCode = try BoundStatement(db, "INSERT OR IGNORE INTO code (hash, code) VALUES (?, ?)")
        for (hash, code) in writes.codes where !code.isEmpty { try insertCode.run(.word(hash), .bytes(code)) }
    }

    // MARK: Rewinding (snapshot revert)

    /// Removes every block above `number` and turns the state tables back into the state of block
    /// `number` by applying the stored reverse diffs, newest first, in one transaction.
    func rewind(to number: UInt64) throws(ChainError) {
        // The journal's records are all in the database now; they must not come back after the rewind.
        try writer.drain()
        try journal.reset()
        defer { writer.noteWritten(number) }
        try guarded("rewinding to block \(number)") {
            try queue.write { db in
                let from = Int64(bitPattern: number)
                let rows = try Row.fetchAll(
                    db, sql: "SELECT block_number, diff FROM state_diffs WHERE block_number > ? ORDER BY block_number DESC",
                    arguments: [from])
                for row in rows {
                    let blob: Data = row[1]
                    let diff = try StateDiff(encoded: [UInt8](blob))
                    try Self.revertState(diff, db)
                }
                try db.execute(sql: "DELETE FROM blocks WHERE number > ?", arguments: [from])
                for table in ["transactions", "receipts", "logs", "state_diffs", "bodies", "block_dev_changes"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE block_number > ?", arguments: [from])
                }
            }
        }
    }

    private static func revertState(_ diff: StateDiff, _ db: Database) throws {
        var writes = CommittedState.Writes()
        for (address, account) in diff.accounts {
            guard let pre = account.pre else {
                writes.accounts.append((address, nil))
                continue
            }
            writes.accounts.append((address, pre))
            if account.storageCleared { writes.clearedStorage.append(address) }
            for (key, value) in account.slots { writes.storage.append((address, key, value)) }
        }
        try writeState(writes, db)
    }

    // MARK: Reading

    /// The highest block number, nil for an empty database (after every appended block is written).
    func headNumber() throws(ChainError) -> UInt64? {
        try writer.drain()
        return try Self.headNumber(queue)
    }

    private static func headNumber(_ queue: DatabaseQueue) throws(ChainError) -> UInt64? {
        do {
            return try queue.inDatabase { db in
                try Int64.fetchOne(db, sql: "SELECT MAX(number) FROM blocks").map { UInt64(bitPattern: $0) }
            }
        } catch { throw .storage("reading the head: \(error)") }
    }

    /// A block's header.
    func header(number: UInt64) throws(ChainError) -> BlockHeader? {
        try writer.wait(through: number)
        let bytes = try guarded("reading block \(number)") {
            try queue.inDatabase { db in
                try Data.fetchOne(
                    db, sql: "SELECT header FROM blocks WHERE number = ?", arguments: [Int64(bitPattern: number)])
            }
        }
        guard let bytes else { return nil }
        do { return try BlockHeader(encoded: [UInt8](bytes)) } catch {
            throw .storage("block \(number): bad header encoding: \(error)")
        }
    }

    /// The number of the block with `hash`, among the blocks the database holds (appended blocks not yet written are
    /// not seen: the chain knows those).
    func number(hash: Bytes32) throws(ChainError) -> UInt64? {
        try guarded("looking up block \(hash)") {
            try queue.inDatabase { db in
                try Int64.fetchOne(db, sql: "SELECT number FROM blocks WHERE hash = ?", arguments: [Data(hash.bytes)])
                    .map { UInt64(bitPattern: $0) }
            }
        }
    }

    /// The hash of block `number`.
    func hash(number: UInt64) throws(ChainError) -> Bytes32? {
        try writer.wait(through: number)
        return try guarded("reading the hash of block \(number)") {
            try queue.inDatabase { db in
                try Data.fetchOne(db, sql: "SELECT hash FROM blocks WHERE number = ?", arguments: [Int64(bitPattern: number)])
                    .flatMap { Bytes32([UInt8]($0)) }
            }
        }
    }

    /// All block hashes from `from` up, in order (for the in-memory hash index).
    func hashes(from: UInt64) throws(ChainError) -> [Bytes32] {
        try writer.drain()
        return try guarded("reading block hashes") {
            try queue.inDatabase { db in
                try Data.fetchAll(
                    db, sql: "SELECT hash FROM blocks WHERE number >= ? ORDER BY number",
                    arguments: [Int64(bitPattern: from)]
                ).map { Bytes32([UInt8]($0)) ?? .zero }
            }
        }
    }

    /// A block's transactions and senders, in order.
    func transactions(block number: UInt64) throws(ChainError) -> [(SignedTransaction, Address)] {
        try writer.wait(through: number)
        let rows = try guarded("reading transactions of block \(number)") {
            try queue.inDatabase { db in
                try Row.fetchAll(
                    db, sql: "SELECT raw, sender FROM transactions WHERE block_number = ? ORDER BY idx",
                    arguments: [Int64(bitPattern: number)])
            }
        }
        var out: [(SignedTransaction, Address)] = []
        for row in rows {
            let raw: Data = row[0]
            let sender: Data = row[1]
            do {
                out.append((try SignedTransaction.decode([UInt8](raw)), Address(bytes: [UInt8](sender)) ?? .zero))
            } catch {
                throw .storage("block \(number): bad transaction encoding: \(error)")
            }
        }
        return out
    }

    /// Where a mined transaction is: block number and index.
    /// The ommers and withdrawals of block `number` (both empty when the block stored none).
    func body(number: UInt64) throws(ChainError) -> (ommers: [BlockHeader], withdrawals: [Withdrawal]) {
        try writer.wait(through: number)
        let row = try guarded("reading the body of block \(number)") {
            try queue.inDatabase { db in
                try Row.fetchOne(
                    db, sql: "SELECT ommers, withdrawals FROM bodies WHERE block_number = ?",
                    arguments: [Int64(bitPattern: number)])
            }
        }
        guard let row else { return ([], []) }
        do {
            let ommersBlob: Data = row[0]
            guard case .list(let ommerItems) = try RLP.decode([UInt8](ommersBlob)) else { throw RLPError(.expectedList) }
            var ommers: [BlockHeader] = []
            for item in ommerItems { ommers.append(try BlockHeader(encoded: RLP.encode(item))) }
            var withdrawals: [Withdrawal] = []
            if let blob: Data = row[1], case .list(let items) = try RLP.decode([UInt8](blob)) {
                for item in items { withdrawals.append(try Withdrawal(rlp: item)) }
            }
            return (ommers, withdrawals)
        } catch {
            throw .storage("the stored body of block \(number) does not decode: \(error)")
        }
    }

    /// Where a transaction is, among the blocks the database holds (the chain knows those not yet written).
    func transactionPosition(hash: Bytes32) throws(ChainError) -> (block: UInt64, index: Int)? {
        try guarded("looking up transaction \(hash)") {
            try queue.inDatabase { db in
                try Row.fetchOne(
                    db, sql: "SELECT block_number, idx FROM transactions WHERE hash = ?", arguments: [Data(hash.bytes)]
                ).map { row in (UInt64(bitPattern: row[0] as Int64), row[1] as Int) }
            }
        }
    }

    /// A block's stored receipts, in order.
    func receipts(block number: UInt64) throws(ChainError) -> [StoredReceipt] {
        try writer.wait(through: number)
        let blobs = try guarded("reading receipts of block \(number)") {
            try queue.inDatabase { db in
                try Data.fetchAll(
                    db, sql: "SELECT data FROM receipts WHERE block_number = ? ORDER BY idx",
                    arguments: [Int64(bitPattern: number)])
            }
        }
        var out: [StoredReceipt] = []
        for blob in blobs {
            do { out.append(try StoredReceipt(encoded: [UInt8](blob))) } catch {
                throw .storage("block \(number): bad receipt encoding: \(error)")
            }
        }
        return out
    }

    /// The logs of blocks `from...to` matching the address and per-position topic sets (an empty
    /// set matches anything), in chain order; uses the per-position topic indexes (logs_topic0…3).
    /// The statement is prepared once per shape and its rows read through SQLite's C API (no `Row`, `Data` or
    /// `DatabaseValue` per column); each block's timestamp is read from its header once.
    func logs(from: UInt64, to: UInt64, addresses: [Address], topics: [[Bytes32]]) throws(ChainError) -> [LogRow] {
        try writer.wait(through: to)
        var sql = "SELECT l.block_number, l.log_index, l.tx_index, l.address, l.topic0, l.topic1, l.topic2, l.topic3,"
            + " l.data, t.hash, b.hash, b.header FROM logs l"
            + " JOIN transactions t ON t.block_number = l.block_number AND t.idx = l.tx_index"
            + " JOIN blocks b ON b.number = l.block_number"
            + " WHERE l.block_number BETWEEN ? AND ?"
        var blobs: [[UInt8]] = []
        if !addresses.isEmpty {
            sql += " AND l.address IN (" + Array(repeating: "?", count: addresses.count).joined(separator: ",") + ")"
            blobs += addresses.map(\.bytes)
        }
        for (position, alternatives) in topics.prefix(4).enumerated() where !alternatives.isEmpty {
            sql += " AND l.topic\(position) IN (" + Array(repeating: "?", count: alternatives.count).joined(separator: ",") + ")"
            blobs += alternatives.map(\.bytes)
        }
        // A log has at least as many topics as the filter has positions, wildcards included (LogFilter.topics).
        if !topics.isEmpty { sql += " AND l.topic\(Swift.min(topics.count, 4) - 1) IS NOT NULL" }
        sql += " ORDER BY l.block_number, l.log_index"
        let finalSQL = sql
        let values = blobs
        // Filters of a few alternatives (the usual ones) keep their prepared statement; long lists are prepared
        // for the one query, so the cache stays small whatever the requests.
        let cached = values.count <= 8
        return try guarded("querying logs") {
            try logReader.inDatabase { db in
                let statement = cached ? try db.cachedStatement(sql: finalSQL) : try db.makeStatement(sql: finalSQL)
                let handle = statement.sqliteStatement
                defer {
                    sqlite3_reset(handle)
                    sqlite3_clear_bindings(handle)
                }
                func check(_ code: Int32) throws {
                    guard code == SQLITE_OK else { throw ChainError.storage("binding the logs query (SQLite code \(code))") }
                }
                try check(sqlite3_bind_int64(handle, 1, Int64(bitPattern: from)))
                try check(sqlite3_bind_int64(handle, 2, Int64(bitPattern: to)))
                for (i, blob) in values.enumerated() {
                    try check(blob.withUnsafeBytes {
                        sqlite3_bind_blob(handle, Int32(i + 3), $0.baseAddress, Int32($0.count), Self.transient)
                    })
                }
                var timestamps: [UInt64: UInt64] = [:]
                var out: [LogRow] = []
                while true {
                    let code = sqlite3_step(handle)
                    if code == SQLITE_DONE { break }
                    guard code == SQLITE_ROW else {
                        throw ChainError.storage("\(String(cString: sqlite3_errmsg(db.sqliteConnection))) (SQLite code \(code))")
                    }
                    let number = UInt64(bitPattern: sqlite3_column_int64(handle, 0))
                    var topics: [Bytes32] = []
                    for column in Int32(4)...7 {
                        guard let bytes = Self.blob(handle, column), let topic = Bytes32(bytes) else { break }
                        topics.append(topic)
                    }
                    let timestamp: UInt64
                    if let known = timestamps[number] {
                        timestamp = known
                    } else {
                        timestamp = try Self.timestamp(header: Self.blob(handle, 11) ?? [], block: number)
                        timestamps[number] = timestamp
                    }
                    out.append(LogRow(
                        blockNumber: number, logIndex: Int(sqlite3_column_int64(handle, 1)),
                        transactionIndex: Int(sqlite3_column_int64(handle, 2)),
                        transactionHash: Self.blob(handle, 9).flatMap { Bytes32($0) } ?? .zero,
                        log: Log(
                            address: Self.blob(handle, 3).flatMap { Address(bytes: $0) } ?? .zero, topics: topics,
                            data: Self.blob(handle, 8) ?? []),
                        blockHash: Self.blob(handle, 10).flatMap { Bytes32($0) } ?? .zero, blockTimestamp: timestamp))
                }
                return out
            }
        }
    }

    /// SQLITE_TRANSIENT: SQLite copies a bound blob before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Column `index` of the current row as bytes; nil for NULL (an empty blob is `[]`).
    private static func blob(_ handle: OpaquePointer, _ index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let base = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The timestamp (field 11) of an RLP block header, without decoding the rest of it.
    private static func timestamp(header: [UInt8], block number: UInt64) throws(ChainError) -> UInt64 {
        do {
            guard case .list(let fields) = try RLP.decode(header), fields.count > 11 else {
                throw RLPError(.expectedList)
            }
            return try UInt64(rlp: fields[11])
        } catch {
            throw .storage("block \(number): bad header encoding: \(error)")
        }
    }

    /// The reverse state diffs of blocks `from...to`, by number.
    func diffs(from: UInt64, to: UInt64) throws(ChainError) -> [UInt64: StateDiff] {
        try writer.wait(through: to)
        let rows = try guarded("reading state diffs") {
            try queue.inDatabase { db in
                try Row.fetchAll(
                    db, sql: "SELECT block_number, diff FROM state_diffs WHERE block_number BETWEEN ? AND ?",
                    arguments: [Int64(bitPattern: from), Int64(bitPattern: to)])
            }
        }
        var out: [UInt64: StateDiff] = [:]
        for row in rows {
            let number = UInt64(bitPattern: row[0] as Int64)
            let blob: Data = row[1]
            do { out[number] = try StateDiff(encoded: [UInt8](blob)) } catch {
                throw .storage("block \(number): bad state diff: \(error)")
            }
        }
        return out
    }

    /// The dev changes block `number` was mined on, nil when it has none.
    func devChanges(block number: UInt64) throws(ChainError) -> PendingDevState? {
        try writer.wait(through: number)
        let blob = try guarded("reading the dev changes of block \(number)") {
            try queue.inDatabase { db in
                try Data.fetchOne(
                    db, sql: "SELECT changes FROM block_dev_changes WHERE block_number = ?", arguments: [Int64(bitPattern: number)])
            }
        }
        guard let blob else { return nil }
        do { return try PendingDevState(encoded: [UInt8](blob)) } catch {
            throw .storage("block \(number): the stored dev changes do not decode: \(error)")
        }
    }

    /// The numbers of the blocks among `from...to` mined on dev changes, in order.
    func blocksWithDevChanges(from: UInt64, to: UInt64) throws(ChainError) -> [UInt64] {
        try writer.wait(through: to)
        return try guarded("reading which blocks have dev changes") {
            try queue.inDatabase { db in
                try Int64.fetchAll(
                    db, sql: "SELECT block_number FROM block_dev_changes WHERE block_number BETWEEN ? AND ? ORDER BY block_number",
                    arguments: [Int64(bitPattern: from), Int64(bitPattern: to)]
                ).map { UInt64(bitPattern: $0) }
            }
        }
    }

    /// The state tables as a world state.
    func loadState() throws(ChainError) -> WorldState {
        try writer.drain()
        return try guarded("loading the state") {
            try queue.inDatabase { db in
                var codes: [Data: [UInt8]] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT hash, code FROM code") {
                    codes[row[0] as Data] = [UInt8](row[1] as Data)
                }
                var state = WorldState()
                for row in try Row.fetchAll(db, sql: "SELECT address, nonce, balance, code_hash FROM accounts") {
                    guard let address = Address(bytes: [UInt8](row[0] as Data)) else {
                        throw ChainError.storage("accounts table: bad address")
                    }
                    let hash: Data = row[3]
                    let code = codes[hash] ?? []
                    if code.isEmpty && Bytes32([UInt8](hash)) != .emptyCodeHash {
                        throw ChainError.storage("account \(address): code \(Hex.encode([UInt8](hash))) missing")
                    }
                    state.accounts[address] = Account(
                        nonce: UInt64(bitPattern: row[1] as Int64),
                        balance: UInt256(truncatingBigEndian: [UInt8](row[2] as Data)), code: code)
                }
                for row in try Row.fetchAll(db, sql: "SELECT address, slot, value FROM storage") {
                    guard let address = Address(bytes: [UInt8](row[0] as Data)), state.accounts[address] != nil else {
                        throw ChainError.storage("storage table: slot of a missing account")
                    }
                    let slot = UInt256(truncatingBigEndian: [UInt8](row[1] as Data))
                    state.accounts[address]?.storage[slot] = UInt256(truncatingBigEndian: [UInt8](row[2] as Data))
                }
                return state
            }
        }
    }
}
