import CarChain
import CarChainKit
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import Foundation

/// Setting up a signed-up user's Ethereum account — the second half of `carchain signup`, after the page created
/// the auth account itself (`accounts:signUp`) — and the EIP-1193 path, where the page's wallet holds the key.
extension AppAPI {
    /// `POST /account`. With `{walletPassphrase, privateKey?}`: a new key (or the imported one, e.g. the deployer's,
    /// who is then the manager) in a keystore on the server encrypted with the passphrase, funded on a development
    /// chain and registered from its own account (``AccountFlow/createAccount(uid:email:walletPassphrase:key:paths:chain:settings:fund:kdf:)``);
    /// an account made earlier but not registered yet is registered with the passphrase that opens its keystore.
    /// With `{wallet: {address, signature}}`: the wallet's account, proven by a `personal_sign` of
    /// ``walletLinkMessage(uid:email:address:chainID:)``, funded on a development chain; the page then sends the
    /// registration through the wallet (`POST /prepare {action: "register"}`).
    func setUpAccount(_ user: LoggedInUser, _ body: JSONBody) async throws -> JSONValue {
        if let wallet = body.value("wallet"), wallet != .null {
            return try await linkWallet(user, wallet)
        }
        try requireServerKeys()
        let passphrase = try Self.passphrase(body)
        let imported = try body.string("privateKey", required: false, maxBytes: 200).map { text throws -> PrivateKey in
            do { return try PrivateKey(hex: text.trimmingCharacters(in: .whitespaces)) } catch {
                throw AppAPIError.badRequest("The account key to import is not a secp256k1 private key (64 hex digits).")
            }
        }
        return try await writes.run {
            let contract = try await self.contract()
            if let address = try await user.address(contract: contract) {
                if try await contract.isUserRegistered(user.uid) {
                    throw AppAPIError(status: 409, code: "ALREADY_SET_UP", message: "Your account \(address.checksummed) is already set up.")
                }
                if let imported, imported.address != address {
                    throw AppAPIError(
                        status: 409, code: "ALREADY_SET_UP", message: "You already have the account \(address.checksummed): it cannot be replaced.")
                }
                let key = try user.key(address: address, password: passphrase)
                let setup = try await AccountSetup.ensureOnChain(
                    uid: user.uid, email: user.email, key: key, session: reading, settings: configuration.settings, fund: configuration.fund)
                return Self.setupAnswer(address: address, registered: setup.registered, json: setup.json)
            }
            let created = try await AccountFlow.createAccount(
                uid: user.uid, email: user.email, walletPassphrase: passphrase, key: imported ?? PrivateKey.random(), paths: paths,
                chain: reading, settings: configuration.settings, fund: configuration.fund, kdf: configuration.kdf)
            // The keystore's path is the server's business, not the page's.
            return Self.setupAnswer(address: created.address, registered: created.registered, json: created.json.filter { $0.0 != "keystore" })
        }
    }

    /// The text a wallet signs (`personal_sign`) to link its account to the signed-in user (the address in lowercase
    /// hex, as wallets report it, so the page writes the same text without an EIP-55 checksum).
    public static func walletLinkMessage(uid: String, email: String, address: Address, chainID: UInt64) -> String {
        "CarChain: link the account \(address.lowercasedHex) to the user \(email) (uid \(uid)) on chain \(chainID)."
    }

    private func linkWallet(_ user: LoggedInUser, _ wallet: JSONValue) async throws -> JSONValue {
        guard let addressText = wallet["address"]?.stringValue, let address = try? Address(addressText) else {
            throw AppAPIError.badRequest("wallet.address must be the wallet's account address.")
        }
        guard let signatureText = wallet["signature"]?.stringValue, let bytes = try? Hex.decode(signatureText), bytes.count == 65,
            let signature = try? Signature(rsv: bytes)
        else {
            throw AppAPIError.badRequest("wallet.signature must be the 65-byte personal_sign signature of the link message.")
        }
        let message = Self.walletLinkMessage(uid: user.uid, email: user.email, address: address, chainID: reading.chainID)
        guard PersonalMessage.verify(Array(message.utf8), signature: signature, address: address) else {
            throw AppAPIError(
                status: 403, code: "BAD_SIGNATURE", message: "The wallet's signature does not prove that it holds \(address.checksummed).")
        }
        return try await writes.run {
            let contract = try await self.contract()
            if let known = try await user.address(contract: contract), known != address {
                throw AppAPIError(
                    status: 409, code: "ALREADY_SET_UP", message: "You already have the account \(known.checksummed): it cannot be replaced.")
            }
            try paths.accounts.record(uid: user.uid, email: user.email, address: address)
            let registered = try await contract.isUserRegistered(user.uid)
            var json: [(String, JSONValue)] = []
            if !registered && serverSigns {
                let funding = try await AccountSetup.fundForRegistration(
                    address: address, session: reading, settings: configuration.settings, fund: configuration.fund)
                json = funding.json
            }
            return Self.setupAnswer(address: address, registered: registered, json: json)
        }
    }

    private static func setupAnswer(address: Address, registered: Bool, json: [(String, JSONValue)]) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("address", .string(address.checksummed)), ("registered", .bool(registered))]
        for (key, value) in json where !members.contains(where: { $0.key == key }) { members.append((key, value)) }
        return .object(members)
    }

    /// `POST /prepare {action, plate?, amount?}`: the transaction the page's signer is asked to sign, after the same
    /// role checks, contract checks and gas estimate as a write, with its quote. `transaction` has what an EIP-1193
    /// wallet's `eth_sendTransaction` takes (`from`, `to`, `data`, `gas`, `value`, `chainId`) and what a key needs to
    /// sign it completely: `nonce` (the node's pending count), `type` and the fees (`gasPrice`, or `maxFeePerGas` and
    /// `maxPriorityFeePerGas`), by the rules the server's own sender uses. The page signs (or has the wallet send) and
    /// follows it with `GET /transactions/HASH`.
    func prepare(_ user: LoggedInUser, _ body: JSONBody) async throws -> JSONValue {
        let action = try body.string("action")
        let fields = try Self.actionFields(body)
        let (operation, from) = try await operation(for: user, action: action, fields: { fields[$0] ?? nil })
        let prepared = try await CarChainTransactionRunner.prepare(operation, session: reading, from: from)
        let unsigned = try await TransactionSender.unsignedTransaction(
            TransactionRequest(to: prepared.to, data: prepared.data, gasLimit: prepared.gasLimit), from: from, client: reading.client,
            options: configuration.settings.sendOptions(chainID: reading.chainID))
        var transaction: [(key: String, value: JSONValue)] = [
            ("from", .string(prepared.from.checksummed)), ("to", .string(prepared.to.checksummed)),
            ("data", .string(Hex.encode(prepared.data))), ("gas", .string(Self.quantity(prepared.gasLimit))),
            ("value", .string("0x0")), ("chainId", .string(Self.quantity(prepared.chainID))),
            ("nonce", .string(Self.quantity(unsigned.nonce))), ("type", .string(Self.quantity(UInt64(unsigned.type.rawValue)))),
        ]
        if let gasPrice = unsigned.gasPrice {
            transaction.append(("gasPrice", .string(Self.quantity(gasPrice))))
        } else {
            transaction.append(("maxFeePerGas", .string(Self.quantity(unsigned.maxFeePerGas))))
            transaction.append(("maxPriorityFeePerGas", .string(Self.quantity(unsigned.maxPriorityFeePerGas))))
        }
        return .object([
            ("transaction", .object(transaction)),
            ("quote", AppJSON.quote(prepared, pricing: pricing(gasPrice: prepared.gasPrice))),
            ("confirmations", .number(String(max(configuration.settings.confirmations, 1)))),
        ])
    }

    /// `POST /transactions {raw}`: relays a transaction the browser signed (`eth_sendRawTransaction`) after checking it
    /// is what this app prepares: for this chain, to the CarChain contract, no ether, a CarChain function, and signed
    /// by the signed-in user's own account (recorded here or bound on chain). The server is no open relay.
    func relay(_ user: LoggedInUser, _ body: JSONBody) async throws -> JSONValue {
        let contract = try await self.contract()
        guard let text = try body.string("raw", maxBytes: 64 * 1024), let raw = try? Hex.decode(text), !raw.isEmpty else {
            throw AppAPIError.badRequest("\"raw\" must be a signed transaction in 0x-prefixed hex.")
        }
        let signed: SignedTransaction
        let sender: Address
        do {
            signed = try SignedTransaction.decode(raw)
            sender = try signed.sender()
        } catch {
            throw AppAPIError.badRequest("\"raw\" is not a signed transaction: \(error)")
        }
        guard signed.transaction.chainId == reading.chainID else {
            throw AppAPIError(
                status: 400, code: "WRONG_CHAIN",
                message: "The transaction is signed for chain \(signed.transaction.chainId.map(String.init) ?? "none"), not this app's chain \(reading.chainID): nothing was sent.")
        }
        guard signed.to == contract.address, signed.value == .zero,
            ContractCodeCheck.selectors.contains(Array(signed.data.prefix(4)))
        else {
            throw AppAPIError(status: 400, code: "NOT_CARCHAIN", message: "This server relays CarChain transactions only: nothing was sent.")
        }
        let known = try await user.address(contract: contract)
        guard known == sender || known == nil else {
            throw AppAPIError(
                status: 403, code: "NOT_YOUR_ACCOUNT",
                message: "The transaction is signed by \(sender.checksummed), not by your account \(known?.checksummed ?? ""): nothing was sent.")
        }
        guard known != nil else { throw LoggedInUser.KeyError.noAccount(email: user.email) }
        let hash: Bytes32
        do {
            hash = try await reading.client.sendRawTransaction(signed.encoded)
        } catch {
            if case .jsonRPC(_, let message, _, _) = error {
                throw AppAPIError(status: 409, code: "REFUSED_BY_NODE", message: "The node refused the transaction: \(message)")
            }
            throw error
        }
        return .object([("transactionHash", .string(hash.hexString))])
    }

    /// A JSON-RPC quantity (`0x5208`).
    static func quantity(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// A JSON-RPC quantity of a 256-bit value.
    static func quantity(_ value: UInt256) -> String { value.hexString }
}
