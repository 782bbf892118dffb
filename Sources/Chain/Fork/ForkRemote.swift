import EthereumPrimitives
import EthereumTransactions

/// Where a forked chain reads the state it has not written itself: a node of another chain, at one block
/// (the fork block). `Chain` knows no protocol, so this is the seam: the JSON-RPC implementation lives above
/// (EthereumContractsLocal's `RemoteForkSource`, which the node, the CLI and EthereumTesting's forked `TestChain`
/// share); tests may answer from memory.
///
/// Every method is a read. A source never sends anything that changes the remote's state.
public protocol ForkRemote: Sendable {
    /// The remote's address, for messages (never holding a secret: the CLI strips credentials).
    var endpoint: String { get }

    /// The accounts (nonce, balance, code), storage slots and block hashes named, all at the fork block for
    /// state, in as few round trips as the remote allows. An account the remote reports as empty (no nonce,
    /// balance or code) is answered as absent (nil), as EIP-161 treats it.
    func fetch(_ request: ForkFetchRequest) async throws(ForkError) -> ForkFetchResult

    /// The accounts and slots a call touches, as the remote computes them at the fork block
    /// (`eth_createAccessList`): a hint for one batched prefetch; nil when the remote cannot say.
    func accessList(for call: CallRequest) async throws(ForkError) -> [AccessListEntry]?

    /// Sends a read the chain does not answer itself (a block before the fork block) and returns its result.
    func forward(method: String, params: [JSONValue]) async throws(ForkError) -> JSONValue

    /// A new fork with the same settings (cache directory, time limits, the chain id the remote must have) of the
    /// node at `url` (nil: this remote's) at `blockNumber` (nil: its latest): `anvil_reset`'s forking parameters.
    func reopen(url: String?, blockNumber: UInt64?) async throws(ForkError) -> ForkCache
}

extension ForkCache {
    /// What to fetch with a call's first misses: its sender and recipient, and every account and slot of the access
    /// list the remote computes for it at the fork block (none when the remote cannot say). Fees and nonce are left
    /// out of the probe, so a sender without funds on the remote still gets its list. A remote that cannot be reached
    /// is reported at once (the fetch would fail the same way, after the same retries). The node's request loop and
    /// the in-process one (EthereumContractsLocal's `ForkCache.untilFetched`) both send it.
    public func accessListHint(for call: CallRequest) async throws(ForkError) -> ForkFetchRequest {
        var hint = ForkFetchRequest(accounts: [call.from, call.to].compactMap { $0 })
        var probe = call
        probe.gasPrice = nil
        probe.maxFeePerGas = nil
        probe.maxPriorityFeePerGas = nil
        probe.nonce = nil
        let entries: [AccessListEntry]?
        do { entries = try await remote.accessList(for: probe) } catch {
            if case .unreachable = error { throw error }
            entries = nil
        }
        for entry in entries ?? [] {
            hint.accounts.append(entry.address)
            for key in entry.storageKeys { hint.slots.append(StorageSlot(address: entry.address, key: UInt256(truncatingBigEndian: key.bytes))) }
        }
        return hint
    }
}

/// What one fetch asks for.
public struct ForkFetchRequest: Sendable, Equatable {
    public var accounts: [Address]
    public var slots: [StorageSlot]
    public var blockHashes: [UInt64]

    public init(accounts: [Address] = [], slots: [StorageSlot] = [], blockHashes: [UInt64] = []) {
        self.accounts = accounts
        self.slots = slots
        self.blockHashes = blockHashes
    }

    /// Nothing to fetch.
    public var isEmpty: Bool { accounts.isEmpty && slots.isEmpty && blockHashes.isEmpty }
}

/// What a fetch returned: every item asked for.
public struct ForkFetchResult: Sendable, Equatable {
    /// nil for an account that does not exist at the fork block.
    public var accounts: [Address: RemoteAccount?]
    public var slots: [StorageSlot: UInt256]
    public var blockHashes: [UInt64: Bytes32]

    public init(accounts: [Address: RemoteAccount?] = [:], slots: [StorageSlot: UInt256] = [:], blockHashes: [UInt64: Bytes32] = [:]) {
        self.accounts = accounts
        self.slots = slots
        self.blockHashes = blockHashes
    }
}

/// An account's fields at the fork block (its storage is read slot by slot).
public struct RemoteAccount: Sendable, Equatable {
    public var nonce: UInt64
    public var balance: UInt256
    public var code: [UInt8]

    public init(nonce: UInt64, balance: UInt256, code: [UInt8]) {
        self.nonce = nonce
        self.balance = balance
        self.code = code
    }
}

/// The block a chain forks from, as the remote reported it.
public struct ForkPoint: Sendable, Equatable {
    /// The remote's chain id (the forked chain keeps it).
    public var chainId: UInt64
    /// The fork block's header; its hash is the parent of the first local block.
    public var header: BlockHeader
    /// The hash the remote reported for the fork block (checked against the decoded header's).
    public var hash: Bytes32

    public init(chainId: UInt64, header: BlockHeader, hash: Bytes32) {
        self.chainId = chainId
        self.header = header
        self.hash = hash
    }

    /// The fork block's number.
    public var number: UInt64 { header.number }

    /// The latest fork, at most `latest`, whose header fields the fork block has: a block with a requests hash
    /// (EIP-7685) is Prague or later, blob gas fields Cancun, a withdrawals root Shanghai, zero difficulty with a base
    /// fee Paris, a base fee London; anything earlier runs Byzantium, the first fork a dev chain mines. Local blocks
    /// then carry the same header fields as the remote's, and a block from before a fork is not run under its rules.
    public func impliedHardfork(atMost latest: Hardfork) -> Hardfork {
        let implied: Hardfork
        if header.requestsHash != nil {
            implied = latest
        } else if header.excessBlobGas != nil {
            implied = .cancun
        } else if header.withdrawalsRoot != nil {
            implied = .shanghai
        } else if header.baseFeePerGas != nil {
            implied = header.difficulty.isZero ? .paris : .london
        } else {
            implied = .byzantium
        }
        return min(implied, latest)
    }
}

/// Why a forked chain could not read the remote. Each case says what to do about it.
public enum ForkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The remote could not be reached, or gave up (after retries): connection refused, timeout, HTTP error.
    case unreachable(endpoint: String, reason: String)
    /// The remote answered with an error (a method it does not serve, state it no longer holds).
    case refused(method: String, reason: String)
    /// The remote's answer could not be read.
    case malformed(method: String, reason: String)
    /// The remote is another chain than the one asked for.
    case wrongChain(expected: UInt64, remote: UInt64)
    /// The remote has no such block (or no state for it).
    case blockNotAvailable(String)
    /// The fork's local cache file could not be used.
    case cache(String)
    /// A block needed state not read yet; nothing was mined (the node fetches it and runs the request again).
    case notFetched
    /// The fork block's fields do not hash to the hash the remote reported, and headers must be verified
    /// (`--fork-verify-headers`).
    case unverifiedHeader(block: UInt64, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let endpoint, let reason): return "fork remote \(endpoint) unreachable: \(reason)"
        case .refused(let method, let reason): return "fork remote refused \(method): \(reason)"
        case .malformed(let method, let reason): return "fork remote answered \(method) with something unreadable: \(reason)"
        case .wrongChain(let expected, let remote):
            return "fork remote is chain \(remote), not the expected chain \(expected)"
        case .blockNotAvailable(let what): return "fork block not available: \(what)"
        case .cache(let why): return "fork cache: \(why)"
        case .notFetched: return "state not yet read from the fork remote; nothing was mined, try again"
        case .unverifiedHeader(let block, let reason):
            return "fork block \(block) could not be verified: \(reason) (without --fork-verify-headers the fork goes on with the reported hash)"
        }
    }
}
