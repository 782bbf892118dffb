import EthereumPrimitives
import Foundation
import Synchronization

/// Everything a forked chain has read from its remote, shared by every copy of the forked state (snapshots,
/// calls on copies, earlier blocks' states), and what it still lacks.
///
/// The EVM's host is synchronous and must never wait on the network (a blocked thread of the cooperative pool
/// can starve the very task that would answer it). So a read the cache cannot answer is not fetched there:
/// it is recorded as missing and answered with the empty value, and the chain runs the operation again once
/// ``fetchMissing()`` has fetched everything missing in one batch (see `DevChain+Fork.swift`). A run that saw
/// no miss read only fetched values, so its result is the true one.
///
/// Thread-safe (one lock); reads of cached values cost a lock and a dictionary lookup, and only on a forked
/// chain: a dev chain's state never reaches here.
public final class ForkCache: @unchecked Sendable {
    /// The chain forked from.
    public let point: ForkPoint
    /// The remote.
    public let remote: any ForkRemote
    /// Where fetched values are kept across restarts (nil: memory only, `--no-fork-cache`).
    public let file: ForkCacheFile?

    private let lock = NSLock()
    /// Fetched accounts: `.some(nil)` is an account known not to exist at the fork block.
    private var accounts: [Address: Account?] = [:]
    private var slots: [StorageSlot: UInt256] = [:]
    private var hashes: [UInt64: Bytes32] = [:]
    private var missingAccounts: Set<Address> = []
    private var missingSlots: Set<StorageSlot> = []
    private var missingHashes: Set<UInt64> = []
    /// Counts every read that found nothing, since creation: an operation compares it before and after it ran. Every
    /// miss counts, not only the first of an item: a run that reads an item another run already found missing (and
    /// that is still being fetched, or whose fetch failed) got the empty value too.
    private var missCount: UInt64 = 0
    /// Fetches sent to the remote (each one batched request, or a few when it is large).
    private var fetchCount: UInt64 = 0

    /// The most items one fetch asks for; more are split over several.
    public static let maxItemsPerFetch = 1_000

    /// A cache over `remote` at `point`, keeping what it fetches in `file` when given (loading what the file
    /// already holds).
    public init(point: ForkPoint, remote: any ForkRemote, file: ForkCacheFile? = nil) {
        self.point = point
        self.remote = remote
        self.file = file
        if let file {
            let loaded = file.loaded
            for (address, account) in loaded.accounts { accounts[address] = account.map(Self.account) }
            slots = loaded.slots
            hashes = loaded.blockHashes
        }
    }

    static func account(_ remote: RemoteAccount) -> Account {
        Account(nonce: remote.nonce, balance: remote.balance, code: remote.code)
    }

    // MARK: Synchronous reads (the EVM host's)

    /// The account at the fork block; nil when it does not exist or is not fetched yet (then recorded missing).
    func account(_ address: Address) -> Account? {
        lock.lock()
        defer { lock.unlock() }
        if let known = accounts[address] { return known }
        missingAccounts.insert(address)
        missCount &+= 1
        Self.missCounter?.add()
        return nil
    }

    /// A storage slot at the fork block; zero when not fetched yet (then recorded missing). A slot of an
    /// account known to have no code is zero without asking.
    func slot(_ address: Address, _ key: UInt256) -> UInt256 {
        let slot = StorageSlot(address: address, key: key)
        lock.lock()
        defer { lock.unlock() }
        if let value = slots[slot] { return value }
        switch accounts[address] {
        case .some(.none): return .zero
        case .some(.some(let account)) where account.code.isEmpty: return .zero
        case .none: missingAccounts.insert(address)
        default: break
        }
        missingSlots.insert(slot)
        missCount &+= 1
        Self.missCounter?.add()
        return .zero
    }

    /// The hash of block `number` (before the fork block's successor); zero when not fetched yet (recorded).
    func blockHash(_ number: UInt64) -> Bytes32 {
        if number == point.number { return point.hash }
        lock.lock()
        defer { lock.unlock() }
        if let hash = hashes[number] { return hash }
        missingHashes.insert(number)
        missCount &+= 1
        Self.missCounter?.add()
        return .zero
    }

    // MARK: Fetching

    /// The misses of the operation running in this task (the node sets one per request): unlike ``missed(since:)``,
    /// which counts every task's misses, it tells whether *this* request read something not fetched, so concurrent
    /// requests do not make each other run again.
    @TaskLocal public static var missCounter: ForkMissCounter?

    /// A mark to pass to ``missed(since:)``.
    public var missMark: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return missCount
    }

    /// True when a read since `mark` found something not fetched: what read it got an empty value, even if the value
    /// has been fetched since (by another request's fetch), so its result must not be used.
    public func missed(since mark: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return missCount != mark
    }

    /// How many fetches went to the remote since the chain started (a restart over a full cache file: none).
    public var remoteFetches: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return fetchCount
    }

    /// Fetches everything recorded missing, with what `hint` names that is not cached yet (the accounts and slots
    /// a call's access list names), in one batch; returns false when there was nothing to fetch.
    @discardableResult
    public func fetchMissing(with hint: ForkFetchRequest = ForkFetchRequest()) async throws(ForkError) -> Bool {
        let request: ForkFetchRequest = lock.withLock {
            var accountSet = missingAccounts
            var slotSet = missingSlots
            var hashSet = missingHashes
            for address in hint.accounts where accounts[address] == nil { accountSet.insert(address) }
            for slot in hint.slots where slots[slot] == nil { slotSet.insert(slot) }
            for number in hint.blockHashes where hashes[number] == nil && number != point.number { hashSet.insert(number) }
            return ForkFetchRequest(accounts: Array(accountSet), slots: Array(slotSet), blockHashes: Array(hashSet))
        }
        if request.isEmpty { return false }
        try await fetch(request)
        return true
    }

    /// Fetches what `request` names that is not cached yet (a prefetch from an access list, the dev accounts).
    public func prefetch(_ request: ForkFetchRequest) async throws(ForkError) {
        let needed: ForkFetchRequest = lock.withLock {
            ForkFetchRequest(
                accounts: request.accounts.filter { accounts[$0] == nil },
                slots: request.slots.filter { slots[$0] == nil },
                blockHashes: request.blockHashes.filter { hashes[$0] == nil && $0 != point.number })
        }
        if needed.isEmpty { return }
        try await fetch(needed)
    }

    /// Fetches in chunks of at most ``maxItemsPerFetch`` items, then stores and forgets them as missing.
    private func fetch(_ request: ForkFetchRequest) async throws(ForkError) {
        var chunks: [ForkFetchRequest] = []
        var chunk = ForkFetchRequest()
        func flushIfFull() {
            if chunk.accounts.count * 3 + chunk.slots.count + chunk.blockHashes.count >= Self.maxItemsPerFetch {
                chunks.append(chunk)
                chunk = ForkFetchRequest()
            }
        }
        for address in request.accounts {
            chunk.accounts.append(address)
            flushIfFull()
        }
        for slot in request.slots {
            chunk.slots.append(slot)
            flushIfFull()
        }
        for number in request.blockHashes {
            chunk.blockHashes.append(number)
            flushIfFull()
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        for part in chunks {
            lock.withLock { fetchCount &+= 1 }
            let result = try await remote.fetch(part)
            try file?.store(result)
            lock.withLock {
                for (address, account) in result.accounts {
                    accounts[address] = .some(account.map(Self.account))
                    missingAccounts.remove(address)
                }
                for (slot, value) in result.slots {
                    slots[slot] = value
                    missingSlots.remove(slot)
                }
                for (number, hash) in result.blockHashes {
                    hashes[number] = hash
                    missingHashes.remove(number)
                }
            }
        }
    }
}

/// Counts the reads one operation made of state not fetched yet (``ForkCache/missCounter``).
public final class ForkMissCounter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// Reads that found nothing so far.
    public var misses: Int { count.load(ordering: .relaxed) }

    func add() { count.wrappingAdd(1, ordering: .relaxed) }
}
