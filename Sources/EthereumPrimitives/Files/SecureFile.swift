#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors from writing or reading a file that holds a secret.
public enum SecureFileError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A POSIX call failed.
    case system(operation: String, path: String, errno: Int32)
    /// The file grants access to someone other than its owner.
    case tooPermissive(path: String, mode: UInt16)
    /// The path exists and is not a directory.
    case notADirectory(path: String)
    /// The file is larger than a secret file can be (``SecureFile/readLimit``).
    case tooLarge(path: String, limit: Int)

    /// What went wrong and where.
    public var description: String {
        switch self {
        case .system(let operation, let path, let code):
            return "\(operation) \(path): \(String(cString: strerror(code)))"
        case .tooPermissive(let path, let mode):
            return "\(path) has mode \(String(mode, radix: 8)); a file holding a secret must be readable by its owner "
                + "only (chmod 600 \(path))"
        case .notADirectory(let path):
            return "\(path) exists and is not a directory"
        case .tooLarge(let path, let limit):
            return InputFileError.tooLarge(path: path, limit: limit).description
        }
    }
}

/// Files that hold secrets (keystores, signing keys, session tokens, the auth service's users): created with
/// mode 0600 from the first byte and never through a symbolic link, replaced atomically, kept in directories
/// of mode 0700, and refused when their mode lets anyone but the owner read them. The one place the project
/// writes such files (keystores, the auth emulator, sessions, the account book).
public enum SecureFile {
    /// Writes `bytes` to `path` with mode 0600: into a fresh temporary file in the same directory (`O_EXCL |
    /// O_NOFOLLOW`, so a planted file or link is never written through), synced, then renamed over `path`, so
    /// a reader never sees a partial file, a crash leaves the old file or the new one, and the secret is never
    /// briefly readable by others.
    public static func write(_ bytes: [UInt8], to path: String) throws(SecureFileError) {
        // A hidden name beside the target (so directory listings skip it), unguessable so it cannot be planted.
        var random = SystemRandomNumberGenerator()
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "." + name + ".tmp-" + String(random.next(), radix: 36)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SecureFileError.system(operation: "create", path: temporary, errno: errno) }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { buffer in
                posixWrite(descriptor, buffer.baseAddress, buffer.count)
            }
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                close(descriptor)
                unlink(temporary)
                throw SecureFileError.system(operation: "write", path: temporary, errno: code)
            }
            written += result
        }
        if fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw SecureFileError.system(operation: "fsync", path: temporary, errno: code)
        }
        close(descriptor)
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw SecureFileError.system(operation: "rename to", path: path, errno: code)
        }
    }

    /// Writes `text` as UTF-8; see ``write(_:to:)-(_,_)``.
    public static func write(_ text: String, to path: String) throws(SecureFileError) {
        try write(Array(text.utf8), to: path)
    }

    /// The largest secret file read: 16 MiB (keys, sessions and account lists are far smaller).
    public static let readLimit = InputFile.documentLimit

    /// Reads `path`, or returns nil when it does not exist. Throws `tooPermissive` when group or others have any
    /// access to it, `tooLarge` past ``readLimit``; a symbolic link is not followed.
    public static func read(_ path: String) throws(SecureFileError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw SecureFileError.system(operation: "open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SecureFileError.system(operation: "stat", path: path, errno: errno) }
        let mode = UInt16(truncatingIfNeeded: status.st_mode) & 0o7777
        if mode & 0o077 != 0 { throw SecureFileError.tooPermissive(path: path, mode: mode) }
        do throws(InputFileError) {
            return try InputFile.readAll(descriptor, path: path, limit: readLimit)
        } catch {
            switch error {
            case .system(let operation, _, let code): throw .system(operation: operation, path: path, errno: code)
            case .directory: throw .system(operation: "read", path: path, errno: EISDIR)
            case .tooLarge(_, let limit): throw .tooLarge(path: path, limit: limit)
            }
        }
    }

    /// Removes `path`; succeeds when it is already absent.
    public static func delete(_ path: String) throws(SecureFileError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw SecureFileError.system(operation: "remove", path: path, errno: errno)
        }
    }

    /// Makes `path` a directory only its owner can enter: created with mode 0700 (missing parents too), or, when
    /// it exists, owned by this user and open to group or others, tightened to 0700. Existing parents are never
    /// changed, and a directory owned by someone else or a shared sticky one such as `/tmp` is left as it is.
    public static func createDirectory(_ path: String) throws(SecureFileError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw .system(operation: "stat", path: path, errno: errno) }
            try makeDirectory(path)
            return
        }
        let mode = UInt32(status.st_mode)
        guard mode & 0o170000 == 0o040000 else { throw .notADirectory(path: path) }  // S_IFMT, S_IFDIR
        let sticky = mode & 0o1000 != 0  // S_ISVTX
        if status.st_uid == geteuid(), !sticky, mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw .system(operation: "chmod", path: path, errno: errno)
        }
    }

    /// Creates `path` and whichever parents are missing, each with mode 0700.
    private static func makeDirectory(_ path: String) throws(SecureFileError) {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if let slash = trimmed.lastIndex(of: "/") {
            let parent = String(trimmed[..<slash])
            var status = stat()
            if !parent.isEmpty, stat(parent, &status) != 0 {
                guard errno == ENOENT else { throw .system(operation: "stat", path: parent, errno: errno) }
                try makeDirectory(parent)
            }
        }
        if mkdir(trimmed, 0o700) != 0 && errno != EEXIST {
            throw .system(operation: "create directory", path: path, errno: errno)
        }
    }

    /// Restricts `path` to its owner (mode 0600).
    public static func restrictToOwner(_ path: String) throws(SecureFileError) {
        if chmod(path, 0o600) != 0 { throw SecureFileError.system(operation: "chmod", path: path, errno: errno) }
    }
}

// `write` is shadowed inside `SecureFile` by its own methods; this names the POSIX call.
@inline(__always)
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
