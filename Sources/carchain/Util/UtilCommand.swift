import ArgumentParser

/// `carchain util …`: hashing, RLP, addresses and units, in the spirit of Foundry's `cast`.
struct UtilCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "util",
        abstract: "Hashing, RLP, address and unit conversions.",
        discussion: """
            Examples:
              carchain util keccak --text 'transfer(address,uint256)'
              carchain util rlp-encode '["0x646f67", "#1024", []]'
              carchain util rlp-decode 0xc88363617483646f67
              carchain util checksum 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266
              carchain util to-wei 1.5 ether
              carchain util from-wei 30000000000 gwei
            """,
        subcommands: [
            KeccakCommand.self, RLPEncodeCommand.self, RLPDecodeCommand.self,
            AddressCommand.self, ChecksumCommand.self, ToWeiCommand.self, FromWeiCommand.self,
        ]
    )
}

/// The `--json` flag shared by commands.
struct JSONOption: ParsableArguments {
    @Flag(name: .long, help: "Print machine-readable JSON.")
    var json = false
}
