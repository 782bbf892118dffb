import ArgumentParser
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// `carchain tx sign`: prints the raw signed transaction.
struct TxSignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a transaction (legacy, 2930, 1559 or 7702/type 4) and print the raw hex (--json: raw, hash, from, type, chainId).",
        discussion: """
            Amounts are wei, or a number with a unit (20gwei, 1.5ether), or 0x hex. The chain id defaults to 4 \
            (EIP-155). --type defaults to legacy, or 1559 when --max-fee is given, or 4 when --authorization is; \
            types are named by number (0, 1, 2, 4) or EIP (legacy, 2930, 1559, 7702). Omit --to to create a \
            contract (then --data is the initcode; not for type 4).

            A type-4 (EIP-7702, Prague) transaction carries one or more signed authorizations: repeat \
            --authorization with what `carchain tx authorize` prints (its JSON object, or its --hex RLP).

            Examples:
              PK=0x… carchain tx sign --to 0x3535353535353535353535353535353535353535 \\
                --nonce 9 --gas-limit 21000 --gas-price 20gwei --value 1ether \\
                --chain-id 1 --private-key-env PK
              carchain tx sign --type 2930 \\
                --access-list '[{"address":"0x…","storageKeys":["0x…"]}]' …
              AUTH=$(carchain tx authorize --chain-id 4 --address 0x… --nonce 0 \\
                --private-key-env AUTHORITY_PK)
              carchain tx sign --type 4 --authorization "$AUTH" --to 0x… --nonce 3 \\
                --gas-limit 100000 --max-fee 30gwei --max-priority-fee 1gwei \\
                --chain-id 4 --private-key-env PK
            """
    )

    /// The envelope types, named by EIP (as the help lists them) or by type number.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case legacy, eip2930 = "2930", eip1559 = "1559", eip7702 = "7702"

        init?(argument: String) {
            switch argument.lowercased() {
            case "legacy", "0": self = .legacy
            case "2930", "1": self = .eip2930
            case "1559", "2": self = .eip1559
            case "7702", "4": self = .eip7702
            default: return nil
            }
        }

        static var allValueStrings: [String] { ["legacy", "2930", "1559", "7702", "0", "1", "2", "4"] }
    }

    @Option(help: "Recipient address; omit to create a contract.")
    var to: String?
    @Option(help: "Sender nonce (\(OptionRanges.nonce.text)).")
    var nonce: UInt64
    @Option(help: "Gas limit (\(OptionRanges.gasLimit.text)).")
    var gasLimit: UInt64
    @Option(help: "Gas price (legacy and 2930; \(AmountOption.text), or 0x hex).")
    var gasPrice: String?
    @Option(help: "maxFeePerGas (1559; \(AmountOption.text), or 0x hex).")
    var maxFee: String?
    @Option(help: "maxPriorityFeePerGas (1559; \(AmountOption.text), or 0x hex).")
    var maxPriorityFee: String?
    @Option(help: "Value to transfer (\(AmountOption.text), or 0x hex).")
    var value: String = "0"
    @Option(help: "Calldata or initcode as hex.")
    var data: String = "0x"
    @Option(help: "Transaction type: legacy (0), 2930 (1), 1559 (2) or 7702 (4).")
    var type: Kind?
    @Option(help: "Chain id (EIP-155 for legacy; \(OptionRanges.chainID.text)).")
    var chainId: UInt64 = Transaction.defaultChainID
    @Option(help: ArgumentHelp("Access list as JSON: [{\"address\": \"0x…\", \"storageKeys\": [\"0x…\"]}] (2930/1559).", valueName: "JSON"))
    var accessList: String?
    @Option(
        help: ArgumentHelp(
            "A signed EIP-7702 authorization for --type 4, as `carchain tx authorize` prints it (JSON, or RLP hex); repeatable.",
            valueName: "JSON|HEX"))
    var authorization: [String] = []
    @OptionGroup var signer: SignerOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        try OptionRanges.nonce.check(nonce)
        try OptionRanges.gasLimit.check(gasLimit)
        try OptionRanges.chainID.check(chainId)
        for (option, text) in [("--value", value), ("--gas-price", gasPrice), ("--max-fee", maxFee), ("--max-priority-fee", maxPriorityFee)] {
            if let text { _ = try AmountOption.parse(text, option: option, hex: true) }
        }
        let kind = resolvedKind
        switch kind {
        case .legacy, .eip2930:
            if gasPrice == nil { throw ValidationError("--gas-price is required for \(kind == .legacy ? "legacy" : "2930") transactions") }
            if maxFee != nil || maxPriorityFee != nil { throw ValidationError("--max-fee/--max-priority-fee apply to --type 1559 only") }
            if kind == .legacy && accessList != nil { throw ValidationError("--access-list needs --type 2930, 1559 or 4") }
        case .eip1559, .eip7702:
            let name = kind == .eip1559 ? "1559" : "4"
            if maxFee == nil || maxPriorityFee == nil { throw ValidationError("--type \(name) needs --max-fee and --max-priority-fee") }
            if gasPrice != nil { throw ValidationError("--gas-price does not apply to --type \(name) (use --max-fee)") }
        }
        if kind == .eip7702 {
            if authorization.isEmpty { throw ValidationError("--type 4 needs at least one --authorization (see `carchain tx authorize`)") }
            if to == nil { throw ValidationError("--type 4 transactions cannot create a contract: give --to") }
        } else if !authorization.isEmpty {
            throw ValidationError("--authorization applies to --type 4 only")
        }
    }

    var resolvedKind: Kind { type ?? (!authorization.isEmpty ? .eip7702 : maxFee != nil ? .eip1559 : .legacy) }

    func run() throws {
        let recipient = try to.map { try Address($0) }
        let amount = try Self.amount(value, "--value")
        let calldata: [UInt8]
        do { calldata = try Hex.decode(data) } catch { throw CLIError("--data is not hex: \(error)") }
        let list = try accessList.map(Self.parseAccessList) ?? []
        let transaction: Transaction
        switch resolvedKind {
        case .legacy:
            transaction = .legacy(LegacyTransaction(
                nonce: nonce, gasPrice: try Self.amount(gasPrice ?? "", "--gas-price"), gasLimit: gasLimit, to: recipient,
                value: amount, data: calldata, chainId: chainId))
        case .eip2930:
            transaction = .accessList(AccessListTransaction(
                chainId: chainId, nonce: nonce, gasPrice: try Self.amount(gasPrice ?? "", "--gas-price"), gasLimit: gasLimit,
                to: recipient, value: amount, data: calldata, accessList: list))
        case .eip1559:
            transaction = .dynamicFee(DynamicFeeTransaction(
                chainId: chainId, nonce: nonce, maxPriorityFeePerGas: try Self.amount(maxPriorityFee ?? "", "--max-priority-fee"),
                maxFeePerGas: try Self.amount(maxFee ?? "", "--max-fee"), gasLimit: gasLimit, to: recipient, value: amount,
                data: calldata, accessList: list))
        case .eip7702:
            guard let recipient else { throw CLIError("--type 4 transactions cannot create a contract: give --to") }
            transaction = .setCode(SetCodeTransaction(
                chainId: chainId, nonce: nonce, maxPriorityFeePerGas: try Self.amount(maxPriorityFee ?? "", "--max-priority-fee"),
                maxFeePerGas: try Self.amount(maxFee ?? "", "--max-fee"), gasLimit: gasLimit, to: recipient, value: amount,
                data: calldata, accessList: list, authorizationList: try authorization.flatMap(AuthorizationInput.parse)))
        }
        let key = try signer.loadKey()
        let signed = transaction.sign(with: key)
        if output.json {
            Output.json([
                "raw": signed.rawHex, "hash": signed.hash.hexString, "from": key.address.checksummed,
                "type": "0x" + String(transaction.type.rawValue, radix: 16), "chainId": "0x" + String(chainId, radix: 16),
            ])
        } else {
            print(signed.rawHex)
        }
    }

    /// Wei from "123", "20gwei", "1.5 ether" or "0x…".
    static func amount(_ text: String, _ option: String) throws -> UInt256 {
        do { return try AmountOption.parse(text, option: option, hex: true) } catch { throw CLIError(error.message) }
    }

    static func parseAccessList(_ text: String) throws -> AccessList {
        guard let root = try? JSONValue(parsing: text), let entries = root.arrayValue else {
            throw CLIError("--access-list is not a JSON array")
        }
        return try entries.enumerated().map { i, entry in
            guard let addressText = entry["address"]?.stringValue else { throw CLIError("--access-list entry \(i) has no \"address\"") }
            let address: Address
            do { address = try Address(addressText) } catch { throw CLIError("--access-list entry \(i): \(error)") }
            let keys = try (entry["storageKeys"]?.arrayValue ?? []).enumerated().map { j, key in
                guard let keyText = key.stringValue, let slot = try? Bytes32(hex: keyText) else {
                    throw CLIError("--access-list entry \(i) storage key \(j) is not 32 bytes of hex")
                }
                return slot
            }
            return AccessListEntry(address: address, storageKeys: keys)
        }
    }
}
