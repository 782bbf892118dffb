import EthereumPrimitives

/// A compiled contract as the toolchains write it: its name, ABI, creation and runtime bytecode (when the file
/// has them) and NatSpec documentation (when the file has it). ``read(json:fileName:)-([UInt8],_)`` reads every
/// format in use, telling them apart by shape:
///
/// - a plain JSON ABI (an array of entries; `solc --abi`, `vyper -f abi`, Etherscan): the name comes from the
///   file name, and there is no bytecode;
/// - Foundry's `out/<File>.sol/<Name>.json` (`abi`, `bytecode.object`, `deployedBytecode.object`, NatSpec in
///   `metadata.output.userdoc`/`devdoc`, the name in `metadata.settings.compilationTarget`);
/// - Hardhat's artifact (`_format: hh-sol-artifact-1`, `contractName`, `abi`, `bytecode`, `deployedBytecode`), and
///   the same shape without `_format` (Truffle, contracts/CarChain.json);
/// - vyper's `-f combined_json` (one member per source path, each with `abi`, `bytecode`, `bytecode_runtime`,
///   `userdoc`, `devdoc`; a `version` member);
/// - solc's `--combined-json abi,bin,…` (`contracts` by `path:Name`).
///
/// Creation code that still holds library placeholders (`__$…$__`) is not bytecode yet: ``bytecode`` is then nil
/// and ``unlinkedLibraries`` names what must be linked first.
public struct ContractArtifact: Sendable, Equatable {
    /// Which file format the artifact came from.
    public enum Format: String, Sendable, Hashable {
        case abi = "ABI JSON"
        case foundry = "Foundry artifact"
        case hardhat = "Hardhat artifact"
        case vyperCombined = "vyper combined_json"
        case solcCombined = "solc combined-json"
    }

    /// The contract's name (from the artifact, else the file name).
    public var name: String
    /// The ABI.
    public var abi: ContractABI
    /// The ABI as JSON, as the file has it (with members the ABI model does not keep, such as `internalType`).
    public var abiJSON: JSONValue
    /// The creation code; nil when the file has none (or only an unlinked one).
    public var bytecode: [UInt8]?
    /// The runtime code; nil when the file has none.
    public var deployedBytecode: [UInt8]?
    /// Library placeholders the creation code still holds (empty when linked or absent).
    public var unlinkedLibraries: [String]
    /// NatSpec documentation (empty when the file has none).
    public var documentation: NatSpec
    /// The format read.
    public var format: Format

    /// Creates an artifact.
    public init(
        name: String, abi: ContractABI, abiJSON: JSONValue? = nil, bytecode: [UInt8]? = nil, deployedBytecode: [UInt8]? = nil,
        unlinkedLibraries: [String] = [], documentation: NatSpec = NatSpec(), format: Format = .abi
    ) {
        self.name = name
        self.abi = abi
        self.abiJSON = abiJSON ?? abi.jsonValue
        self.bytecode = bytecode
        self.deployedBytecode = deployedBytecode
        self.unlinkedLibraries = unlinkedLibraries
        self.documentation = documentation
        self.format = format
    }

    /// Reads every contract in a JSON file (one, except for combined outputs). `fileName` names the contract of a
    /// plain ABI (`ERC20.abi.json` → `ERC20`) and the file in errors.
    public static func read(json bytes: [UInt8], fileName: String) throws(ABIError) -> [ContractArtifact] {
        let root: JSONValue
        do { root = try JSONValue(parsing: bytes) } catch {
            throw .invalidJSON(path: fileName, reason: "not valid JSON (\(error))")
        }
        return try read(json: root, fileName: fileName)
    }

    /// Reads every contract in a parsed JSON document (see ``read(json:fileName:)-(_,_)``).
    public static func read(json root: JSONValue, fileName: String) throws(ABIError) -> [ContractArtifact] {
        let stem = contractName(fromFileName: fileName)
        switch root {
        case .array:
            return [try ContractArtifact(name: stem, abiJSON: root, path: fileName, format: .abi)]
        case .object(let members):
            if root["abi"] != nil { return [try single(root, stem: stem, fileName: fileName)] }
            if case .object(let contracts)? = root["contracts"] {
                return try solcCombined(contracts, fileName: fileName)
            }
            let sources = members.filter { $0.key != "version" }
            guard !sources.isEmpty, sources.allSatisfy({ $0.value["abi"] != nil }) else {
                throw .invalidJSON(
                    path: fileName,
                    reason: "not a contract artifact: expected an ABI array, an object with \"abi\" (Foundry, Hardhat), "
                        + "vyper's combined_json or solc's combined-json")
            }
            var artifacts: [ContractArtifact] = []
            for (path, entry) in sources {
                let where_ = "\(fileName): \(path)"
                var artifact = try ContractArtifact(
                    name: contractName(fromFileName: path), abiJSON: entry["abi"] ?? .null, path: where_ + ".abi", format: .vyperCombined)
                try artifact.takeCode(creation: entry["bytecode"], runtime: entry["bytecode_runtime"], path: where_)
                artifact.documentation = NatSpec(userdoc: entry["userdoc"], devdoc: entry["devdoc"])
                artifacts.append(artifact)
            }
            return artifacts
        default:
            throw .invalidJSON(path: fileName, reason: "not a contract artifact (expected a JSON array or object)")
        }
    }

    /// Reads a file that must hold exactly one contract.
    public static func readOne(json bytes: [UInt8], fileName: String) throws(ABIError) -> ContractArtifact {
        let all = try read(json: bytes, fileName: fileName)
        guard all.count == 1, let only = all.first else {
            throw .invalidJSON(path: fileName, reason: "holds \(all.count) contracts (\(all.map(\.name).joined(separator: ", "))); expected one")
        }
        return only
    }

    /// `src/Token.sol` → `Token`, `out/ERC20.sol/ERC20.json` → `ERC20`, `erc20.abi.json` → `erc20`.
    public static func contractName(fromFileName path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        for suffix in [".json", ".abi", ".vy", ".vyi", ".sol"] where name.hasSuffix(suffix) && name.count > suffix.count {
            name = name.dropLast(suffix.count)
        }
        if let dot = name.firstIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return String(name)
    }

    // MARK: Formats

    private init(name: String, abiJSON: JSONValue, path: String, format: Format) throws(ABIError) {
        var json = abiJSON
        // solc's combined-json writes the ABI as a JSON string.
        if case .string(let text) = abiJSON {
            do { json = try JSONValue(parsing: Array(text.utf8)) } catch {
                throw .invalidJSON(path: path, reason: "the ABI string is not valid JSON")
            }
        }
        guard case .array = json else { throw .invalidJSON(path: path, reason: "expected an array of ABI entries") }
        let abi: ContractABI
        do { abi = try ContractABI(jsonValue: json) } catch {
            throw .invalidJSON(path: path, reason: "\(error)")
        }
        self.init(name: name, abi: abi, abiJSON: json, format: format)
    }

    /// An object with `abi`: Foundry, Hardhat, or the same shape from another tool.
    private static func single(_ root: JSONValue, stem: String, fileName: String) throws(ABIError) -> ContractArtifact {
        let isFoundry = root["bytecode"]?["object"] != nil || root["metadata"]?["output"] != nil
        let isHardhat = root["_format"]?.stringValue?.hasPrefix("hh-") == true
        var name = stem
        if let declared = root["contractName"]?.stringValue, !declared.isEmpty {
            name = declared
        } else if case .object(let targets)? = metadata(root)?["settings"]?["compilationTarget"], let target = targets.first?.value.stringValue {
            name = target
        }
        var artifact = try ContractArtifact(
            name: name, abiJSON: root["abi"] ?? .null, path: fileName + ": abi",
            format: isFoundry ? .foundry : .hardhat)
        try artifact.takeCode(
            creation: root["bytecode"]?["object"] ?? root["bytecode"],
            runtime: root["deployedBytecode"]?["object"] ?? root["deployedBytecode"], path: fileName)
        let output = metadata(root)?["output"]
        artifact.documentation = NatSpec(userdoc: root["userdoc"] ?? output?["userdoc"], devdoc: root["devdoc"] ?? output?["devdoc"])
        if !isFoundry && !isHardhat && root["bytecode"] == nil { artifact.format = .abi }
        return artifact
    }

    /// Foundry's `metadata` member: an object, or (older versions, `rawMetadata`) a JSON string.
    private static func metadata(_ root: JSONValue) -> JSONValue? {
        for key in ["metadata", "rawMetadata"] {
            switch root[key] {
            case .object?: return root[key]
            case .string(let text)?: if let parsed = try? JSONValue(parsing: Array(text.utf8)) { return parsed }
            default: continue
            }
        }
        return nil
    }

    private static func solcCombined(_ contracts: [(key: String, value: JSONValue)], fileName: String) throws(ABIError) -> [ContractArtifact] {
        var artifacts: [ContractArtifact] = []
        for (key, entry) in contracts {
            let name = key.split(separator: ":").last.map(String.init) ?? key
            var artifact = try ContractArtifact(name: name, abiJSON: entry["abi"] ?? .null, path: "\(fileName): \(key).abi", format: .solcCombined)
            try artifact.takeCode(creation: entry["bin"], runtime: entry["bin-runtime"], path: "\(fileName): \(key)")
            func doc(_ member: String) -> JSONValue? {
                if case .string(let text)? = entry[member] { return try? JSONValue(parsing: Array(text.utf8)) }
                return entry[member]
            }
            artifact.documentation = NatSpec(userdoc: doc("userdoc"), devdoc: doc("devdoc"))
            artifacts.append(artifact)
        }
        return artifacts
    }

    /// Takes creation and runtime code from hex strings (with or without `0x`; empty means none).
    private mutating func takeCode(creation: JSONValue?, runtime: JSONValue?, path: String) throws(ABIError) {
        func decode(_ value: JSONValue?, _ what: String) throws(ABIError) -> (code: [UInt8]?, placeholders: [String]) {
            guard let value, !value.isNull else { return (nil, []) }
            guard case .string(var text) = value else { throw .invalidJSON(path: "\(path).\(what)", reason: "expected a hex string") }
            if text.hasPrefix("0x") || text.hasPrefix("0X") { text.removeFirst(2) }
            if text.isEmpty { return (nil, []) }
            let placeholders = ContractArtifact.placeholders(in: text)
            if !placeholders.isEmpty { return (nil, placeholders) }
            do { return (try Hex.decode("0x" + text), []) } catch {
                throw .invalidJSON(path: "\(path).\(what)", reason: "not hex bytecode (\(error))")
            }
        }
        let created = try decode(creation, "bytecode")
        bytecode = created.code
        unlinkedLibraries = created.placeholders
        deployedBytecode = try decode(runtime, "deployedBytecode").code
    }

    /// The `__$<hash>$__` (solc ≥ 0.5) and `__<path:Name>__` (older) link placeholders of unlinked bytecode.
    static func placeholders(in hex: String) -> [String] {
        let bytes = Array(hex.utf8)
        var found: [String] = []
        var i = 0
        while i + 40 <= bytes.count {
            if bytes[i] == UInt8(ascii: "_"), bytes[i + 1] == UInt8(ascii: "_") {
                let text = String(decoding: bytes[i..<i + 40], as: UTF8.self)
                if !found.contains(text) { found.append(text) }
                i += 40
            } else {
                i += 2
            }
        }
        return found
    }
}
