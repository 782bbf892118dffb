import ArgumentParser
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// `carchain tx sign`: prints the raw signed transaction.
struct TxSignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a transaction and print the raw hex (with --json: raw, hash, from, type, chainId).",
        discussion: """
            Amounts are wei, or a number with a unit (20gwei, 1.5ether), or 0x hex. The chain id defaults to 4
            (EIP-155). --type defaults to legacy, or 1559 when --max-fee is given. Omit --to to create a
            contract (then --data is the initcode).

            Examples:
              PK=0x… carchain tx sign --to 0x3535353535353535353535353535353535353535 --nonce 9 \\
                --gas-limit 21000 --gas-price 20gwei --value 1ether --chain-id 1 --private-key-env PK
              carchain tx sign --type 2930 --access-list '[{"address":"0x…","storageKeys":["0x…"]}]' …
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case legacy, eip2930 = "2930", eip1559 = "1559"
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
    @Option(help: "Transaction type: legacy, 2930 or 1559.")
    var type: Kind?
    @Option(help: "Chain id (EIP-155 for legacy; \(OptionRanges.chainID.text)).")
    var chainId: UInt64 = Transaction.defaultChainID
    @Option(help: ArgumentHelp("Access list as JSON: [{\"address\": \"0x…\", \"storageKeys\": [\"0x…\"]}] (2930/1559).", valueName: "JSON"))
    var accessList: String?
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
            if kind == .legacy && accessList != nil { throw ValidationError("--access-list needs --type 2930 or 1559") }
        case .eip1559:
            if maxFee == nil || maxPriorityFee == nil { throw ValidationError("--type 1559 needs --max-fee and --max-priority-fee") }
            if gasPrice != nil { throw ValidationError("--gas-price does not apply to --type 1559 (use --max-fee)") }
        }
    }

    var resolvedKind: Kind { type ?? (maxFee != nil ? .eip1559 : .legacy) }

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
