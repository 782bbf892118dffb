import AuthEmulator
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// `$CARCHAIN_HOME/accounts.json`: which Ethereum address belongs to which auth user on this machine (uid,
/// email, address; no secrets). The chain binds a uid to an address only when the user registers it from their
/// own account, and never for the manager, so the app keeps its own record to find the user's keystore.
public struct AccountBook: Sendable {
    /// The file.
    public let file: URL

    public init(file: URL) { self.file = file }

    /// One user's record.
    public struct Entry: Codable, Equatable, Sendable {
        public var uid: String
        public var email: String
        public var address: String
    }

    /// Every record (none when the file does not exist).
    public func entries() throws(AppError) -> [Entry] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        do {
            return try JSONDecoder().decode([Entry].self, from: Data(try InputFile.read(file.path, limit: InputFile.documentLimit)))
        } catch {
            throw .failed("\(file.path) is not an account list: \((error as? InputFileError)?.reason ?? error.localizedDescription)")
        }
    }

    /// The address recorded for `uid`.
    public func address(uid: String) throws(AppError) -> Address? {
        guard let text = try entries().first(where: { $0.uid == uid })?.address else { return nil }
        return try? Address(text)
    }

    /// The uid recorded for `email` (compared as the auth service compares emails).
    public func uid(email: String) throws(AppError) -> String? {
        let wanted = EmailAddress.normalize(email)
        return try entries().last { EmailAddress.normalize($0.email) == wanted }?.uid
    }

    /// Records (or replaces) `uid`'s address; the file is written 0600 in a 0700 directory (``SecureFile``).
    public func record(uid: String, email: String, address: Address) throws(AppError) {
        var all = try entries().filter { $0.uid != uid }
        all.append(Entry(uid: uid, email: email, address: address.checksummed))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try SecureFile.createDirectory(file.deletingLastPathComponent().path)
            try SecureFile.write(String(decoding: try encoder.encode(all), as: UTF8.self) + "\n", to: file.path)
        } catch {
            throw .failed("cannot write \(file.path): \(error)")
        }
    }
}
