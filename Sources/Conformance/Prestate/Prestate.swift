import Chain
import EVM
import EthereumPrimitives

/// Accounts written as JSON in the shape of a state test's `pre` section (also geth's `evm --prestate`
/// alloc and revm's benchmark inputs): an object keyed by address whose members hold `code`, `nonce`,
/// `balance` and `storage` (hex, or decimal quantities; every member optional).
///
/// ```json
/// { "0x49206861766520746f6f206d7563682074696d65":
///     { "code": "0x6080…", "nonce": "0x1", "balance": "0x0", "storage": { "0x00": "0xf529…" } } }
/// ```
///
/// One parser for every reader: the state-test runner, `carchain evm run --prestate` and the EVM
/// benchmarks.
public enum Prestate {
    /// Parses the accounts of a `pre` object.
    public static func accounts(from json: JSONValue) throws(PrestateError) -> WorldState {
        guard let members = json.objectValue else { throw PrestateError("the prestate is not a JSON object") }
        var accounts: [Address: Account] = [:]
        for (key, account) in members {
            do throws(StateTestFormatError) {
                let address = try Field.parseAddress(key, "account")
                guard account.objectValue != nil else { throw StateTestFormatError("account \(key) is not an object") }
                var storage: [UInt256: UInt256] = [:]
                for (slot, value) in account["storage"]?.objectValue ?? [] {
                    storage[try Field.parseUInt256(slot, "storage key of \(key)")] = try Field.parseUInt256(
                        value.stringValue ?? "", "storage value of \(key)")
                }
                accounts[address] = Account(
                    nonce: try Field.uint64(account, "nonce") ?? 0,
                    balance: try Field.uint256(account, "balance") ?? .zero,
                    code: try Field.bytes(account, "code"),
                    storage: storage)
            } catch {
                throw PrestateError(error.description)
            }
        }
        return WorldState(accounts: accounts)
    }
}

/// A prestate file: either a bare `pre` object, or an object with a `pre` member and optionally the
/// call to make on it (`to`, `input`, `gas`), as `../shared/bench/burntpix.json` is written.
public struct PrestateFile: Sendable {
    /// The accounts.
    public var state: WorldState
    /// The account to call, when the file names one.
    public var to: Address?
    /// The call data, when the file gives it.
    public var input: [UInt8]?
    /// The gas limit, when the file gives it.
    public var gas: UInt64?

    /// Parses the file's bytes.
    public init(json bytes: [UInt8]) throws(PrestateError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw PrestateError("not valid JSON: \(error.description)") }
        guard root.objectValue != nil else { throw PrestateError("the top level is not a JSON object") }
        guard let pre = root["pre"] else {
            state = try Prestate.accounts(from: root)
            return
        }
        state = try Prestate.accounts(from: pre)
        do throws(StateTestFormatError) {
            if let text = root["to"]?.stringValue { to = try Field.parseAddress(text, "to") }
            if let text = root["input"]?.stringValue { input = try Field.parseBytes(text, "input") }
            if let text = root["gas"]?.stringValue {
                guard let value = Field.lenientUInt256(text)?.uint64 else {
                    throw StateTestFormatError("gas \(text) is not a 64-bit quantity")
                }
                gas = value
            }
        } catch {
            throw PrestateError(error.description)
        }
    }
}

/// A malformed prestate.
public struct PrestateError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and where.
    public let description: String
    init(_ description: String) { self.description = description }
}
