import Chain
import EthereumContracts
import EthereumContractsLocal

/// Foundry's daily cheatcodes, on the chain's dev controls.
extension TestChain {
    // MARK: Senders

    /// Runs `body` with every call and transaction that names no sender coming from `sender` (forge's `prank`, for
    /// a whole body; `vm.prank` covers one call). Pranks nest: the previous sender comes back after.
    public func prank<T>(_ sender: Address, _ body: () async throws -> T) async rethrows -> T {
        let previous = state.withLock { state in
            defer { state.prank = Prank(sender: sender, scoped: true) }
            return state.prank
        }
        defer { state.withLock { $0.prank = previous } }
        return try await body()
    }

    /// Calls and transactions that name no sender come from `sender` until ``stopPrank()`` (forge's `startPrank`).
    public func startPrank(_ sender: Address) { state.withLock { $0.prank = Prank(sender: sender, scoped: false) } }

    /// Ends ``startPrank(_:)``: the first dev account sends again.
    public func stopPrank() { state.withLock { $0.prank = nil } }

    // MARK: Balances, code, nonces, storage

    /// Sets the ether balance of `address` (forge's `deal(address, uint256)`).
    public func deal(_ address: Address, _ wei: UInt256) async throws {
        try await chain.forkCache?.prefetching(accounts: [address])
        do throws(ChainError) { try await chain.setBalance(address, wei) } catch { throw DevChainBackendError.chain(error) }
    }

    /// The ether balance of `address`.
    public func balance(_ address: Address) async throws -> UInt256 {
        try await chain.untilForkFetched("balance", readOnly: true) {
            do throws(ChainError) { return try await chain.balance(address) } catch { throw DevChainBackendError.chain(error) }
        }
    }

    /// Replaces the code at `address` (forge's `etch`).
    public func setCode(_ address: Address, _ code: [UInt8]) async throws {
        try await chain.forkCache?.prefetching(accounts: [address])
        do throws(ChainError) { try await chain.setCode(address, code) } catch { throw DevChainBackendError.chain(error) }
    }

    /// Sets the nonce of `address`.
    public func setNonce(_ address: Address, _ nonce: UInt64) async throws {
        try await chain.forkCache?.prefetching(accounts: [address])
        do throws(ChainError) { try await chain.setNonce(address, nonce) } catch { throw DevChainBackendError.chain(error) }
    }

    /// Writes a storage slot (forge's `store`).
    public func store(_ address: Address, slot: UInt256, value: UInt256) async throws {
        try await chain.forkCache?.prefetching(accounts: [address], slots: [StorageSlot(address: address, key: slot)])
        do throws(ChainError) { try await chain.setStorage(address, slot: slot, value: value) } catch { throw DevChainBackendError.chain(error) }
    }

    /// Reads a storage slot (forge's `load`).
    public func load(_ address: Address, slot: UInt256) async throws -> UInt256 {
        try await chain.untilForkFetched("load", readOnly: true) {
            do throws(ChainError) { return try await chain.storage(address, slot: slot) } catch { throw DevChainBackendError.chain(error) }
        }
    }

    // MARK: Time and blocks

    /// The head block's timestamp (what calls see as `block.timestamp`).
    public func timestamp() async -> UInt64 { await chain.latestHeader().timestamp }

    /// The head block's number.
    public func blockNumber() async -> UInt64 { await chain.blockNumber() }

    /// Moves time to `timestamp` (forge's `warp`): an empty block is mined at exactly `timestamp`, so calls see it
    /// as `block.timestamp`; the next transaction's block comes one second later (one block per transaction).
    /// Time only moves forward: a timestamp at or before the head's is refused.
    public func warp(_ timestamp: UInt64) async throws {
        do throws(ChainError) { try await chain.setNextBlockTimestamp(timestamp) } catch { throw DevChainBackendError.chain(error) }
        // On a fork, a block whose system calls read state not fetched yet is abandoned and mined again once it is.
        try await chain.untilForkFetched("warp", readOnly: false) {
            do throws(ChainError) { _ = try await chain.mine(blocks: 1) } catch { throw DevChainBackendError.chain(error) }
        }
    }

    /// Moves time forward by `seconds` (forge's `skip`), as ``warp(_:)``.
    public func skip(_ seconds: UInt64) async throws {
        let now = await timestamp()
        let (target, overflow) = now.addingReportingOverflow(Swift.max(seconds, 1))
        guard !overflow else { throw TestFailure("skip(\(seconds)): the timestamp would overflow") }
        try await warp(target)
    }

    /// Mines empty blocks until the head is block `number` (forge's `roll`; forward only, at most 100,000 blocks
    /// at a time, each one second after the last).
    public func roll(_ number: UInt64) async throws {
        let head = await blockNumber()
        guard number >= head else { throw TestFailure("roll(\(number)): the chain is at block \(head); blocks only move forward") }
        guard number - head <= 100_000 else { throw TestFailure("roll(\(number)): \(number - head) blocks at once is more than 100,000") }
        guard number > head else { return }
        try await chain.untilForkFetched("roll", readOnly: false) {
            // Counted again on each try: a fork's abandoned block leaves the ones before it mined.
            let now = await blockNumber()
            guard number > now else { return }
            do throws(ChainError) { _ = try await chain.mine(blocks: Int(number - now)) } catch { throw DevChainBackendError.chain(error) }
        }
    }

    // MARK: Snapshots

    /// Records the chain as it is (state, blocks, time); ``revert(to:)`` comes back to it (forge's `snapshotState`).
    public func snapshot() async throws -> UInt64 {
        do throws(ChainError) { return try await chain.snapshot() } catch { throw DevChainBackendError.chain(error) }
    }

    /// Returns to snapshot `id`, forgetting it and every later one (forge's `revertToState`). The transactions
    /// recorded for gas reports are kept: they were run.
    public func revert(to id: UInt64) async throws {
        let known: Bool
        do throws(ChainError) { known = try await chain.revert(to: id) } catch { throw DevChainBackendError.chain(error) }
        guard known else { throw TestFailure("revert(to: \(id)): no such snapshot (it was reverted to, or an earlier one was)") }
    }

    /// Runs `body` and puts the chain back as it was before, whatever `body` did or threw (a fuzz case's or an
    /// invariant run's isolation).
    public func isolated<T>(_ body: () async throws -> T) async throws -> T {
        let id = try await snapshot()
        do {
            let result = try await body()
            try await revert(to: id)
            return result
        } catch {
            try await revert(to: id)
            throw error
        }
    }

    // MARK: Logs

    /// Starts recording every log the bench's transactions emit (forge's `recordLogs`); a second call starts afresh.
    public func recordLogs() { state.withLock { $0.recording = [] } }

    /// The logs recorded since ``recordLogs()`` or the last call of this, which empties the record (forge's
    /// `getRecordedLogs`).
    public func recordedLogs() -> [TransactionLog] {
        state.withLock { state in
            defer { if state.recording != nil { state.recording = [] } }
            return state.recording ?? []
        }
    }

    /// Every transaction sent through the bench so far, in order.
    public var transactions: [RecordedTransaction] { state.withLock { $0.transactions } }
}
