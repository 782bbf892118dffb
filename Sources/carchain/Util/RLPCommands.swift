import ArgumentParser
import EthereumPrimitives
import Foundation

/// `carchain util rlp-encode`: RLP from its JSON form.
struct RLPEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rlp-encode",
        abstract: "RLP-encode a JSON value: hex string = bytes, array = list, \"#123\" = integer.",
        discussion: """
            Examples:
              carchain util rlp-encode '"0x646f67"'          # bytes "dog" -> 0x83646f67
              carchain util rlp-encode '["0x", "#0", "#1024"]'
              carchain util rlp-encode '[[], [[]], [[], [[]]]]'
            """
    )

    @Argument(help: "The JSON form (read from stdin when omitted).")
    var json: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let text = try json ?? KeccakCommand.readStdinText(what: "JSON")
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw CLIError("input is not valid JSON")
        }
        let item = try RLPJSON.item(from: value, path: "$")
        let encoded = RLP.encode(item)
        if output.json {
            Output.json(["rlp": Hex.encode(encoded)])
        } else {
            print(Hex.encode(encoded))
        }
    }
}

/// `carchain util rlp-decode`: strict RLP decoding to the JSON form.
struct RLPDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rlp-decode",
        abstract: "Decode RLP (strictly: non-canonical encodings are rejected) to its JSON form.",
        discussion: """
            Examples:
              carchain util rlp-decode 0xc88363617483646f67   # ["0x636174","0x646f67"]
              carchain util rlp-decode 0x820400               # "0x0400"
            """
    )

    @Argument(help: "RLP bytes as hex (read from stdin when omitted).")
    var hex: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let text = try hex ?? KeccakCommand.readStdinText(what: "RLP hex")
        let bytes: [UInt8]
        do { bytes = try Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) } catch { throw CLIError("bad hex input: \(error)") }
        let item: RLPItem
        do { item = try RLP.decode(bytes) } catch { throw CLIError("invalid RLP: \(error)") }
        // The JSON form is JSON in both modes; --json is accepted for uniformity.
        print(RLPJSON.json(from: item).description)
    }
}

/// Conversion between RLP items and the JSON form used by the CLI (and by ethereum/tests' RLPTests).
enum RLPJSON {
    static func item(from value: JSONValue, path: String) throws -> RLPItem {
        switch value {
        case .array(let items):
            return .list(try items.enumerated().map { try item(from: $0.element, path: "\(path)[\($0.offset)]") })
        case .string(let s):
            if s.hasPrefix("#") {
                do {
                    return .bytes(try UInt256(decimal: String(s.dropFirst())).minimalBigEndianBytes)
                } catch {
                    throw CLIError("\(path): \(String(reflecting: s)) is not an integer in 0 ..< 2^256 (\(error))")
                }
            }
            do {
                return .bytes(try Hex.decode(s))
            } catch {
                throw CLIError("\(path): \(String(reflecting: s)) is not hex bytes (\(error)); write integers as \"#123\"")
            }
        case .number(let n):
            do {
                return .bytes(try UInt256(decimal: n).minimalBigEndianBytes)
            } catch {
                throw CLIError("\(path): \(n) is not an integer in 0 ..< 2^256")
            }
        default:
            throw CLIError("\(path): expected a hex string, \"#integer\" or an array, got \(value)")
        }
    }

    static func json(from item: RLPItem) -> JSONValue {
        switch item {
        case .bytes(let b): return .string(Hex.encode(b))
        case .list(let items): return .array(items.map(json(from:)))
        }
    }
}
