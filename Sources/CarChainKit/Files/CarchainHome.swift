import EthereumPrimitives
import Foundation

/// The CLI's state directory, `$CARCHAIN_HOME` (default `~/.carchain`), and its `config.json`:
/// `{"contracts": {"<chain id>": "0x…"}}` remembers the CarChain contract deployed on each chain, so later
/// commands need no `--contract`. Other members of the file are kept as they are.
struct CarchainHome {
    /// The directory.
    let directory: URL

    /// `$CARCHAIN_HOME`, or `~/.carchain`.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> CarchainHome {
        if let dir = environment["CARCHAIN_HOME"], !dir.isEmpty {
            return CarchainHome(directory: URL(fileURLWithPath: dir))
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return CarchainHome(directory: home.appendingPathComponent(".carchain"))
    }

    var configFile: URL { directory.appendingPathComponent("config.json") }

    /// The whole config document (an empty object when the file does not exist).
    func loadConfig() throws(CLIError) -> [(key: String, value: JSONValue)] {
        guard FileManager.default.fileExists(atPath: configFile.path) else { return [] }
        do {
            let data = try Data(contentsOf: configFile)
            guard case .object(let members) = try JSONDecoder().decode(JSONValue.self, from: data) else {
                throw CLIError("\(configFile.path) is not a JSON object")
            }
            return members
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("cannot read \(configFile.path): \(error.localizedDescription)")
        }
    }

    /// The contract remembered for a chain id, if any.
    func contract(chainID: UInt64) throws(CLIError) -> Address? {
        let config = try loadConfig()
        guard let text = config.first(where: { $0.key == "contracts" })?.value[String(chainID)]?.stringValue else { return nil }
        do { return try Address(text) } catch {
            throw CLIError("\(configFile.path): contracts.\(chainID) is not an address: \(error)")
        }
    }

    /// Remembers `address` as the contract of `chainID`.
    func remember(contract address: Address, chainID: UInt64) throws(CLIError) {
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
            throw CLIError("cannot write \(configFile.path): \(error.localizedDescription)")
        }
    }

    /// JSON text with two-space indentation (members in stored order).
    static func pretty(_ value: JSONValue, indent: String = "") -> String {
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
