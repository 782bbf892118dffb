import EthereumCrypto
import EthereumPrimitives
import Foundation

/// The app's state directory, `$CARCHAIN_HOME` (default `~/.carchain`), and its `config.json`:
/// `{"contracts": {"<chain id>": "0x…"}}` remembers the CarChain contract deployed on each chain, so later
/// commands need no `--contract`. Other members of the file are kept as they are.
public struct CarchainHome: Sendable {
    /// The directory.
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// `$CARCHAIN_HOME`, or `~/.carchain`.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> CarchainHome {
        if let dir = environment["CARCHAIN_HOME"], !dir.isEmpty {
            return CarchainHome(directory: URL(fileURLWithPath: dir))
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return CarchainHome(directory: home.appendingPathComponent(".carchain"))
    }

    public var configFile: URL { directory.appendingPathComponent("config.json") }
    /// The embedded chain's default data directory, `<home>/chain`.
    public var chainDirectory: URL { directory.appendingPathComponent("chain") }
    /// The keystores, `<home>/keystore`.
    public var keystores: KeystoreDirectory { KeystoreDirectory(url: directory.appendingPathComponent("keystore")) }
    /// The saved session, `<home>/session.json`.
    public var sessions: SessionStore { SessionStore(home: directory.path) }
    /// Which address belongs to which auth user on this machine, `<home>/accounts.json`.
    public var accounts: AccountBook { AccountBook(file: directory.appendingPathComponent("accounts.json")) }

    /// The whole config document (an empty object when the file does not exist).
    public func loadConfig() throws(AppError) -> [(key: String, value: JSONValue)] {
        guard FileManager.default.fileExists(atPath: configFile.path) else { return [] }
        do {
            let data = try InputFile.read(configFile.path, limit: InputFile.documentLimit)
            guard case .object(let members) = try JSONValue(parsing: data) else {
                throw AppError.failed("\(configFile.path) is not a JSON object")
            }
            return members
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError.failed("cannot read \(configFile.path): \((error as? InputFileError)?.reason ?? error.localizedDescription)")
        }
    }

    /// The contract remembered for a chain id, if any.
    public func contract(chainID: UInt64) throws(AppError) -> Address? {
        let config = try loadConfig()
        guard let text = config.first(where: { $0.key == "contracts" })?.value[String(chainID)]?.stringValue else { return nil }
        do { return try Address(text) } catch {
            throw AppError.failed("\(configFile.path): contracts.\(chainID) is not an address: \(error)")
        }
    }

    /// Remembers `address` as the contract of `chainID`.
    public func remember(contract address: Address, chainID: UInt64) throws(AppError) {
        var config = try loadConfig()
        var contracts = config.first(where: { $0.key == "contracts" })?.value.objectValue ?? []
        contracts.removeAll { $0.key == String(chainID) }
        contracts.append((String(chainID), .string(address.checksummed)))
        contracts.sort { (UInt64($0.key) ?? .max, $0.key) < (UInt64($1.key) ?? .max, $1.key) }
        config.removeAll { $0.key == "contracts" }
        config.append(("contracts", .object(contracts)))
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((CarchainHome.pretty(.object(config)) + "\n").utf8).write(to: configFile, options: .atomic)
        } catch {
            throw AppError.failed("cannot write \(configFile.path): \(error.localizedDescription)")
        }
    }

    /// JSON text with two-space indentation (members in stored order).
    public static func pretty(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .object(let members) where !members.isEmpty:
            let lines = members.map { inner + JSONValue.quote($0.key) + ": " + pretty($0.value, indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        default:
            return value.description
        }
    }
}
