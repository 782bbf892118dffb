import EthereumCrypto
import EthereumPrimitives
import Foundation

/// `$CARCHAIN_HOME/accounts.json`: which Ethereum address belongs to which auth user on this machine (uid,
/// email, address; no secrets). The chain binds a uid to an address only when the user registers it from their
/// own account, and never for the manager, so the app keeps its own record to find the user's keystore.
struct AccountBook {
    let file: URL

    struct Entry: Codable, Equatable {
        var uid: String
        var email: String
        var address: String
    }

    func entries() throws(CLIError) -> [Entry] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        do {
            return try JSONDecoder().decode([Entry].self, from: Data(contentsOf: file))
        } catch {
            throw CLIError("\(file.path) is not an account list: \(error.localizedDescription)")
        }
    }

    /// The address recorded for `uid`.
    func address(uid: String) throws(CLIError) -> Address? {
        guard let text = try entries().first(where: { $0.uid == uid })?.address else { return nil }
        return try? Address(text)
    }

    /// Records (or replaces) `uid`'s address.
    func record(uid: String, email: String, address: Address) throws(CLIError) {
        var all = try entries().filter { $0.uid != uid }
        all.append(Entry(uid: uid, email: email, address: address.checksummed))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try KeystoreDirectory.createPrivateDirectory(file.deletingLastPathComponent())
            try KeystoreDirectory.writeAtomically(String(decoding: try encoder.encode(all), as: UTF8.self) + "\n", to: file)
        } catch {
            throw CLIError("cannot write \(file.path): \(error)")
        }
    }
}
