import Chain
import EthereumPrimitives
import EthereumTransactions

/// Driving a forked ``DevChain`` in process (a ``DevChainBackend`` or EthereumTesting's `TestChain` on a fork). The
/// chain never waits on the network: a read its ``ForkCache`` cannot answer is recorded as missing and answered with
/// the empty value (Chain/Fork/ForkCache.swift). So an operation on a forked chain is run, and run again once the
/// cache has fetched everything it missed in one batch, until it ran on fetched values only — the in-process
/// counterpart of the node's request loop (`DevNode/RPC/Methods/ForkedRequests.swift`, which adds the forwarding of
/// reads at remote blocks that JSON-RPC needs).
extension ForkCache {
    /// Runs `operation` until it read only fetched state, and returns its result (or throws its error).
    ///
    /// A `readOnly` operation is repeated after any miss. A write is repeated only when it failed after a miss (the
    /// miner abandons a block that read something not fetched, and nothing is committed); one that succeeded read
    /// fetched values only and is never repeated. For a write of `call`, its sender and recipient are fetched first, so
    /// a sender's nonce and balance are the remote's when the transaction is judged. The first miss of an operation
    /// that runs `call` also fetches the access list the remote computes for it at the fork block, in the same batch:
    /// a contract's getter on a fresh fork then costs two round trips instead of one per level of its storage reads.
    ///
    /// Errors: what `operation` throws; a fetch that fails as ``DevChainBackendError/chain(_:)`` with
    /// ``ChainError/fork(_:)`` (whose description names the remote by scheme, host and port only).
    public func untilFetched<T>(
        _ what: String, readOnly: Bool, call: CallRequest? = nil, _ operation: () async throws -> T
    ) async throws -> T {
        if !readOnly, let call {
            do { try await prefetch(ForkFetchRequest(accounts: [call.from, call.to].compactMap { $0 })) } catch {
                throw DevChainBackendError.chain(.fork(error))
            }
        }
        var hinted = false
        for _ in 0..<DevChain.maxForkRounds {
            // This operation's own misses (other tasks' are theirs).
            let misses = ForkMissCounter()
            let outcome: Result<T, any Error> = await ForkCache.$missCounter.withValue(misses) {
                do { return .success(try await operation()) } catch { return .failure(error) }
            }
            let failed = if case .failure = outcome { true } else { false }
            guard (readOnly || failed) && misses.misses > 0 else { return try outcome.get() }
            var hint = ForkFetchRequest()
            if !hinted, let call {
                hinted = true
                do { hint = try await accessListHint(for: call) } catch { throw DevChainBackendError.chain(.fork(error)) }
            }
            do { try await fetchMissing(with: hint) } catch { throw DevChainBackendError.chain(.fork(error)) }
        }
        throw DevChainBackendError.chain(.executionFailed("\(what) kept reading new fork state after \(DevChain.maxForkRounds) fetches"))
    }

    /// Fetches what the accounts and slots named are not cached yet, before a change that reads them (setting a balance
    /// keeps the account's nonce and code, which must be the remote's, not the empty account's).
    public func prefetching(accounts: [Address], slots: [StorageSlot] = []) async throws {
        do { try await prefetch(ForkFetchRequest(accounts: accounts, slots: slots)) } catch { throw DevChainBackendError.chain(.fork(error)) }
    }
}

extension DevChain {
    /// Runs `operation` once on a chain of its own, and as ``ForkCache/untilFetched(_:readOnly:call:_:)`` says on a
    /// forked one.
    public nonisolated func untilForkFetched<T>(
        _ what: String, readOnly: Bool, call: CallRequest? = nil, _ operation: () async throws -> T
    ) async throws -> T {
        guard let cache = forkCache else { return try await operation() }
        return try await cache.untilFetched(what, readOnly: readOnly, call: call, operation)
    }
}
