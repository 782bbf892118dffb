import ArgumentParser
import EthereumCrypto
import EthereumPrimitives

/// `carchain util address`: the address (and public key) of a private key.
struct AddressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "address",
        abstract: "Print the address of a private key (hex, from the argument or stdin).",
        discussion: """
            The key is read from stdin when omitted, which keeps it out of your shell history:
              carchain util address < key.hex
              carchain util address 0x0101010101010101010101010101010101010101010101010101010101010101
            """
    )

    @Argument(help: "The private key as 64 hex digits (read from stdin when omitted).")
    var privateKey: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let text = try privateKey ?? KeccakCommand.readStdinText(what: "private key")
        let key = try PrivateKey(hex: text)
        let address = key.address
        if output.json {
            Output.json(["address": address.checksummed, "publicKey": Hex.encode(key.publicKey.uncompressed)])
        } else {
            print(address.checksummed)
        }
    }
}

/// `carchain util checksum`: EIP-55 form of an address.
struct ChecksumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checksum",
        abstract: "Print an address in its EIP-55 checksummed form (and check a mixed-case input).",
        discussion: """
            Examples:
              carchain util checksum 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266
              carchain util checksum 0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266   # verifies the checksum
            """
    )

    @Argument(help: "A 20-byte address as hex.")
    var address: String

    @OptionGroup var output: JSONOption

    func run() throws {
        let parsed = try Address(address)
        if output.json {
            Output.json(["address": parsed.checksummed])
        } else {
            print(parsed.checksummed)
        }
    }
}
