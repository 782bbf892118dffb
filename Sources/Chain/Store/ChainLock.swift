import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive lock of a chain data directory: `<dir>/LOCK`, held with `flock(2)` for as long as
/// the owner runs and holding its pid and (for a node) its URL as JSON, so the CLI can find a
/// running node instead of opening the files. The kernel drops a `flock` when its process dies, so
/// a lock file left by a killed process is stale as soon as nobody holds the lock.
public final class ChainLock: @unchecked Sendable {
    /// Who holds a lock.
    public struct Owner: Sendable, Codable, Equatable {
        /// The owner's process id.
        public var pid: Int32
        /// The node's URL, when it serves one.
        public var url: String?
        /// Seconds since 1970 when the lock was taken.
        public var startedAt: Double?

        /// Creates owner information.
        public init(pid: Int32, url: String? = nil, startedAt: Double? = nil) {
            self.pid = pid
            self.url = url
            self.startedAt = startedAt
        }
    }

    /// The lock file.
    public let path: String
    private let mutex = NSLock()
    private var descriptor: Int32
    private var owner: Owner

    private init(path: String, descriptor: Int32, owner: Owner) {
        self.path = path
        self.descriptor = descriptor
        self.owner = owner
    }

    deinit { release() }

    /// The lock file of a data directory.
    public static func lockPath(directory: URL) -> String { directory.appendingPathComponent("LOCK").path }

    /// Takes the lock of `directory` (creating the directory), or throws
    /// ``ChainError/dataDirectoryLocked(path:pid:url:)`` naming the process that holds it.
    public static func acquire(directory: URL, url: String? = nil) throws(ChainError) -> ChainLock {
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw .storage("cannot create \(directory.path): \(error)")
        }
        let path = lockPath(directory: directory)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .storage("cannot open \(path): \(String(cString: strerror(errno)))") }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let holder = readOwner(fd: fd)
            close(fd)
            throw .dataDirectoryLocked(path: directory.path, pid: holder?.pid ?? 0, url: holder?.url)
        }
        let lock = ChainLock(
            path: path, descriptor: fd,
            owner: Owner(pid: getpid(), url: url, startedAt: Date().timeIntervalSince1970))
        try lock.writeOwner()
        return lock
    }

    /// Records the URL the owner serves (or clears it).
    public func setURL(_ url: String?) throws(ChainError) {
        mutex.lock()
        owner.url = url
        mutex.unlock()
        try writeOwner()
    }

    /// Releases the lock (and empties the file). Safe to call more than once.
    public func release() {
        mutex.lock()
        defer { mutex.unlock() }
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    /// The live owner of `directory`'s lock, or nil when nobody holds it (no file, or a stale file
    /// left by a process that died).
    public static func owner(of directory: URL) -> Owner? {
        let path = lockPath(directory: directory)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return nil  // nobody holds it: stale
        }
        guard let holder = readOwner(fd: fd) else { return nil }
        if holder.pid > 0, kill(holder.pid, 0) != 0, errno == ESRCH { return nil }
        return holder
    }

    private func writeOwner() throws(ChainError) {
        mutex.lock()
        defer { mutex.unlock() }
        guard descriptor >= 0 else { return }
        let data: Data
        do { data = try JSONEncoder().encode(owner) } catch { throw .storage("cannot encode lock owner: \(error)") }
        var bytes = [UInt8](data)
        bytes.append(0x0a)
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw .storage("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw .storage("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    private static func readOwner(fd: Int32) -> Owner? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return try? JSONDecoder().decode(Owner.self, from: Data(buffer[0..<count]))
    }
}
