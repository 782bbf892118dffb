import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// One case of `carchain evm batch`: a pre-state, a block, and a legacy transaction from a known sender, read
/// from one JSON line with the project's strict parser (numbers stay exact: no trip through `Double`).
struct BatchCase {
    var id: JSONValue?
    var fork: String?
    var caller: String
    var to: String?
    var value: BatchNumber?
    var data: String?
    var gas: BatchNumber
    var gasPrice: BatchNumber?
    var nonce: BatchNumber?
    var block: Block?
    var accounts: [(key: String, value: AccountState)]?

    struct Block {
        var number: BatchNumber?
        var timestamp: BatchNumber?
        var coinbase: String?
        var gasLimit: BatchNumber?
        var difficulty: BatchNumber?
        var prevRandao: String?
        var baseFee: BatchNumber?
    }

    struct AccountState {
        var balance: BatchNumber?
        var nonce: BatchNumber?
        var code: String?
        var storage: [(key: String, value: BatchNumber)]?
    }

    /// Reads a case from its JSON object; a missing or mistyped field is an error naming it.
    init(json: JSONValue) throws(CLIError) {
        guard json.objectValue != nil else { throw CLIError("a case is a JSON object") }
        id = json["id"]
        fork = try Self.string(json, "fork")
        guard let caller = try Self.string(json, "caller") else { throw CLIError("missing caller") }
        self.caller = caller
        to = try Self.string(json, "to")
        value = try BatchNumber(json["value"], "value")
        data = try Self.string(json, "data")
        guard let gas = try BatchNumber(json["gas"], "gas") else { throw CLIError("missing gas") }
        self.gas = gas
        gasPrice = try BatchNumber(json["gasPrice"], "gasPrice")
        nonce = try BatchNumber(json["nonce"], "nonce")
        if let object = json["block"], !object.isNull {
            guard object.objectValue != nil else { throw CLIError("block: not an object") }
            block = Block(
                number: try BatchNumber(object["number"], "block.number"),
                timestamp: try BatchNumber(object["timestamp"], "block.timestamp"),
                coinbase: try Self.string(object, "coinbase"),
                gasLimit: try BatchNumber(object["gasLimit"], "block.gasLimit"),
                difficulty: try BatchNumber(object["difficulty"], "block.difficulty"),
                prevRandao: try Self.string(object, "prevRandao"),
                baseFee: try BatchNumber(object["baseFee"], "block.baseFee"))
        }
        if let object = json["accounts"], !object.isNull {
            guard let members = object.objectValue else { throw CLIError("accounts: not an object") }
            accounts = try members.map { (member) throws(CLIError) -> (key: String, value: AccountState) in
                let account = member.value
                guard account.objectValue != nil else { throw CLIError("accounts.\(member.key): not an object") }
                var storage: [(key: String, value: BatchNumber)]?
                if let slots = account["storage"], !slots.isNull {
                    guard let entries = slots.objectValue else { throw CLIError("accounts.\(member.key).storage: not an object") }
                    storage = try entries.map { (entry) throws(CLIError) -> (key: String, value: BatchNumber) in
                        guard let value = try BatchNumber(entry.value, "storage value") else {
                            throw CLIError("accounts.\(member.key).storage.\(entry.key): null")
                        }
                        return (entry.key, value)
                    }
                }
                return (member.key, AccountState(
                    balance: try BatchNumber(account["balance"], "balance"), nonce: try BatchNumber(account["nonce"], "nonce"),
                    code: try Self.string(account, "code"), storage: storage))
            }
        }
    }

    private static func string(_ object: JSONValue, _ key: String) throws(CLIError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw CLIError("\(key): not a string") }
        return text
    }

    /// BLOCKHASH: keccak256 of the block number in decimal, as geth's and revm's test databases answer.
    static let blockHash: @Sendable (UInt64) -> Bytes32 = { Keccak256.hash(String($0)) }

    /// Runs the case; a malformed field is a `CLIError` naming the line, a transaction the rules refuse is an
    /// `invalid` result.
    func execute(buffers: ExecutionBuffers, line: Int) throws -> BatchResult {
        func field<T>(_ name: String, _ body: () throws -> T) throws -> T {
            do { return try body() } catch { throw CLIError("line \(line): \(name): \(error)") }
        }
        let fork = try field("fork") { try EVMCommand.fork(self.fork ?? "Cancun") }
        let sender = try field("caller") { try Address(caller) }
        let recipient = try field("to") { try to.map { try Address($0) } }
        var state = WorldState()
        for (key, account) in accounts ?? [] {
            let address = try field("accounts") { try Address(key) }
            var storage: [UInt256: UInt256] = [:]
            for (slot, value) in account.storage ?? [] {
                storage[try field("storage key") { try UInt256(parsing: slot) }] = value.value
            }
            state[address] = Account(
                nonce: try field("nonce") { try account.nonce?.uint64("nonce") ?? 0 },
                balance: account.balance?.value ?? .zero,
                code: try field("code") { try Hex.decode(account.code ?? "") }, storage: storage)
        }
        let gasLimit = try field("gas") { try gas.uint64("gas") }
        let transaction = Transaction.legacy(
            LegacyTransaction(
                nonce: try field("nonce") { try nonce?.uint64("nonce") ?? state[sender]?.nonce ?? 0 },
                gasPrice: gasPrice?.value ?? .zero, gasLimit: gasLimit, to: recipient, value: value?.value ?? .zero,
                data: try field("data") { try Hex.decode(data ?? "") }, chainId: nil))
        let block = try field("block") {
            BlockEnvironment(
                coinbase: try self.block?.coinbase.map { try Address($0) } ?? .zero,
                number: try self.block?.number?.uint64("number") ?? 1,
                timestamp: try self.block?.timestamp?.uint64("timestamp") ?? 1,
                gasLimit: try self.block?.gasLimit?.uint64("gasLimit") ?? 30_000_000,
                difficulty: self.block?.difficulty?.value ?? .zero,
                prevRandao: try self.block?.prevRandao.map { try Bytes32(hex: $0) } ?? .zero,
                baseFee: self.block?.baseFee?.value ?? .zero)
        }
        var result = BatchResult(id: id)
        do {
            let outcome = try TransactionExecutor.execute(
                ExecutableTransaction(transaction, sender: sender), state: &state, block: block, fork: fork,
                blockHashes: Self.blockHash, buffers: buffers)
            switch outcome.status {
            case .stop, .returned, .selfDestructed: result.status = "success"
            case .reverted: result.status = "revert"
            default: result.status = "halt"
            }
            result.reason = outcome.unsupportedReason.map { "unsupported: \($0)" } ?? "\(outcome.status)"
            result.output = Hex.encode(outcome.output)
            result.gasUsed = outcome.gasUsed
            result.gasRefunded = outcome.gasRefunded
            result.logs = outcome.logs.map {
                BatchResult.LogEntry(address: $0.address.lowercasedHex, topics: $0.topics.map(\.hexString), data: Hex.encode($0.data))
            }
        } catch {
            result.status = "invalid"
            result.reason = "\(error)"
        }
        for (address, account) in state.accounts {
            result.accounts[address.lowercasedHex] = BatchResult.AccountOut(
                balance: account.balance.hexString, nonce: account.nonce, code: Hex.encode(account.code),
                storage: Dictionary(
                    uniqueKeysWithValues: account.storage.map { ($0.key.hexString, $0.value.hexString) }))
        }
        return result
    }
}

/// What `carchain evm batch` prints per case.
struct BatchResult {
    var id: JSONValue?
    var status = ""
    var reason = ""
    var output = "0x"
    var gasUsed: UInt64 = 0
    var gasRefunded: UInt64 = 0
    var logs: [LogEntry] = []
    var accounts: [String: AccountOut] = [:]

    struct LogEntry {
        var address: String
        var topics: [String]
        var data: String
    }

    struct AccountOut {
        var balance: String
        var nonce: UInt64
        var code: String
        var storage: [String: String]
    }

    /// The result as one JSON object, keys sorted so equal results print equal lines.
    var json: JSONValue {
        func sorted(_ entries: [String: JSONValue]) -> JSONValue {
            .object(entries.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        }
        let accountObjects = accounts.mapValues { account -> JSONValue in
            sorted([
                "balance": .string(account.balance), "code": .string(account.code), "nonce": .number(String(account.nonce)),
                "storage": sorted(account.storage.mapValues { .string($0) }),
            ])
        }
        return sorted([
            "accounts": sorted(accountObjects), "gasRefunded": .number(String(gasRefunded)),
            "gasUsed": .number(String(gasUsed)), "id": id ?? .null,
            "logs": .array(logs.map { sorted(["address": .string($0.address), "data": .string($0.data), "topics": .array($0.topics.map { .string($0) })]) }),
            "output": .string(output), "reason": .string(reason), "status": .string(status),
        ])
    }
}

/// A number in a batch case: a JSON integer or a decimal or 0x-hex string, up to 256 bits.
struct BatchNumber {
    var value: UInt256

    /// Reads `json` (nil or null: no value); anything else than a 256-bit unsigned integer is an error naming `name`.
    init?(_ json: JSONValue?, _ name: String) throws(CLIError) {
        guard let json, !json.isNull else { return nil }
        let text: String
        switch json {
        case .number(let literal): text = literal
        case .string(let string): text = string
        default: throw CLIError("\(name): not a number")
        }
        do { value = try UInt256(parsing: text) } catch { throw CLIError("\(name): \(text) is not a 256-bit number") }
    }

    /// The value as a 64-bit field, or an error naming it.
    func uint64(_ name: String) throws -> UInt64 {
        guard value.fitsInUInt64 else { throw CLIError("\(name) \(value) does not fit in 64 bits") }
        return value.low64
    }
}
