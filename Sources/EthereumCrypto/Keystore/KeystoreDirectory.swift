import EthereumPrimitives
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of keystore files, one per account, named as geth names them
/// (`UTC--<time>--<address>`). Files are written atomically with mode 0600 in a directory of mode 0700.
public struct KeystoreDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// A keystore directory at `url` (created on first write).
    public init(url: URL) { self.url = url }

    /// `$CARCHAIN_HOME/keystore`, or `~/.carchain/keystore` when CARCHAIN_HOME is unset.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> KeystoreDirectory {
        let home: URL
        if let dir = environment["CARCHAIN_HOME"], !dir.isEmpty {
            home = URL(fileURLWithPath: dir)
        } else {
            let userHome = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            home = URL(fileURLWithPath: userHome).appendingPathComponent(".carchain")
        }
        return KeystoreDirectory(url: home.appendingPathComponent("keystore"))
    }

    /// One keystore file and the address it declares.
    public struct Entry: Sendable, Equatable {
        /// The address from the file's `address` field.
        public let address: Address
        /// The file.
        public let file: URL

        /// Creates an entry.
        public init(address: Address, file: URL) {
            self.address = address
            self.file = file
        }
    }

    /// The accounts in the directory, read from each file's `address` field without decrypting anything,
    /// sorted by file name (oldest first for geth-style names). Files that are not keystores are skipped.
    public func entries() throws(KeystoreError) -> [Entry] {
        let names: [String]
        do {
            guard FileManager.default.fileExists(atPath: url.path) else { return [] }
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw .io("cannot list \(url.path): \(error.localizedDescription)")
        }
        var out: [Entry] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let file = url.appendingPathComponent(name)
            guard let text = try? String(contentsOf: file, encoding: .utf8), let keystore = try? Keystore(json: text),
                let address = keystore.address
            else { continue }
            out.append(Entry(address: address, file: file))
        }
        return out
    }

    /// The file holding `address`, if any.
    public func file(for address: Address) throws(KeystoreError) -> URL? {
        try entries().first { $0.address == address }?.file
    }

    /// Writes `keystore` as a new file and returns its URL. Refuses a second file for the same address.
    @discardableResult
    public func store(_ keystore: Keystore) throws(KeystoreError) -> URL {
        guard let address = keystore.address else { throw .invalidJSON("a stored keystore must carry its address") }
        if try file(for: address) != nil { throw .alreadyExists(address) }
        try Self.createPrivateDirectory(url)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss.SSS'Z'"
        let name = "UTC--\(formatter.string(from: Date()))--\(Hex.encode(address.bytes, prefix: false))"
        let file = url.appendingPathComponent(name)
        try Self.writeAtomically(keystore.json, to: file)
        return file
    }

    /// Reads a keystore file.
    public static func load(_ file: URL) throws(KeystoreError) -> Keystore {
        let text: String
        do { text = try String(contentsOf: file, encoding: .utf8) } catch {
            throw .io("cannot read \(file.path): \(error.localizedDescription)")
        }
        return try Keystore(json: text)
    }

    /// Creates `directory` (and missing parents) with mode 0700.
    public static func createPrivateDirectory(_ directory: URL) throws(KeystoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .io("\(directory.path) exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io("cannot create \(directory.path): \(error.localizedDescription)")
        }
        _ = chmod(directory.path, 0o700)
    }

    /// Writes `text` to `file` atomically: a new temporary file in the same directory, created with mode 0600,
    /// written and synced, then renamed over `file`. A crash leaves either the old file or the new one.
    public static func writeAtomically(_ text: String, to file: URL) throws(KeystoreError) {
        let directory = file.deletingLastPathComponent()
        var generator = SystemRandomNumberGenerator()
        let temporary = directory.appendingPathComponent(".tmp-\(String(generator.next(), radix: 16))-\(file.lastPathComponent)")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
        var ok = fchmod(fd, 0o600) == 0
        let bytes = Array(text.utf8)
        var written = 0
        while ok && written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ok = false } else { written += n }
        }
        ok = ok && fsync(fd) == 0
        let writeError = ok ? "" : String(cString: strerror(errno))
        close(fd)
        guard ok else {
            unlink(temporary.path)
            throw .io("cannot write \(temporary.path): \(writeError)")
        }
        guard rename(temporary.path, file.path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary.path)
            throw .io("cannot rename into \(file.path): \(why)")
        }
    }
}
