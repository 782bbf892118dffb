import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors from writing or reading a file that holds a secret.
public enum SecureFileError: Error, CustomStringConvertible, Equatable {
    /// A POSIX call failed.
    case system(operation: String, path: String, errno: Int32)
    /// The file grants access to someone other than its owner.
    case tooPermissive(path: String, mode: UInt16)

    /// What went wrong and where.
    public var description: String {
        switch self {
        case .system(let operation, let path, let code):
            return "\(operation) \(path): \(String(cString: strerror(code)))"
        case .tooPermissive(let path, let mode):
            return "\(path) has mode \(String(mode, radix: 8)); a file holding a secret must be readable by its owner "
                + "only (chmod 600 \(path))"
        }
    }
}

/// Files that hold secrets (signing keys, session tokens): created with mode 0600 from the first byte, replaced
/// atomically, and refused when their mode lets anyone but the owner read them.
package enum SecureFile {
    /// Writes `bytes` to `path` with mode 0600: into a fresh temporary file in the same directory, then renamed
    /// over `path`, so a reader never sees a partial file and the secret is never briefly world-readable.
    package static func write(_ bytes: [UInt8], to path: String) throws(SecureFileError) {
        let temporary = path + ".tmp-" + SecureRandom.alphanumericString(length: 12)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
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

    /// Reads `path`, or returns nil when it does not exist. Throws `tooPermissive` when group or others have any
    /// access to it.
    package static func read(_ path: String) throws(SecureFileError) -> [UInt8]? {
        var status = stat()
        if lstat(path, &status) != 0 {
            if errno == ENOENT { return nil }
            throw SecureFileError.system(operation: "stat", path: path, errno: errno)
        }
        let mode = UInt16(truncatingIfNeeded: status.st_mode) & 0o7777
        if mode & 0o077 != 0 { throw SecureFileError.tooPermissive(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SecureFileError.system(operation: "read", path: path, errno: errno)
        }
        return [UInt8](data)
    }

    /// Removes `path`; succeeds when it is already absent.
    package static func delete(_ path: String) throws(SecureFileError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw SecureFileError.system(operation: "remove", path: path, errno: errno)
        }
    }

    /// The permission bits of `path` (e.g. 0o600), or nil when it does not exist.
    package static func mode(of path: String) -> UInt16? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt16(truncatingIfNeeded: status.st_mode) & 0o7777
    }

    /// Creates `path` and its parents with mode 0700 when absent.
    package static func createDirectory(_ path: String) throws(SecureFileError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SecureFileError.system(operation: "create directory", path: path, errno: errno)
        }
    }

    /// Restricts `path` to its owner (mode 0600).
    package static func restrictToOwner(_ path: String) throws(SecureFileError) {
        if chmod(path, 0o600) != 0 { throw SecureFileError.system(operation: "chmod", path: path, errno: errno) }
    }
}

// `write` is shadowed inside `SecureFile` by its own `write(_:to:)`; this names the POSIX call unambiguously.
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
