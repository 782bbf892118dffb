import ArgumentParser
import EthereumABI
import EthereumPrimitives
import Foundation

/// `carchain abi decode TYPES HEX`: ABI data to JSON.
struct ABIDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode ABI data as a list of types, printing a JSON array.",
        discussion: """
            TYPES is a type list, '(uint256,string)' or 'uint256,string'. The decoder is strict: it accepts only the canonical encoding (offsets in order, zero padding, valid values); --lenient accepts what Solidity's decoder accepts. Give --calldata to skip a 4-byte selector first.

            Examples:
              carchain abi decode '(bool,string)' 0x0000…01…
              carchain abi decode uint256,address 0x…
              carchain abi decode --calldata 'string,string' 0xec73afef…
            """
    )

    @Argument(help: "The types, e.g. '(uint256,string)'.")
    var types: String

    @Argument(help: "The data as hex (read from stdin when omitted).")
    var hex: String?

    @Flag(help: "The data starts with a 4-byte selector to skip.")
    var calldata = false

    @Flag(help: "Accept non-canonical layouts and padding (as Solidity's decoder does).")
    var lenient = false

    @OptionGroup var output: JSONOption

    func run() throws {
        let typeList = try ABIType.parseList(types)
        var data = try ABIHex.read(hex, what: "ABI data")
        if calldata {
            guard data.count >= 4 else { throw CLIError("calldata is shorter than a 4-byte selector") }
            data.removeFirst(4)
        }
        let values = try ABIDecoder.decode(typeList, from: data, options: lenient ? .lenient : .strict)
        // JSON in both modes; --json is accepted for uniformity.
        print(JSONValue.array(values.map(\.jsonValue)).description)
    }
}

/// Hex input for the abi commands: an argument, or stdin when absent.
enum ABIHex {
    static func read(_ argument: String?, what: String) throws -> [UInt8] {
        let text = try argument ?? KeccakCommand.readStdinText(what: what)
        do {
            return try Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw CLIError("bad hex \(what): \(error)")
        }
    }
}
