import EVM
import EthereumPrimitives

extension DevChain {
    // MARK: Reset (anvil_reset without forking)

    /// Returns the chain to its genesis block: later blocks are removed (from the database too), the state is
    /// the genesis state again, and the pool, snapshots, time changes and run-time settings (impersonation,
    /// gas limit, coinbase, fees) are cleared. Automine and interval mining stay as they are. A node's CarChain
    /// deployment, made in a block after genesis, goes with the rest.
    public func reset() throws(ChainError) {
        // A forked chain goes back to the fork block (its first block), with the fork block's state.
        var genesisState = try state(at: base)
        if let cache = genesisState.fork?.cache { genesisState.fork = ForkOverlay(cache: cache) }
        if head.number > base { try store.rewind(to: base) }
        guard let header = try store.header(number: base) else { throw .storage("the genesis block is missing") }
        var rebuilt = CommittedState(state: genesisState)
        guard rebuilt.stateRoot == header.stateRoot || genesisState.fork != nil else {
            throw .stateRootMismatch(block: 0, expected: header.stateRoot, computed: rebuilt.stateRoot)
        }
        hashes = RecentBlockHashes(first: base, hashes: [header.hash])
        head = header
        headHash = header.hash
        committed = rebuilt
        working = JournaledState(state: genesisState)
        working.recordsChanges = true
        clearRunTimeState()
        if finalized != nil { try setFinalized(nil) }
    }

    /// What a reset (and a new fork) clears besides blocks and state: cached blocks and diffs, the pool, snapshots,
    /// time changes and the run-time settings. Automine and interval mining stay.
    func clearRunTimeState() {
        blockCache = [:]
        diffCache = [:]
        unwritten.removeAll()
        pool = TransactionPool()
        snapshots = [:]
        timeOffset = 0
        pendingTimeJump = 0
        nextTimestamp = nil
        devSettings = DevSettings()
    }

    // MARK: State dumps (anvil_dumpState / anvil_loadState, --dump-state / --load-state)

    /// The live state (the head's plus dev changes not yet in a block) with the head's number and timestamp.
    public func dumpState() -> StateDump {
        StateDump(blockNumber: head.number, timestamp: head.timestamp, state: working.state)
    }

    /// Writes a dump's accounts into the live state, as anvil does: each account it names is replaced whole
    /// (nonce, balance, code, and all of its storage); accounts it does not name stay. No block is mined: the
    /// changes go into the next block like other dev changes. When the dump's timestamp is past the head's, the
    /// next block gets a later one, so time does not run backwards for the loaded contracts; the chain keeps
    /// its own block numbers.
    public func loadState(_ dump: StateDump) throws(ChainError) {
        var overrides = StateOverrides()
        for (address, account) in dump.state.accounts {
            overrides[address] = AccountOverride(nonce: account.nonce, code: account.code, balance: account.balance, state: account.storage)
        }
        var precompiles = PrecompileOverrides()  // the dump names accounts, never precompile moves
        do {
            try StateOverrideApplication.apply(overrides, to: &working, precompiles: &precompiles, fork: pendingFork)
        } catch {
            throw .invalidParams("cannot load the state: \(error)")
        }
        if dump.timestamp > head.timestamp, dump.timestamp < Self.maxTimestamp {
            try setNextBlockTimestamp(dump.timestamp + 1)
        }
    }

    /// The state root of the live state: the head's, plus dev changes not yet in a block. Equal before a
    /// ``dumpState()`` and after ``reset()`` and ``loadState(_:)`` of that dump.
    public func liveStateRoot() -> Bytes32 { working.state.stateRoot }
}
