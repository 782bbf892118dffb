import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The append-only file that makes a mined block durable before the database has it: `<dir>/chain.journal`.
///
/// A block is acknowledged (the call that mined it returns) once its record is in this file — one `write(2)`,
/// which survives the process being killed at any instant, as a committed SQLite transaction in WAL mode with
/// `synchronous = NORMAL` does. The database gets the blocks later, many per SQLite transaction, on another
/// thread (``BlockWriter``). When the chain opens, records the database does not hold yet are applied first
/// (``records(at:)``), so a killed process loses no acknowledged block; a record cut short by the kill was never
/// acknowledged, fails its length or checksum, and is dropped with everything after it. The file is emptied
/// whenever the database holds every record in it and it has grown past ``compactionSize``.
///
/// A record: magic `CCJ1`, the payload's length (UInt32), the block number (UInt64), the payload (``ChainStore/
/// BlockWrite/journalRecord``), and a 64-bit checksum of number and payload; integers little-endian.
final class BlockJournal: @unchecked Sendable {
    /// The file.
    let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    /// The file's size: where the next record goes, and where a failed write is cut back to.
    private var size: Int
    /// The number of the last block appended.
    private var last: UInt64?

    /// The journal is emptied once it is larger than this and the database has caught up with it.
    static let compactionSize = 8 << 20
    static let magic: [UInt8] = Array("CCJ1".utf8)
    static let headerSize = 16
    static let trailerSize = 8
    /// A record larger than this is not one this code wrote (a block's payload is well under 100 MB).
    static let maxPayload = 1 << 30

    /// The journal file of a data directory.
    static func path(directory: URL) -> String { directory.appendingPathComponent("chain.journal").path }

    /// Opens (creating) the journal at `path` for appending.
    init(path: String) throws(ChainError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .storage("cannot open \(path): \(Self.errorText())") }
        let end = lseek(fd, 0, SEEK_END)
        guard end >= 0 else {
            close(fd)
            throw .storage("cannot read the size of \(path): \(Self.errorText())")
        }
        self.path = path
        self.descriptor = fd
        self.size = Int(end)
    }

    deinit { close(descriptor) }

    /// Appends the record of block `number`. On return the record is in the file; on an error nothing of it is (a
    /// partial write is cut off again), so the file stays readable to its end.
    func append(number: UInt64, payload: [UInt8]) throws(ChainError) {
        guard payload.count <= Self.maxPayload else { throw .storage("block \(number) is too large for the journal") }
        var record: [UInt8] = []
        record.reserveCapacity(Self.headerSize + payload.count + Self.trailerSize)
        record += Self.magic
        Self.appendLittleEndian(UInt64(payload.count), bytes: 4, to: &record)
        Self.appendLittleEndian(number, bytes: 8, to: &record)
        record += payload
        Self.appendLittleEndian(Self.checksum(number: number, payload: payload[...]), bytes: 8, to: &record)
        lock.lock()
        defer { lock.unlock() }
        var written = 0
        while written < record.count {
            let n = record.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = Self.errorText()
                if written > 0 { _ = ftruncate(descriptor, off_t(size)) }
                throw .storage("cannot write block \(number) to \(path): \(reason)")
            }
            written += n
        }
        size += record.count
        last = number
    }

    /// Empties the file when it has grown past ``compactionSize`` and its last record is block `applied`, which the
    /// database now holds (as it holds every record before it).
    func compact(applied: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        guard size > Self.compactionSize, last == applied else { return }
        if ftruncate(descriptor, 0) == 0 { size = 0 }
    }

    /// Empties the file: the database holds every record in it, and the chain is about to change below them (a
    /// rewind), after which they must not be applied again.
    func reset() throws(ChainError) {
        lock.lock()
        defer { lock.unlock() }
        guard ftruncate(descriptor, 0) == 0 else { throw .storage("cannot empty \(path): \(Self.errorText())") }
        size = 0
        last = nil
    }

    /// The whole records in the file at `path`, in order, up to the first that is cut short or damaged (a write the
    /// process was killed in); none for a missing file.
    static func records(at path: String) throws(ChainError) -> [(number: UInt64, payload: ArraySlice<UInt8>)] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw .storage("cannot read \(path): \(error)")
        }
        var out: [(number: UInt64, payload: ArraySlice<UInt8>)] = []
        var offset = 0
        while bytes.count - offset >= headerSize + trailerSize {
            guard bytes[offset..<(offset + 4)].elementsEqual(magic) else { break }
            let length = Int(readLittleEndian(bytes, at: offset + 4, bytes: 4))
            let number = readLittleEndian(bytes, at: offset + 8, bytes: 8)
            let start = offset + headerSize
            guard length <= maxPayload, bytes.count - start >= length + trailerSize else { break }
            let payload = bytes[start..<(start + length)]
            guard readLittleEndian(bytes, at: start + length, bytes: 8) == checksum(number: number, payload: payload) else {
                break
            }
            out.append((number, payload))
            offset = start + length + trailerSize
        }
        return out
    }

    /// A 64-bit checksum of a record (a multiply-rotate hash over 8-byte words): it catches a record the kill cut
    /// short or left with bytes of another, not deliberate tampering (the database does not guard against that
    /// either).
    static func checksum(number: UInt64, payload: ArraySlice<UInt8>) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = (number ^ UInt64(payload.count)) &* k
        payload.withUnsafeBytes { raw in
            var i = 0
            while i + 8 <= raw.count {
                h = ((h << 27) | (h >> 37)) ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                h = h &* k
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < raw.count {
                tail |= UInt64(raw[i]) << shift
                shift += 8
                i += 1
            }
            h = (((h << 27) | (h >> 37)) ^ tail) &* k
        }
        return h ^ (h >> 31)
    }

    private static func appendLittleEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int, bytes count: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<count { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        return value
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
