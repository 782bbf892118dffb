import ArgumentParser

/// `carchain abi …`: encode and decode contract ABI data, selectors, revert data and logs.
struct ABICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abi",
        abstract: "Encode and decode contract ABI data, selectors, revert data and event logs.",
        discussion: """
            Values on the command line: integers in decimal or 0x-hex (negative with -), addresses as hex, bools as true/false, bytes as hex, strings as they are, arrays and tuples as JSON ('[1,2]', '["0xab…", 5]'). Decoded values print as JSON: integers as decimal strings, addresses checksummed, bytes as 0x-hex.

            Examples:
              carchain abi selector 'rentCar(string,string)'
              carchain abi encode 'rentCar(string plate, string userId)' 6789BBB O6fLnMnVXAUWmxdIYatVNzaE31i1
              carchain abi decode '(bool,string)' 0x…
              carchain abi decode-error 0x08c379a0…
              carchain abi decode-log --topics $(carchain abi selector 'event CarRented(string,string)') --data 0x…
            """,
        subcommands: [
            ABIEncodeCommand.self, ABIDecodeCommand.self, ABISelectorCommand.self, ABIDecodeErrorCommand.self,
            ABIDecodeLogCommand.self,
        ]
    )
}
