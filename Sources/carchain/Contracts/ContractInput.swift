import ArgumentParser
import CarChainKit
import ContractBindingsGenerator
import EthereumContracts
import Foundation

/// What the contract commands (`call`, `send`, `logs`, `deploy --artifact`) share: reading an ABI or artifact file,
/// picking a function from a signature or a name, parsing arguments, and the connection.
enum ContractInput {
    /// The one contract of an ABI or artifact file (`name` picks one from a combined output).
    static func artifact(_ path: String, option: String, name: String? = nil) throws -> ContractArtifact {
        let bytes = try CLIInput.file(path, option: option, limit: BindingFiles.inputLimit)
        let all: [ContractArtifact]
        do { all = try ContractArtifact.read(json: bytes, fileName: path) } catch { throw CLIError("\(option): \(error)") }
        if let name {
            guard let found = all.first(where: { $0.name == name }) else {
                throw CLIError("\(option): \(path) has no contract \(name) (it has \(all.map(\.name).joined(separator: ", ")))")
            }
            return found
        }
        guard all.count == 1, let only = all.first else {
            throw CLIError("\(option): \(path) holds \(all.count) contracts (\(all.map(\.name).joined(separator: ", "))); pick one with --contract-name")
        }
        return only
    }

    /// The function a command names: a signature in cast's form (`balanceOf(address)(uint256)`: the second list is
    /// the return types), a human-readable one (`function balanceOf(address) view returns (uint256)`), or — with an
    /// ABI — a bare name or a signature found in it.
    static func function(_ text: String, abi: ContractABI?, argumentCount: Int) throws -> ABIFunction {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let abi, !trimmed.contains("(") {
            return try abi.resolveFunction(trimmed, argumentCount: argumentCount)
        }
        var function = try castSignature(trimmed)
        if let abi, let known = abi.function(selector: function.selector), function.outputs.isEmpty {
            function = known
        }
        return function
    }

    /// Parses `name(inputs)(outputs)` (cast's form) or anything ``ABIFunction/init(signature:)`` reads.
    static func castSignature(_ text: String) throws -> ABIFunction {
        // The end of the first parenthesised list, if a second one follows it directly.
        var depth = 0
        var end: String.Index?
        for i in text.indices {
            if text[i] == "(" { depth += 1 }
            if text[i] == ")" {
                depth -= 1
                if depth == 0 {
                    end = i
                    break
                }
            }
        }
        if let end {
            let rest = text[text.index(after: end)...].trimmingCharacters(in: .whitespaces)
            if rest.hasPrefix("(") {
                var function = try ABIFunction(signature: String(text[...end]))
                let outputs = try ABIType.parseList(rest)
                function.outputs = outputs.map { ABIParameter(type: $0) }
                function.stateMutability = .view
                return function
            }
        }
        return try ABIFunction(signature: text)
    }

    /// Arguments parsed as the function's parameter types, named as the user counts them.
    static func values(_ texts: [String], for parameters: [ABIParameter], what: String) throws -> [ABIValue] {
        guard texts.count == parameters.count else {
            throw CLIError("\(what) takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"), got \(texts.count)")
        }
        var values: [ABIValue] = []
        for (i, (text, parameter)) in zip(texts, parameters).enumerated() {
            do {
                values.append(try ABIValue(parsing: text, as: parameter.type))
            } catch {
                if case .invalidValue(let path, let inner, let reason) = error {
                    let suffix = path.hasPrefix("value") ? path.dropFirst("value".count) : ""
                    throw ABIError.invalidValue(path: "argument \(i + 1)" + suffix, type: inner, reason: reason)
                }
                throw error
            }
        }
        return values
    }

    /// An address argument.
    static func address(_ text: String, what: String) throws -> Address {
        do { return try Address(text) } catch { throw CLIError("\(what): \(error)") }
    }

    /// Refuses `--contract`, which names the CarChain contract and means nothing to these commands.
    static func refuseCarChainContract(_ node: NodeOptions) throws {
        if node.contract != nil {
            throw CLIError("--contract names the CarChain contract; give this command's contract as its ADDRESS argument")
        }
    }

    /// Values as text, one per line (`name = value` when named).
    static func lines(_ values: [ABIValue], _ parameters: [ABIParameter]) -> [String] {
        zip(values, parameters + Array(repeating: ABIParameter(type: .bool), count: max(0, values.count - parameters.count))).map { value, p in
            p.name.isEmpty ? value.description : "\(p.name) = \(value)"
        }
    }

    /// A decoded log as `Name(a=…, b=…)` in one line.
    static func describe(_ log: DecodedLog) -> String {
        let place = "block \(log.log.blockNumber.map(String.init) ?? "?") tx \(log.log.transactionHash?.description ?? "?") log \(log.log.logIndex.map(String.init) ?? "?")"
        guard let decoded = log.decoded else {
            return "\(place): unknown event, topics \(log.log.topics.map(\.description).joined(separator: " ")) data \(Hex.encode(log.log.data))"
        }
        return "\(place): \(decoded)"
    }

    /// A decoded log as JSON.
    static func json(_ log: DecodedLog) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("address", .string(log.log.address.checksummed)),
            ("blockNumber", log.log.blockNumber.map { .number(String($0)) } ?? .null),
            ("transactionHash", log.log.transactionHash.map { .string($0.hexString) } ?? .null),
            ("logIndex", log.log.logIndex.map { .number(String($0)) } ?? .null),
        ]
        if let decoded = log.decoded {
            members.append(("event", .string(decoded.event.name)))
            members.append(("signature", .string(decoded.event.signature)))
            members.append(("args", .object(zip(decoded.event.inputs.enumerated(), decoded.values).map { item, value in
                let key = item.element.name.isEmpty ? String(item.offset) : item.element.name
                switch value {
                case .value(let v): return (key, v.jsonValue)
                case .hashed(let h): return (key, .object([("hash", .string(h.hexString))]))
                }
            })))
        } else {
            members.append(("topics", .array(log.log.topics.map { .string($0.hexString) })))
            members.append(("data", .string(Hex.encode(log.log.data))))
        }
        return .object(members)
    }
}
