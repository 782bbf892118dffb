#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors from reading a file a user named (or standard input) with ``InputFile``.
public enum InputFileError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A POSIX call failed (no such file, permission denied, a loop of symbolic links, …).
    case system(operation: String, path: String, errno: Int32)
    /// The path names a directory.
    case directory(path: String)
    /// The input holds more than the limit for its kind of file.
    case tooLarge(path: String, limit: Int)

    /// What went wrong, one line, naming the path.
    public var description: String {
        switch self {
        case .system(let operation, let path, _): return "cannot \(operation) \(path): \(reason)"
        case .directory(let path), .tooLarge(let path, _): return "\(path) is \(reason)"
        }
    }

    /// What went wrong without the path, for messages that name it already ("cannot read scenario x.json: …").
    public var reason: String {
        switch self {
        case .system(_, _, let code): return String(cString: strerror(code))
        case .directory: return "a directory, not a file"
        case .tooLarge(_, let limit): return "larger than \(InputFile.describe(bytes: limit)), the limit for this kind of file"
        }
    }
}

/// Reads input files — keystores, password files, ABI and JSON documents, prestates, scenarios, config files,
/// standard input — with a size cap, so a huge file, `/dev/zero` or an endless pipe is a one-line error instead
/// of exhausting memory. Symbolic links are followed (the user named the file); a directory is refused; a FIFO or
/// a character device is read like a file, up to the cap; opening never blocks on a FIFO without a writer.
public enum InputFile {
    /// 64 KiB: passwords and other one-line secrets.
    public static let secretLimit = 64 << 10
    /// 1 MiB: keystore files (geth's are about 500 bytes).
    public static let keystoreLimit = 1 << 20
    /// 16 MiB: JSON documents (ABIs, typed data, artifacts, scenarios, config and registry files) and raw input.
    public static let documentLimit = 16 << 20
    /// 256 MiB: the large inputs of the EVM tools (prestates, batches of cases, state-test files).
    public static let bulkLimit = 256 << 20

    /// The bytes of `path`, at most `limit` of them.
    public static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO with no writer must not wait; reads are made blocking again below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .system(operation: "open", path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(operation: "stat", path: path, errno: errno) }
        let kind = UInt32(status.st_mode) & 0o170000  // S_IFMT
        if kind == 0o040000 { throw .directory(path: path) }  // S_IFDIR
        if kind == 0o100000, status.st_size > limit { throw .tooLarge(path: path, limit: limit) }  // S_IFREG
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return try readAll(descriptor, path: path, limit: limit)
    }

    /// The bytes of standard input, at most `limit` of them.
    public static func readStandardInput(limit: Int) throws(InputFileError) -> [UInt8] {
        try readAll(STDIN_FILENO, path: "standard input", limit: limit)
    }

    /// Reads until end of file, failing as soon as more than `limit` bytes arrived.
    static func readAll(_ descriptor: Int32, path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { inputRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EISDIR { throw .directory(path: path) }
                throw .system(operation: "read", path: path, errno: errno)
            }
            if count == 0 { return bytes }
            guard bytes.count <= limit - count else { throw .tooLarge(path: path, limit: limit) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// `64 KiB`, `16 MiB`, or a byte count.
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

@inline(__always)
private func inputRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.read(descriptor, buffer, count)
    #else
    return Darwin.read(descriptor, buffer, count)
    #endif
}
