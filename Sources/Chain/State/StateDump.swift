import EthereumPrimitives

/// A chain's world state as one compact, versioned blob: what `anvil_dumpState` returns (as hex), what
/// `anvil_loadState` takes, and what the node's `--dump-state` / `--load-state` files hold.
///
/// Layout (version 1):
///
///     "CCSD"  version(1 byte)  rlp([blockNumber, timestamp, [account, ...]])  keccak256(everything before)
///     account = [address(20 bytes), nonce, balance, code, [[slot, value], ...]]
///
/// Integers are RLP's canonical big-endian form; accounts are sorted by address and slots by key, so the same
/// state always gives the same bytes; zero-valued slots are left out. The trailing hash makes a truncated or
/// altered blob fail to load instead of loading part of a state. (anvil dumps gzip-compressed JSON with
/// its blocks and transactions too; this format carries only what reproduces the state root.)
public struct StateDump: Sendable, Equatable {
    /// The four bytes every dump starts with.
    public static let magic: [UInt8] = Array("CCSD".utf8)
    /// The format version this code writes and reads.
    public static let version: UInt8 = 1

    /// The head block's number when the dump was made.
    public var blockNumber: UInt64
    /// The head block's timestamp when the dump was made.
    public var timestamp: UInt64
    /// Every account.
    public var state: WorldState

    public init(blockNumber: UInt64, timestamp: UInt64, state: WorldState) {
        self.blockNumber = blockNumber
        self.timestamp = timestamp
        self.state = state
    }

    /// Why a blob is not a state dump this code can load.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case notADump
        case unsupportedVersion(UInt8)
        case checksumMismatch
        case malformed(String)

        public var description: String {
            switch self {
            case .notADump: return "not a carchain state dump (it does not start with \"CCSD\")"
            case .unsupportedVersion(let v): return "state dump version \(v) is not supported (this carchain reads version \(StateDump.version))"
            case .checksumMismatch: return "the state dump is corrupt: its checksum does not match its content"
            case .malformed(let why): return "the state dump is malformed: \(why)"
            }
        }
    }

    /// The blob.
    public var encoded: [UInt8] {
        var accounts: [RLPItem] = []
        for address in state.accounts.keys.sorted() {
            guard let account = state.accounts[address] else { continue }
            let slots = account.storage.filter { !$0.value.isZero }.sorted { $0.key < $1.key }.map {
                RLPItem.list([.bytes($0.key.minimalBigEndianBytes), .bytes($0.value.minimalBigEndianBytes)])
            }
            accounts.append(.list([
                .bytes(address.bytes), RLPItem(unsignedInteger: account.nonce), .bytes(account.balance.minimalBigEndianBytes),
                .bytes(account.code), .list(slots),
            ]))
        }
        let body = RLP.encode(.list([RLPItem(unsignedInteger: blockNumber), RLPItem(unsignedInteger: timestamp), .list(accounts)]))
        var out = Self.magic + [Self.version] + body
        out += Keccak256.hash(out).bytes
        return out
    }

    /// Decodes a blob, refusing anything that is not a complete version-1 dump.
    public init(encoded bytes: [UInt8]) throws(Error) {
        let header = Self.magic.count + 1
        guard bytes.count >= header, Array(bytes.prefix(Self.magic.count)) == Self.magic else { throw .notADump }
        guard bytes[Self.magic.count] == Self.version else { throw .unsupportedVersion(bytes[Self.magic.count]) }
        guard bytes.count >= header + 32 else { throw .checksumMismatch }
        let content = Array(bytes[..<(bytes.count - 32)])
        guard Keccak256.hash(content).bytes == Array(bytes.suffix(32)) else { throw .checksumMismatch }
        do {
            guard case .list(let top) = try RLP.decode(Array(content[header...])), top.count == 3,
                case .list(let accountItems) = top[2]
            else { throw Error.malformed("expected [blockNumber, timestamp, accounts]") }
            blockNumber = try UInt64(rlp: top[0])
            timestamp = try UInt64(rlp: top[1])
            var accounts: [Address: Account] = [:]
            for (i, item) in accountItems.enumerated() {
                guard case .list(let f) = item, f.count == 5, case .list(let slotItems) = f[4] else {
                    throw Error.malformed("account \(i) is not [address, nonce, balance, code, storage]")
                }
                let address = try Address(rlp: f[0])
                guard accounts[address] == nil else { throw Error.malformed("account \(address) appears twice") }
                var storage: [UInt256: UInt256] = [:]
                for slot in slotItems {
                    guard case .list(let kv) = slot, kv.count == 2 else { throw Error.malformed("a slot of \(address) is not [key, value]") }
                    let key = UInt256(truncatingBigEndian: try kv[0].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
                    storage[key] = UInt256(truncatingBigEndian: try kv[1].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
                }
                accounts[address] = Account(
                    nonce: try UInt64(rlp: f[1]),
                    balance: UInt256(truncatingBigEndian: try f[2].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256")),
                    code: try f[3].byteString(), storage: storage)
            }
            state = WorldState(accounts: accounts)
        } catch let error as Error {
            throw error
        } catch {
            throw .malformed("\(error)")
        }
    }
}
