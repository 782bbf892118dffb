import ArgumentParser
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// `carchain tx authorize`: signs an EIP-7702 authorization, the tuple a type-4 transaction carries.
struct TxAuthorizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorize",
        abstract: "Sign an EIP-7702 authorization (delegate the signer's code to a contract) and print it.",
        discussion: """
            The signer (the authority) lets its account run the code of --address until it signs another \
            authorization; the zero address clears a delegation. The authorization applies only while the \
            authority's nonce equals --nonce (when the authority also sends the type-4 transaction: its \
            transaction nonce + 1), and only on chain --chain-id (0: any chain).

            Prints one JSON object with geth's field names (chainId, address, nonce, yParity, r, s), which \
            `carchain tx sign --type 4 --authorization` takes as it is. --hex prints the RLP of \
            [chain_id, address, nonce, y_parity, r, s] instead; --json adds the authority and the signed hash. \
            The signature is RFC 6979 (deterministic): the same bytes as eth-account's Account.sign_authorization.

            Examples:
              PK=0x… carchain tx authorize --chain-id 4 --nonce 0 \\
                --address 0x5FbDB2315678afecb367f032d93F642f64180aa3 --private-key-env PK
              AUTH=$(carchain tx authorize --chain-id 4 --address 0x… --nonce 1 \\
                --keystore FILE)
              carchain tx sign --type 4 --authorization "$AUTH" --to 0x… --nonce 0 \\
                --gas-limit 100000 --max-fee 30gwei --max-priority-fee 1gwei \\
                --chain-id 4 --private-key-env PK
            """
    )

    /// Authorization chain ids: 0 (valid on every chain) or an EIP-2294 chain id.
    static let chainIDRange = OptionRange("--chain-id", UInt64(0)...OptionRanges.maxChainID, "0 (any chain) to \(OptionRanges.maxChainID)")

    @Option(help: "The chain the authorization is valid on; 0 makes it valid on every chain (\(Self.chainIDRange.text)).")
    var chainId: UInt64
    @Option(help: "The contract whose code the authority's account will run (the zero address clears a delegation).")
    var address: String
    @Option(help: "The authority's nonce when the authorization is applied (\(OptionRanges.nonce.text)).")
    var nonce: UInt64
    @Flag(help: "Print the RLP hex of the signed tuple instead of JSON.")
    var hex = false
    @OptionGroup var signer: SignerOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        try Self.chainIDRange.check(chainId)
        try OptionRanges.nonce.check(nonce)
        if hex && output.json { throw ValidationError("--hex and --json are exclusive") }
    }

    func run() throws {
        let target: Address
        do { target = try Address(address) } catch { throw CLIError("--address: \(error)") }
        let key = try signer.loadKey()
        let signed = Authorization(chainId: UInt256(chainId), address: target, nonce: nonce).sign(with: key)
        if hex {
            print(Hex.encode(RLP.encode(signed.encodeRLP())))
            return
        }
        guard output.json, case .object(var members) = signed.json else {
            print(signed.json.description)
            return
        }
        members.append(("authority", .string(key.address.checksummed)))
        members.append(("signingHash", .string(signed.authorization.signingHash.hexString)))
        print(JSONValue.object(members).description)
    }
}
