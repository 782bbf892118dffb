import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// One case of `carchain evm batch`: a pre-state, a block, and a legacy transaction from a known sender.
struct BatchCase: Decodable {
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
    var accounts: [String: AccountState]?

    struct Block: Decodable {
        var number: BatchNumber?
        var timestamp: BatchNumber?
        var coinbase: String?
        var gasLimit: BatchNumber?
        var difficulty: BatchNumber?
        var prevRandao: String?
        var baseFee: BatchNumber?
    }

    struct AccountState: Codable {
        var balance: BatchNumber?
        var nonce: BatchNumber?
        var code: String?
        var storage: [String: BatchNumber]?
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
        for (key, account) in accounts ?? [:] {
            let address = try field("accounts") { try Address(key) }
            var storage: [UInt256: UInt256] = [:]
            for (slot, value) in account.storage ?? [:] {
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
struct BatchResult: Encodable {
    var id: JSONValue?
    var status = ""
    var reason = ""
    var output = "0x"
    var gasUsed: UInt64 = 0
    var gasRefunded: UInt64 = 0
    var logs: [LogEntry] = []
    var accounts: [String: AccountOut] = [:]

    struct LogEntry: Encodable {
        var address: String
        var topics: [String]
        var data: String
    }

    struct AccountOut: Encodable {
        var balance: String
        var nonce: UInt64
        var code: String
        var storage: [String: String]
    }
}

/// A number in a batch case: a JSON integer or a decimal or 0x-hex string, up to 256 bits.
struct BatchNumber: Codable {
    var value: UInt256

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let n = try? container.decode(UInt64.self) {
            value = UInt256(n)
            return
        }
        let text = try container.decode(String.self)
        do { value = try UInt256(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not a 256-bit number"))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.hexString)
    }

    /// The value as a 64-bit field, or an error naming it.
    func uint64(_ name: String) throws -> UInt64 {
        guard value.fitsInUInt64 else { throw CLIError("\(name) \(value) does not fit in 64 bits") }
        return value.low64
    }
}
