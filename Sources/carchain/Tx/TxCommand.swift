import ArgumentParser

/// `carchain tx …`: build, sign and decode transactions.
struct TxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tx",
        abstract: "Sign transactions (legacy/EIP-155, EIP-2930, EIP-1559, EIP-7702) and authorizations; decode raw ones.",
        discussion: """
            Examples:
              PK=0x… carchain tx sign --to 0x3535353535353535353535353535353535353535 --nonce 0 \\
                --gas-limit 21000 --gas-price 20gwei --value 1ether --private-key-env PK
              carchain tx sign --type 1559 --max-fee 30gwei --max-priority-fee 1gwei … --keystore FILE --json
              carchain tx authorize --chain-id 4 --address 0x… --nonce 0 --private-key-env PK
              carchain tx sign --type 4 --authorization '{"chainId":"0x4",…}' --to 0x… … --private-key-env PK
              carchain tx decode 0xf86c098504a817c800825208…
            """,
        subcommands: [TxSignCommand.self, TxAuthorizeCommand.self, TxDecodeCommand.self]
    )
}
