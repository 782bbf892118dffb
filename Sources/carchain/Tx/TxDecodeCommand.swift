import ArgumentParser
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// `carchain tx decode`: the fields of a raw transaction as JSON.
struct TxDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a raw transaction (strictly) and print its fields, hash and sender as JSON.",
        discussion: """
            Field names and 0x quantities follow eth_getTransactionByHash. With --fork, the transaction is also
            validated under that fork's rules (and --chain-id, when given).

            Examples:
              carchain tx decode 0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83
              carchain tx decode --fork cancun --chain-id 1 0x02f8…
            """
    )

    @Argument(help: "The raw transaction as hex (read from stdin when omitted).")
    var raw: String?
    @Option(help: "Also validate under this fork (e.g. cancun, prague).")
    var fork: String?
    @Option(help: "The chain id required by --fork validation (\(OptionRanges.chainID.text)).")
    var chainId: UInt64?

    func validate() throws { try OptionRanges.chainID.check(chainId) }

    func run() throws {
        let text = try raw ?? KeccakCommand.readStdinText(what: "raw transaction hex")
        let signed = try SignedTransaction.decode(hex: text.trimmingCharacters(in: .whitespacesAndNewlines))
        let tx = signed.transaction
        func q(_ v: UInt256) -> JSONValue { .string(v.hexString) }
        func q(_ v: UInt64) -> JSONValue { .string("0x" + String(v, radix: 16)) }
        var fields: [(key: String, value: JSONValue)] = [
            ("type", q(UInt64(tx.type.rawValue))), ("typeName", .string(tx.type.eip)),
            ("chainId", tx.chainId.map(q) ?? .null), ("nonce", q(tx.nonce)), ("gas", q(tx.gasLimit)),
        ]
        if let price = tx.gasPrice {
            fields.append(("gasPrice", q(price)))
        } else {
            fields += [("maxFeePerGas", q(tx.maxFeePerGas)), ("maxPriorityFeePerGas", q(tx.maxPriorityFeePerGas))]
        }
        fields += [
            ("to", tx.to.map { .string($0.checksummed) } ?? .null), ("value", q(tx.value)), ("input", .string(Hex.encode(tx.data))),
        ]
        if tx.type != .legacy {
            fields.append(("accessList", .array(tx.accessList.map {
                .object([("address", .string($0.address.checksummed)), ("storageKeys", .array($0.storageKeys.map { .string($0.hexString) }))])
            })))
        }
        if case .blob(let blob) = tx {
            fields += [("maxFeePerBlobGas", q(blob.maxFeePerBlobGas)), ("blobVersionedHashes", .array(blob.blobVersionedHashes.map { .string($0.hexString) }))]
        }
        if case .setCode(let setCode) = tx {
            fields.append(("authorizationList", .array(setCode.authorizationList.map { auth in
                var members: [(key: String, value: JSONValue)] = [
                    ("chainId", q(auth.chainId)), ("address", .string(auth.address.checksummed)), ("nonce", q(auth.nonce)),
                    ("yParity", q(UInt64(auth.yParity))), ("r", q(auth.r)), ("s", q(auth.s)),
                ]
                members.append(("authority", (try? auth.authority()).map { .string($0.checksummed) } ?? .null))
                return .object(members)
            })))
        }
        fields += [("v", q(signed.signature.v)), ("r", q(signed.signature.r)), ("s", q(signed.signature.s))]
        if let parity = signed.yParity { fields.append(("yParity", q(UInt64(parity)))) }
        fields.append(("hash", .string(signed.hash.hexString)))
        do {
            fields.append(("from", .string(try signed.sender().checksummed)))
        } catch {
            fields.append(("from", .null))
            fields.append(("senderError", .string(error.description)))
        }
        if let forkName = fork {
            guard let hardfork = Hardfork(name: forkName) else { throw CLIError("unknown fork \(String(reflecting: forkName))") }
            let (gas, floor) = tx.intrinsicGas(fork: hardfork)
            fields.append(("intrinsicGas", q(gas)))
            if floor > 0 { fields.append(("floorGas", q(floor))) }
            do {
                try signed.validate(for: hardfork, chainID: chainId)
                fields.append(("valid", .bool(true)))
            } catch {
                fields += [("valid", .bool(false)), ("validationError", .string(error.description))]
            }
        }
        print(JSONValue.object(fields).description)
    }

}
