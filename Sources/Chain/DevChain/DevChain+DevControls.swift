import EVM
import EthereumPrimitives

extension DevChain {
    // MARK: State overrides (anvil_set*): applied to the live state, no block is mined

    /// Sets an account's balance.
    public func setBalance(_ address: Address, _ value: UInt256) throws(ChainError) {
        working.setBalance(address, value)
        finishDevChange()
        try journalDevChange(accounts: [address])
    }

    /// Adds to an account's balance (`anvil_addBalance`); as anvil, a sum past 2^256 − 1 stays at 2^256 − 1.
    public func addBalance(_ address: Address, _ amount: UInt256) throws(ChainError) {
        let (sum, overflow) = working.balance(of: address).addingReportingOverflow(amount)
        try setBalance(address, overflow ? .max : sum)
    }

    /// Replaces an account's code.
    public func setCode(_ address: Address, _ code: [UInt8]) throws(ChainError) {
        working.setCode(address, code)
        finishDevChange()
        try journalDevChange(accounts: [address])
    }

    /// Sets an account's nonce (pool transactions below it are dropped at the next block).
    public func setNonce(_ address: Address, _ nonce: UInt64) throws(ChainError) {
        working.setNonce(address, nonce)
        finishDevChange()
        try journalDevChange(accounts: [address])
    }

    /// Writes a storage slot.
    public func setStorage(_ address: Address, slot: UInt256, value: UInt256) throws(ChainError) {
        working.setStorage(address, slot, value)
        finishDevChange()
        try journalDevChange(accounts: [address], slots: [StorageSlot(address: address, key: slot)])
    }

    /// Ends a dev change like a transaction (recording it for the next block) but without EIP-161's
    /// removal of empty accounts, so storage set on an empty account stays.
    func finishDevChange() {
        working.finalize(rules: ForkRules(.homestead))
    }

    // MARK: Time

    /// The largest block timestamp the chain accepts: 2^63 − 1 (about 292 billion years from 1970). The
    /// header encodes any 64-bit value, but a timestamp above this no longer fits a signed 64-bit integer
    /// (SQLite's, and the Unix time of most clients and libraries: anvil converts timestamps to i64), and
    /// the headroom up to 2^64 − 1 keeps every later `parent + 1` and `+ step` computable.
    public static let maxTimestamp = UInt64(Int64.max)

    /// Moves time forward by `seconds` for the next blocks; returns the clock's offset now (the seconds added so far,
    /// less any an `anvil_setTime` to an earlier time took away). Refused (-32602, nothing changed) when the next
    /// block's timestamp would pass ``maxTimestamp``.
    @discardableResult
    public func increaseTime(_ seconds: UInt64) throws(ChainError) -> Int64 {
        let tooFar = ChainError.invalidParams(
            "increasing time by \(seconds) seconds would put the next block past the largest timestamp \(Self.maxTimestamp) (2^63-1)")
        guard seconds <= Self.maxTimestamp else { throw tooFar }
        let (total, overflow) = timeOffset.addingReportingOverflow(Int64(seconds))
        guard !overflow else { throw tooFar }
        switch config.clock {
        case .fixedStep(let step):
            guard let jump = Self.timestampSum(pendingTimeJump, seconds), Self.timestampSum(head.timestamp, step, jump) != nil
            else { throw tooFar }
            pendingTimeJump = jump
        case .system, .custom:
            guard Self.shifted(config.clock.now() ?? 0, by: total) != nil else { throw tooFar }
        }
        timeOffset = total
        try journalSettings()
        return timeOffset
    }

    /// Fixes the next block's timestamp (after the head's, at most ``maxTimestamp``).
    public func setNextBlockTimestamp(_ timestamp: UInt64) throws(ChainError) {
        try Self.checkTimestamp(timestamp)
        guard timestamp > head.timestamp else { throw .timestampTooLow(requested: timestamp, head: head.timestamp) }
        nextTimestamp = timestamp
        // Both are at most 2^63 - 1, so the difference is an Int64.
        if let now = config.clock.now(), timestamp > now { timeOffset = Int64(timestamp - now) }
        try journalSettings()
    }

    /// Sets the clock to `timestamp` (`anvil_setTime` / `evm_setTime`): later blocks follow it as time passes. Unlike
    /// anvil, which then mines a block older than its parent when the time is earlier, a block is never before its
    /// parent + 1: an earlier time only holds blocks at parent + 1 until the clock passes the head. A pending
    /// `evm_setNextBlockTimestamp` or time increase is cleared. Returns, as anvil, the seconds from the time the next
    /// block would have had to `timestamp` (0 when it is not later).
    @discardableResult
    public func setTime(_ timestamp: UInt64) throws(ChainError) -> UInt64 {
        try Self.checkTimestamp(timestamp)
        let before = (try? peekTimestamp()) ?? head.timestamp
        switch config.clock {
        case .fixedStep:
            // No clock to shift: the next block gets the time (when after the head), later ones follow by the step.
            nextTimestamp = timestamp > head.timestamp ? timestamp : nil
        case .system, .custom:
            // Both are at most 2^63 - 1 (the clock's time is clamped), so the difference is an Int64.
            timeOffset = Int64(timestamp) - Int64(Swift.min(config.clock.now() ?? 0, Self.maxTimestamp))
            nextTimestamp = nil
        }
        pendingTimeJump = 0
        try journalSettings()
        return timestamp > before ? timestamp - before : 0
    }

    /// Refuses a requested timestamp above ``maxTimestamp``.
    static func checkTimestamp(_ timestamp: UInt64) throws(ChainError) {
        guard timestamp <= maxTimestamp else {
            throw .invalidParams("timestamp \(timestamp) is past the largest timestamp \(maxTimestamp) (2^63-1)")
        }
    }

    /// The sum of timestamps and second counts, nil when it passes ``maxTimestamp``.
    static func timestampSum(_ parts: UInt64...) -> UInt64? {
        var total: UInt64 = 0
        for part in parts {
            let (sum, overflow) = total.addingReportingOverflow(part)
            guard !overflow, sum <= maxTimestamp else { return nil }
            total = sum
        }
        return total
    }

    /// The clock's time `now` moved by `offset` seconds: at least 0, nil when it passes ``maxTimestamp``.
    static func shifted(_ now: UInt64, by offset: Int64) -> UInt64? {
        if offset >= 0 { return timestampSum(now, UInt64(offset)) }
        let back = offset.magnitude
        return now > back ? Swift.min(now - back, maxTimestamp) : 0
    }

    // MARK: Snapshots (evm_snapshot / evm_revert)

    /// Records the chain as it is (head, state, pool, time); returns the snapshot's id. At most
    /// ``ChainConfig/maxSnapshots`` are kept at once.
    public func snapshot() throws(ChainError) -> UInt64 {
        guard snapshots.count < config.maxSnapshots else { throw .tooManySnapshots(limit: config.maxSnapshots) }
        let id = nextSnapshotID
        nextSnapshotID += 1
        snapshots[id] = currentSnapshot()
        return id
    }

    /// The chain as it is now (copy-on-write values: holding one costs a copy of what changes later).
    func currentSnapshot() -> Snapshot {
        Snapshot(
            headNumber: head.number, working: working, committed: committed, pool: pool, timeOffset: timeOffset,
            pendingTimeJump: pendingTimeJump, nextTimestamp: nextTimestamp)
    }

    /// Returns to snapshot `id`: later blocks are removed (from the database too), the state, pool
    /// and time are restored, and this and later snapshots are forgotten. False for an unknown id.
    ///
    /// Blocks are removed in slices (DevChain+Slices.swift), other requests answered between them. The journal gets the
    /// snapshot's pending dev changes before any block is removed: a process killed part way restarts on a whole chain
    /// between the two heads, and one killed after the answer restarts on the snapshot's state.
    @discardableResult
    public func revert(to id: UInt64) async throws(ChainError) -> Bool {
        guard let snapshot = snapshots[id] else { return false }
        // This snapshot and every later one go first, so no other revert can aim at blocks being removed.
        snapshots = snapshots.filter { $0.key < id }
        guard snapshot.headNumber >= base, snapshot.headNumber <= head.number else { return false }
        guard let target = try blockHash(snapshot.headNumber) else { return false }
        try journal?.replace(with: pendingState(of: snapshot.working), head: target)
        try await rewindInSlices(to: snapshot.headNumber, landing: (snapshot, target))
        // A reset between the slices took the chain below the snapshot (or past it to other blocks): it is gone.
        guard head.number == snapshot.headNumber, headHash == target else { return false }
        try restore(snapshot)
        try journal?.prune(keeping: headHash)
        try journalSettings()
        return true
    }

    /// Puts the in-memory chain back to `snapshot`: blocks above its head are forgotten (the database must
    /// already end at that head), and the state, pool and time are the snapshot's.
    func restore(_ snapshot: Snapshot) throws(ChainError) {
        if snapshot.headNumber < head.number {
            guard let header = try store.header(number: snapshot.headNumber) else {
                throw .storage("block \(snapshot.headNumber) missing after rewind")
            }
            for n in (snapshot.headNumber + 1)...head.number {
                blockCache[n] = nil
                diffCache[n] = nil
            }
            if !hashes.removeAfter(snapshot.headNumber) {
                // Reverted past the hashes held: hold the ones before the new head again.
                let first = snapshot.headNumber >= UInt64(RecentBlockHashes.kept) ? snapshot.headNumber - UInt64(RecentBlockHashes.kept) + 1 : base
                hashes = RecentBlockHashes(first: Swift.max(first, base), hashes: try store.hashes(from: Swift.max(first, base)))
            }
            unwritten.forget(after: snapshot.headNumber)
            head = header
            headHash = header.hash
        }
        working = snapshot.working
        committed = snapshot.committed
        pool = snapshot.pool
        timeOffset = snapshot.timeOffset
        pendingTimeJump = snapshot.pendingTimeJump
        nextTimestamp = snapshot.nextTimestamp
    }

    // MARK: Events

    /// A stream of new blocks as they are mined (`eth_subscribe("newHeads")`); ends with ``close()``.
    public func newHeads() -> AsyncStream<Block> {
        let id = nextSubscriberID
        nextSubscriberID += 1
        let (stream, continuation) = AsyncStream<Block>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        headSubscribers[id] = continuation
        return stream
    }

    private func removeSubscriber(_ id: UInt64) { headSubscribers[id] = nil }

    /// A stream of transactions as the pool accepts them (`eth_subscribe("newPendingTransactions")`), before
    /// automine includes them; ends with ``close()``. Keeps the newest 1,024 when the reader falls behind.
    public func newPendingTransactions() -> AsyncStream<PendingTransaction> {
        let id = nextSubscriberID
        nextSubscriberID += 1
        let (stream, continuation) = AsyncStream<PendingTransaction>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removePendingSubscriber(id) }
        }
        pendingSubscribers[id] = continuation
        return stream
    }

    private func removePendingSubscriber(_ id: UInt64) { pendingSubscribers[id] = nil }

    /// Waits until the transaction is mined and returns its receipt (nil if the task is cancelled
    /// or the chain closed first).
    public func waitForTransaction(hash: Bytes32) async -> Receipt? {
        if let receipt = try? receipt(hash: hash) { return receipt }
        for await block in newHeads() where block.transactions.contains(where: { $0.hash == hash }) {
            return try? receipt(hash: hash)
        }
        return nil
    }
}
