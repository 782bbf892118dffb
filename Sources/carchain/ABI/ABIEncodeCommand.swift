import ArgumentParser
import EthereumABI
import EthereumPrimitives

/// `carchain abi encode SIGNATURE ARGS…`: calldata for a function, or the encoding of a type list.
struct ABIEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "ABI-encode arguments: calldata for a function signature, or the bare encoding of a type list.",
        discussion: """
            SIGNATURE is a function ('transfer(address,uint256)' or 'function rentCar(string plate, string userId)'), giving the selector followed by the arguments, or a type list ('(uint256,string)' or 'uint256,string'), giving the arguments' encoding alone (as does --no-selector).

            Examples:
              carchain abi encode 'transfer(address,uint256)' 0x00000000000000000000000000000000000000aa 1000
              carchain abi encode 'rentCar(string,string)' 6789BBB O6fLnMnVXAUWmxdIYatVNzaE31i1
              carchain abi encode '(int8,bytes,uint256[])' -1 0xc0ffee '[1,2,3]'
              carchain abi encode 'f((address,uint8)[])' '[["0x00000000000000000000000000000000000000aa", 5]]'
            """
    )

    @Argument(help: "A function signature or a type list.")
    var signature: String

    @Argument(parsing: .allUnrecognized, help: "One argument per parameter.")
    var arguments: [String] = []

    @Flag(name: .customLong("no-selector"), help: "Leave out the 4-byte selector.")
    var noSelector = false

    @OptionGroup var output: JSONOption

    func run() throws {
        let (function, types) = try ABIEncodeCommand.parse(signature)
        guard arguments.count == types.count else {
            throw CLIError("\(function?.signature ?? ABIType.tuple(types).description) takes \(types.count) argument\(types.count == 1 ? "" : "s"), got \(arguments.count)")
        }
        var values: [ABIValue] = []
        for (i, (text, type)) in zip(arguments, types).enumerated() {
            let parsed: Result<ABIValue, ABIError> = Result { () throws(ABIError) in try ABIValue(parsing: text, as: type) }
            switch parsed {
            case .success(let value):
                values.append(value)
            case .failure(.invalidValue(let path, let inner, let reason)):
                // Name the argument as the user counts them ("argument 2 (uint8): 300 does not fit").
                let suffix = path.hasPrefix("value") ? path.dropFirst("value".count) : ""
                throw ABIError.invalidValue(path: "argument \(i + 1)" + suffix, type: inner, reason: reason)
            case .failure(let error):
                throw error
            }
        }
        let encoded = try ABIEncoder.encode(values, as: types)
        let data = (function != nil && !noSelector ? function?.selector.bytes ?? [] : []) + encoded
        if output.json {
            var members: [(key: String, value: JSONValue)] = [("data", .string(Hex.encode(data)))]
            if let function {
                members.append(("signature", .string(function.signature)))
                members.append(("selector", .string(function.selector.description)))
            }
            print(JSONValue.object(members).description)
        } else {
            print(Hex.encode(data))
        }
    }

    /// A function (with a name) or a bare type list.
    static func parse(_ signature: String) throws -> (ABIFunction?, [ABIType]) {
        let trimmed = signature.trimmingCharacters(in: .whitespaces)
        if let first = trimmed.unicodeScalars.first, first == "(" || !trimmed.contains("(") || trimmed.hasPrefix("tuple(") {
            return (nil, try ABIType.parseList(trimmed))
        }
        let function = try ABIFunction(signature: trimmed)
        return (function, function.inputTypes)
    }
}
