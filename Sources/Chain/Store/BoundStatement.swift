import EthereumPrimitives
import GRDB
import GRDBSQLite

/// One of GRDB's cached (prepared once, reused) statements, bound and run through SQLite's C API: what
/// `Statement.execute(arguments:)` does, without turning every value into a `DatabaseValue` and every byte array
/// into `Data` on the way, which was a third of the time of writing a block. The block writer inserts every row
/// this way.
struct BoundStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer?
    /// SQLITE_TRANSIENT: SQLite copies a bound blob before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// The cached statement for `sql` in `db`.
    init(_ db: Database, _ sql: String) throws {
        handle = try db.cachedStatement(sql: sql).sqliteStatement
        connection = db.sqliteConnection
    }

    /// Binds, runs to completion and resets: `values` in parameter order.
    func run(_ values: Value...) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let code: Int32
            switch value {
            case .integer(let n): code = sqlite3_bind_int64(handle, index, n)
            case .null: code = sqlite3_bind_null(handle, index)
            case .bytes(let bytes) where bytes.isEmpty:
                code = sqlite3_bind_zeroblob(handle, index, 0)  // an empty blob, not NULL (a nil base address binds NULL)
            case .bytes(let bytes):
                code = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            case .uint256(let value):
                code = value.withBigEndianBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            case .word(let word):
                code = word.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            case .address(let address):
                code = address.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> ChainError {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error \(code)"
        return .storage("\(message) (SQLite code \(code))")
    }

    /// A value to bind.
    enum Value {
        case integer(Int64)
        case bytes([UInt8])
        case word(Bytes32)
        case address(Address)
        /// 32 bytes, big-endian.
        case uint256(UInt256)
        case null

        static func int(_ n: Int) -> Value { .integer(Int64(n)) }
        static func number(_ n: UInt64) -> Value { .integer(Int64(bitPattern: n)) }
        static func optional(_ bytes: [UInt8]?) -> Value { bytes.map(Value.bytes) ?? .null }
    }
}
