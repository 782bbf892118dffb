import EVM
import EthereumPrimitives
import Foundation
import GRDB

/// What a chain on disk must keep besides its blocks so that a restart (after SIGTERM or kill -9) serves the same
/// state: the dev methods' changes that no block holds yet (`anvil_setBalance`, `anvil_setCode`, `anvil_setNonce`,
/// `anvil_setStorageAt`, `anvil_loadState`, … between two blocks) and the run-time settings they made
/// (``DevJournal/Settings``: chain id, time, coinbase, gas limit, fees).
///
/// The journal lives in the chain's own `chain.sqlite`, in three tables of its own (`dev_accounts`, `dev_slots`,
/// `dev_settings`) written through a connection of its own, so the block store (``ChainStore``) is not changed by it.
/// Pending changes are rows keyed by the hash of the head block they apply on: every dev change upserts the accounts
/// and slots it touched, with their values after it, in one SQLite transaction, before its answer is sent. A block
/// takes every pending change into its state, so rows of an earlier head are simply stale — they are ignored and
/// deleted (on open, and with the next dev change); nothing is written when a block is mined. A revert or reset
/// writes the rows of the head it goes back to before it rewinds the blocks, and deletes the others after, so a
/// process killed at any instant restarts with either the state before the request or the state after it.
final class DevJournal: Sendable {
    private let queue: DatabaseQueue

    /// Opens (creating its tables) the journal in the database file at `path`.
    init(path: String) throws(ChainError) {
        do {
            var config = Configuration()
            config.label = "carchain.dev-journal"
            config.journalMode = .wal
            // The chain's actor serialises every write to the file; wait rather than fail should a reader hold it.
            config.busyMode = .timeout(10)
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            queue = try DatabaseQueue(path: path, configuration: config)
            try queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS dev_accounts (
                            head BLOB NOT NULL, address BLOB NOT NULL, present INTEGER NOT NULL, nonce INTEGER NOT NULL,
                            balance BLOB NOT NULL, code BLOB NOT NULL, PRIMARY KEY (head, address)) WITHOUT ROWID;
                        CREATE TABLE IF NOT EXISTS dev_slots (
                            head BLOB NOT NULL, address BLOB NOT NULL, slot BLOB NOT NULL, value BLOB NOT NULL,
                            PRIMARY KEY (head, address, slot)) WITHOUT ROWID;
                        CREATE TABLE IF NOT EXISTS dev_settings (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                        """)
            }
        } catch {
            throw .storage("cannot open the dev-state journal: \(error)")
        }
    }

    /// Runs `body` in one write transaction, mapping SQLite's errors.
    private func write(_ what: String, _ body: (Database) throws -> Void) throws(ChainError) {
        do { try queue.write(body) } catch let error as ChainError { throw error } catch {
            throw .storage("dev-state journal: \(what): \(error)")
        }
    }

    // MARK: Pending changes

    /// The pending changes recorded on `head`, and the settings; rows of other heads (stale: a block took them, or a
    /// revert left them) are deleted.
    func load(head: Bytes32) throws(ChainError) -> (pending: PendingDevState, settings: Settings?) {
        var pending = PendingDevState()
        var settings: Settings?
        try write("reading") { db in
            try Self.prune(keeping: head, db)
            let key = Data(head.bytes)
            for row in try Row.fetchAll(
                db, sql: "SELECT address, present, nonce, balance, code FROM dev_accounts WHERE head = ?", arguments: [key])
            {
                let address = try Self.address(row[0] as Data)
                if (row[1] as Int64) == 0 {
                    pending.accounts[address] = .some(nil)
                } else {
                    pending.accounts[address] = PendingAccount(
                        nonce: UInt64(bitPattern: row[2] as Int64), balance: try Self.word(row[3] as Data), code: [UInt8](row[4] as Data))
                }
            }
            for row in try Row.fetchAll(db, sql: "SELECT address, slot, value FROM dev_slots WHERE head = ?", arguments: [key]) {
                pending.slots[StorageSlot(address: try Self.address(row[0] as Data), key: try Self.word(row[1] as Data))] =
                    try Self.word(row[2] as Data)
            }
            if let blob = try Data.fetchOne(db, sql: "SELECT value FROM dev_settings WHERE key = 'settings'") {
                settings = try Settings(encoded: [UInt8](blob))
            }
        }
        return (pending, settings)
    }

    /// Adds what one dev change made (the values after it) to the pending changes of `head`, deleting the rows of
    /// every other head.
    func record(_ pending: PendingDevState, head: Bytes32) throws(ChainError) {
        guard !pending.isEmpty else { return }
        try write("recording a dev change") { db in
            try Self.prune(keeping: head, db)
            try Self.insert(pending, head: head, db)
        }
    }

    /// Makes `pending` the whole of `head`'s pending changes; rows of other heads stay (the blocks above `head` are
    /// rewound after this, and ``prune(keeping:)`` drops their rows then).
    func replace(with pending: PendingDevState, head: Bytes32) throws(ChainError) {
        try write("replacing the pending changes") { db in
            let key = Data(head.bytes)
            try db.execute(sql: "DELETE FROM dev_accounts WHERE head = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM dev_slots WHERE head = ?", arguments: [key])
            try Self.insert(pending, head: head, db)
        }
    }

    /// Deletes the pending changes of every head but `head`.
    func prune(keeping head: Bytes32) throws(ChainError) {
        try write("pruning") { db in try Self.prune(keeping: head, db) }
    }

    /// Keeps the run-time settings.
    func save(_ settings: Settings) throws(ChainError) {
        try write("saving the settings") { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO dev_settings (key, value) VALUES ('settings', ?)", arguments: [Data(settings.encoded)])
        }
    }

    private static func prune(keeping head: Bytes32, _ db: Database) throws {
        let key = Data(head.bytes)
        try db.execute(sql: "DELETE FROM dev_accounts WHERE head != ?", arguments: [key])
        try db.execute(sql: "DELETE FROM dev_slots WHERE head != ?", arguments: [key])
    }

    private static func insert(_ pending: PendingDevState, head: Bytes32, _ db: Database) throws {
        let key = Data(head.bytes)
        let account = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO dev_accounts (head, address, present, nonce, balance, code) VALUES (?, ?, ?, ?, ?, ?)")
        for (address, fields) in pending.accounts {
            try account.execute(arguments: [
                key, Data(address.bytes), fields == nil ? 0 : 1, Int64(bitPattern: fields?.nonce ?? 0),
                Data((fields?.balance ?? .zero).bigEndianBytes), Data(fields?.code ?? []),
            ])
        }
        let slot = try db.cachedStatement(sql: "INSERT OR REPLACE INTO dev_slots (head, address, slot, value) VALUES (?, ?, ?, ?)")
        for (name, value) in pending.slots {
            try slot.execute(arguments: [key, Data(name.address.bytes), Data(name.key.bigEndianBytes), Data(value.bigEndianBytes)])
        }
    }

    private static func address(_ data: Data) throws -> Address {
        guard let address = Address(bytes: [UInt8](data)) else { throw ChainError.storage("dev-state journal: an address of \(data.count) bytes") }
        return address
    }

    private static func word(_ data: Data) throws -> UInt256 {
        guard data.count == 32 else { throw ChainError.storage("dev-state journal: a word of \(data.count) bytes") }
        return UInt256(truncatingBigEndian: [UInt8](data))
    }
}

/// An account's fields as the journal keeps them (its storage is kept slot by slot).
struct PendingAccount: Sendable, Equatable {
    var nonce: UInt64
    var balance: UInt256
    var code: [UInt8]

    init(nonce: UInt64, balance: UInt256, code: [UInt8]) {
        self.nonce = nonce
        self.balance = balance
        self.code = code
    }

    init(_ account: Account) { self.init(nonce: account.nonce, balance: account.balance, code: account.code) }
}

/// Dev changes not in a block yet: accounts (nil: the account does not exist) and slots, with their values now.
struct PendingDevState: Sendable, Equatable {
    var accounts: [Address: PendingAccount?] = [:]
    var slots: [StorageSlot: UInt256] = [:]

    var isEmpty: Bool { accounts.isEmpty && slots.isEmpty }
}

extension DevJournal {
    /// The run-time settings the dev methods made, as a restart needs them. The lasting ones apply whatever the
    /// head; the one-shot ones (the next block's timestamp, time jump and base fee) only while the head is still
    /// ``head``, since the next block consumes them.
    struct Settings: Sendable, Equatable {
        /// `anvil_setChainId`'s chain id.
        var chainId: UInt64
        /// Seconds added to the clock (`evm_increaseTime`, `anvil_setTime`; negative after setting an earlier time).
        var timeOffset: Int64
        var coinbase: Address?
        var gasLimit: UInt64?
        var minGasPrice: UInt256?
        /// The head the one-shot settings below were made on.
        var head: Bytes32
        var nextTimestamp: UInt64?
        var pendingTimeJump: UInt64
        var nextBaseFee: UInt256?

        /// RLP: `[chainId, offsetSign, |offset|, [coinbase?], [gasLimit?], [minGasPrice?], head, [nextTimestamp?],
        /// pendingTimeJump, [nextBaseFee?]]`, each optional a list of zero or one item.
        var encoded: [UInt8] {
            func optional(_ item: RLPItem?) -> RLPItem { .list(item.map { [$0] } ?? []) }
            return RLP.encode(
                .list([
                    RLPItem(unsignedInteger: chainId), .bytes(timeOffset < 0 ? [1] : []), RLPItem(unsignedInteger: timeOffset.magnitude),
                    optional(coinbase.map { .bytes($0.bytes) }), optional(gasLimit.map(RLPItem.init(unsignedInteger:))),
                    optional(minGasPrice.map { .bytes($0.minimalBigEndianBytes) }), .bytes(head.bytes),
                    optional(nextTimestamp.map(RLPItem.init(unsignedInteger:))), RLPItem(unsignedInteger: pendingTimeJump),
                    optional(nextBaseFee.map { .bytes($0.minimalBigEndianBytes) }),
                ]))
        }

        init(
            chainId: UInt64, timeOffset: Int64, coinbase: Address?, gasLimit: UInt64?, minGasPrice: UInt256?, head: Bytes32,
            nextTimestamp: UInt64?, pendingTimeJump: UInt64, nextBaseFee: UInt256?
        ) {
            self.chainId = chainId
            self.timeOffset = timeOffset
            self.coinbase = coinbase
            self.gasLimit = gasLimit
            self.minGasPrice = minGasPrice
            self.head = head
            self.nextTimestamp = nextTimestamp
            self.pendingTimeJump = pendingTimeJump
            self.nextBaseFee = nextBaseFee
        }

        /// Decodes ``encoded``; anything else is a storage error naming the settings.
        init(encoded: [UInt8]) throws(ChainError) {
            do throws(RLPError) {
                let f = try RLP.decode(encoded).list(expectedCount: 10)
                func optional(_ item: RLPItem) throws(RLPError) -> RLPItem? {
                    guard case .list(let items) = item, items.count <= 1 else { throw RLPError(.expectedList) }
                    return items.first
                }
                func word(_ item: RLPItem) throws(RLPError) -> UInt256 {
                    UInt256(truncatingBigEndian: try item.unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
                }
                chainId = try UInt64(rlp: f[0])
                let negative = try Bool(rlp: f[1])
                let magnitude = try UInt64(rlp: f[2])
                guard magnitude <= UInt64(Int64.max) else { throw RLPError(.integerOverflow(byteCount: 8, type: "Int64")) }
                timeOffset = negative ? -Int64(magnitude) : Int64(magnitude)
                coinbase = try optional(f[3]).map { item throws(RLPError) in try Address(rlp: item) }
                gasLimit = try optional(f[4]).map { item throws(RLPError) in try UInt64(rlp: item) }
                minGasPrice = try optional(f[5]).map(word)
                head = try Bytes32(rlp: f[6])
                nextTimestamp = try optional(f[7]).map { item throws(RLPError) in try UInt64(rlp: item) }
                pendingTimeJump = try UInt64(rlp: f[8])
                nextBaseFee = try optional(f[9]).map(word)
            } catch {
                throw .storage("dev-state journal: the settings do not decode: \(error)")
            }
        }
    }
}
