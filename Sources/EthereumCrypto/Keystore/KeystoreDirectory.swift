import EthereumPrimitives
import Foundation

/// A directory of keystore files, one per account, named as geth names them
/// (`UTC--<time>--<address>`). Files are written with `SecureFile`: atomically, mode 0600, in a directory
/// of mode 0700.
public struct KeystoreDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// A keystore directory at `url` (created on first write).
    public init(url: URL) { self.url = url }

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
            guard let bytes = try? InputFile.read(file.path, limit: InputFile.keystoreLimit),
                let keystore = try? Keystore(json: String(decoding: bytes, as: UTF8.self)), let address = keystore.address
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
        do { try SecureFile.createDirectory(url.path) } catch { throw .io("cannot create \(url.path): \(error)") }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss.SSS'Z'"
        let name = "UTC--\(formatter.string(from: Date()))--\(Hex.encode(address.bytes, prefix: false))"
        let file = url.appendingPathComponent(name)
        do { try SecureFile.write(keystore.json, to: file.path) } catch { throw .io("cannot write \(file.path): \(error)") }
        return file
    }

    /// Reads a keystore file (at most `InputFile.keystoreLimit` bytes: real ones are about 500).
    public static func load(_ file: URL) throws(KeystoreError) -> Keystore {
        let bytes: [UInt8]
        do { bytes = try InputFile.read(file.path, limit: InputFile.keystoreLimit) } catch {
            throw .io("cannot read keystore \(file.path): \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidJSON("the file is not UTF-8 text") }
        return try Keystore(json: text)
    }
}
