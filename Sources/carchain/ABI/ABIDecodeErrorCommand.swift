import ArgumentParser
import EthereumABI
import EthereumPrimitives
import Foundation

/// `carchain abi decode-error HEX [--abi FILE]`: revert data in words.
struct ABIDecodeErrorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-error",
        abstract: "Decode revert data: Error(string), Panic(uint256) with its meaning, or a custom error from --abi.",
        discussion: """
            Panic codes: 0x01 assert, 0x11 overflow, 0x12 division by zero, 0x21 enum conversion, 0x22 storage byte array, 0x31 pop on empty array, 0x32 index out of bounds, 0x41 memory, 0x51 zero function.

            Examples:
              carchain abi decode-error 0x08c379a0…     # reverted: car not rented
              carchain abi decode-error 0x4e487b71…11   # panic 0x11 (arithmetic overflow or underflow)
              carchain abi decode-error --abi out/Token.json 0x…
            """
    )

    @Argument(help: "The revert data as hex (read from stdin when omitted).")
    var hex: String?

    @Option(help: "A JSON ABI, or an artifact with an \"abi\" field, whose custom errors to recognise.")
    var abi: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let data = try ABIHex.read(hex, what: "revert data")
        let errors = try abi.map { try ABIFile.load($0).errors } ?? []
        let reason = RevertReason(data: data, errors: errors)
        guard output.json else {
            print(reason.description)
            return
        }
        let json: JSONValue
        switch reason {
        case .empty:
            json = .object([("kind", .string("empty"))])
        case .error(let message):
            json = .object([("kind", .string("error")), ("message", .string(message))])
        case .panic(let code):
            json = .object([
                ("kind", .string("panic")), ("code", .string(code.code.hexString)),
                ("meaning", code.meaning.map { .string($0) } ?? .null),
            ])
        case .custom(let error, let values):
            json = .object([
                ("kind", .string("custom")), ("name", .string(error.name)), ("signature", .string(error.signature)),
                ("args", .object(zip(error.inputs.enumerated(), values).map { p, v in (p.element.name.isEmpty ? "\(p.offset)" : p.element.name, v.jsonValue) })),
            ])
        case .unrecognized(let bytes):
            json = .object([("kind", .string("unrecognized")), ("data", .string(Hex.encode(bytes)))])
        }
        print(json.description)
    }
}

/// Reading `--abi FILE`.
enum ABIFile {
    static func load(_ path: String) throws -> ContractABI {
        try ContractABI(jsonData: try CLIInput.file(path, option: "--abi"))
    }
}
