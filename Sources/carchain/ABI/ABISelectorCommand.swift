import ArgumentParser
import EthereumABI
import EthereumPrimitives

/// `carchain abi selector SIGNATURE`: the 4-byte selector of a function or error, or an event's topic 0.
struct ABISelectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selector",
        abstract: "The 4-byte selector of a function or error signature, or the topic 0 of an event.",
        discussion: """
            The signature may be canonical ('rentCar(string,string)') or human-readable ('function rentCar(string plate, string userId)', 'error NotOwner(address who)', 'event CarRented(string plate, string userId)').

            Examples:
              carchain abi selector 'rentCar(string,string)'          # 0xec73afef
              carchain abi selector 'function transfer(address to, uint256 amount) returns (bool)'
              carchain abi selector 'event Transfer(address indexed from, address indexed to, uint256 value)'
            """
    )

    @Argument(help: "The signature.")
    var signature: String

    @OptionGroup var output: JSONOption

    func run() throws {
        let canonical: String
        let result: String
        switch try ABIItem(signature: signature) {
        case .function(let f):
            canonical = f.signature
            result = f.selector.description
        case .error(let e):
            canonical = e.signature
            result = e.selector.description
        case .event(let e):
            canonical = e.signature
            result = e.topic0.description
        default:
            throw CLIError("constructor, fallback and receive have no selector")
        }
        if output.json {
            print(JSONValue.object([("signature", .string(canonical)), ("selector", .string(result))]).description)
        } else {
            print(result)
        }
    }
}
