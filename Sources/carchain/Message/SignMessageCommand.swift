import ArgumentParser
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// What is being signed or verified: EIP-191 text, EIP-191 hex bytes, or an EIP-712 typed-data file.
struct MessageInput: ParsableArguments {
    @Argument(help: "The message text (EIP-191 personal_sign of its UTF-8 bytes).")
    var message: String?
    @Option(help: "Sign these bytes (hex) instead of text.")
    var hex: String?
    @Option(help: ArgumentHelp("Sign EIP-712 typed data from this JSON file ({types, primaryType, domain, message}).", valueName: "FILE"))
    var typedData: String?

    func validate() throws {
        if [message != nil, hex != nil, typedData != nil].filter({ $0 }).count != 1 {
            throw ValidationError("give exactly one of MESSAGE, --hex HEX and --typed-data FILE")
        }
    }

    /// The 32-byte hash that is signed, and a label for output.
    func digest() throws -> (hash: Bytes32, kind: String) {
        if let typedData {
            return (try TypedData(jsonText: try CLIInput.text(typedData, option: "--typed-data")).signingHash(), "eip712")
        }
        if let hex {
            do { return (PersonalMessage.hash(try Hex.decode(hex)), "eip191") } catch { throw CLIError("--hex: \(error)") }
        }
        return (PersonalMessage.hash(message ?? ""), "eip191")
    }
}

/// `carchain sign-message`: EIP-191 personal_sign or EIP-712 signature.
struct SignMessageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-message",
        abstract: "Sign a message (EIP-191 personal_sign) or typed data (EIP-712); prints r‖s‖v (v = 27/28).",
        discussion: """
            Examples:
              PK=0x… carchain sign-message --private-key-env PK 'hello'
              carchain sign-message --keystore FILE --password-file pw.txt --typed-data order.json --json
            """
    )

    @OptionGroup var input: MessageInput
    @OptionGroup var signer: SignerOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let (hash, kind) = try input.digest()
        let key = try signer.loadKey()
        let signature = key.sign(hash: hash)
        if output.json {
            Output.json(["signature": Hex.encode(signature.rsv), "hash": hash.hexString, "address": key.address.checksummed, "kind": kind])
        } else {
            print(Hex.encode(signature.rsv))
        }
    }
}

/// `carchain verify-message`: checks that a signature was made by an address.
struct VerifyMessageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-message",
        abstract: "Verify an EIP-191 or EIP-712 signature against an address (exit 1 when it does not match).",
        discussion: """
            Examples:
              carchain verify-message --address 0x… --signature 0x…(65 bytes) 'hello'
              carchain verify-message --address 0x… --signature 0x… --typed-data order.json
            """
    )

    @Option(help: "The expected signer.")
    var address: String
    @Option(help: "The 65-byte signature r‖s‖v as hex (v = 27/28 or 0/1).")
    var signature: String
    @OptionGroup var input: MessageInput
    @OptionGroup var output: JSONOption

    func run() throws {
        let expected = try Address(address)
        let bytes: [UInt8]
        do { bytes = try Hex.decode(signature) } catch { throw CLIError("--signature: \(error)") }
        let parsed = try Signature(rsv: bytes)
        let (hash, _) = try input.digest()
        let signer = try Secp256k1.recover(hash: hash, signature: parsed).address
        guard signer == expected else {
            throw CLIError("signature is not valid for \(expected.checksummed): it was made by \(signer.checksummed)")
        }
        if output.json {
            Output.json(["valid": "true", "address": signer.checksummed])
        } else {
            print("valid: signed by \(signer.checksummed)")
        }
    }
}
