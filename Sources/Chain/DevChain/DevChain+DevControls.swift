import EVM
import EthereumPrimitives

extension DevChain {
    // MARK: State overrides (anvil_set*): applied to the live state, no block is mined

    /// Sets an account's balance.
    public func setBalance(_ address: Address, _ value: UInt256) {
        let current = working.balance(of: address)
        if value > current {
            working.addBalance(address, value - current)
        } else if value < current {
            working.subtractBalance(address, current - value)
        } else {
            working.touch(address)
        }
        finishDevChange()
    }

    /// Replaces an account's code.
    public func setCode(_ address: Address, _ code: [UInt8]) {
        working.setCode(address, code)
        finishDevChange()
    }

    /// Sets an account's nonce (pool transactions below it are dropped at the next block).
    public func setNonce(_ address: Address, _ nonce: UInt64) {
        working.setNonce(address, nonce)
        finishDevChange()
    }

    /// Writes a storage slot.
    public func setStorage(_ address: Address, slot: UInt256, value: UInt256) {
        working.setStorage(address, slot, value)
        finishDevChange()
    }

    /// Ends a dev change like a transaction (recording it for the next block) but without EIP-161's
    /// removal of empty accounts, so storage set on an empty account stays.
    private func finishDevChange() {
        working.finalize(rules: ForkRules(.homestead))
    }

    // MARK: Time

    /// Moves time forward by `seconds` for the next blocks; returns the total added so far.
    @discardableResult
    public func increaseTime(_ seconds: UInt64) -> UInt64 {
        timeOffset += seconds
        if case .fixedStep = config.clock { pendingTimeJump += seconds }
        return timeOffset
    }

    /// Fixes the next block's timestamp (it must be after the head's).
    public func setNextBlockTimestamp(_ timestamp: UInt64) throws(ChainError) {
        guard timestamp > head.timestamp else { throw .timestampTooLow(requested: timestamp, head: head.timestamp) }
        nextTimestamp = timestamp
        if let now = config.clock.now(), timestamp > now { timeOffset = timestamp - now }
    }

    // MARK: Snapshots (evm_snapshot / evm_revert)

    /// Records the chain as it is (head, state, pool, time); returns the snapshot's id.
    public func snapshot() -> UInt64 {
        let id = nextSnapshotID
        nextSnapshotID += 1
        snapshots[id] = Snapshot(
            headNumber: head.number, working: working, committed: committed, pool: pool, timeOffset: timeOffset,
            pendingTimeJump: pendingTimeJump, nextTimestamp: nextTimestamp)
        return id
    }

    /// Returns to snapshot `id`: later blocks are removed (from the database too), the state, pool
    /// and time are restored, and this and later snapshots are forgotten. False for an unknown id.
    @discardableResult
    public func revert(to id: UInt64) throws(ChainError) -> Bool {
        guard let snapshot = snapshots[id] else { return false }
        if snapshot.headNumber < head.number {
            try store.rewind(to: snapshot.headNumber)
            guard let header = try store.header(number: snapshot.headNumber) else {
                throw .storage("block \(snapshot.headNumber) missing after rewind")
            }
            for n in (snapshot.headNumber + 1)...head.number {
                numbersByHash[hashes[Int(n)]] = nil
                blockCache[n] = nil
                diffCache[n] = nil
            }
            hashes.removeLast(Int(head.number - snapshot.headNumber))
            head = header
            headHash = hashes[hashes.count - 1]
        }
        working = snapshot.working
        committed = snapshot.committed
        pool = snapshot.pool
        timeOffset = snapshot.timeOffset
        pendingTimeJump = snapshot.pendingTimeJump
        nextTimestamp = snapshot.nextTimestamp
        snapshots = snapshots.filter { $0.key < id }
        return true
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
