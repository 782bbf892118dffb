import EVM
import EthereumPrimitives

extension DevChain {
    // MARK: Reset (anvil_reset without forking)

    /// Returns the chain to its genesis block: later blocks are removed (from the database too), the state is
    /// the genesis state again, and the pool, snapshots, time changes and run-time settings (impersonation,
    /// gas limit, coinbase, fees) are cleared; the chain id stays (`anvil_setChainId`'s too). Automine and interval
    /// mining stay as they are. A node's CarChain deployment, made in a block after genesis, goes with the rest.
    ///
    /// Blocks are removed in slices (DevChain+Slices.swift), other requests answered between them; snapshots go first,
    /// so no revert aims at a block being removed. A process killed part way restarts on a whole chain between the
    /// two heads.
    public func reset() async throws(ChainError) {
        snapshots = [:]
        guard let first = try blockHash(base) else { throw .storage("the first block's hash is missing") }
        try journal?.replace(with: PendingDevState(), head: first)
        try await rewindInSlices(to: base)
        // A forked chain goes back to the fork block (its first block), with the fork block's state.
        var genesisState = try state(at: base)
        if let cache = genesisState.fork?.cache { genesisState.fork = ForkOverlay(cache: cache) }
        guard let header = try store.header(number: base) else { throw .storage("the genesis block is missing") }
        var rebuilt = CommittedState(state: genesisState)
        guard rebuilt.stateRoot == header.stateRoot || genesisState.fork != nil else {
            throw .stateRootMismatch(block: base, expected: header.stateRoot, computed: rebuilt.stateRoot)
        }
        hashes = RecentBlockHashes(first: base, hashes: [header.hash])
        head = header
        headHash = header.hash
        committed = rebuilt
        working = JournaledState(state: genesisState)
        working.recordsChanges = true
        clearRunTimeState()
        if finalized != nil { try setFinalized(nil) }
        // Dev changes made between the slices went with the rest.
        try journal?.replace(with: PendingDevState(), head: first)
        try journal?.prune(keeping: first)
        try journalSettings()
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
    ///
    /// A large dump is written in slices of accounts (DevChain+Slices.swift), each recorded in the journal before the
    /// next; a reader between two slices sees the accounts loaded so far.
    public func loadState(_ dump: StateDump) async throws(ChainError) {
        let accounts = dump.state.accounts.sorted { $0.key < $1.key }
        var index = 0
        while index < accounts.count {
            if index > 0 {
                await Task.yield()
                if isClosed { throw .storage("the chain was closed while a state was loading") }
            }
            let started = ContinuousClock.now
            var overrides = StateOverrides()
            var names: [Address] = []
            repeat {
                let (address, account) = accounts[index]
                overrides[address] = AccountOverride(nonce: account.nonce, code: account.code, balance: account.balance, state: account.storage)
                names.append(address)
                index += 1
            } while index < accounts.count && names.count < 256 && ContinuousClock.now - started < Self.sliceBudget
            var precompiles = PrecompileOverrides()  // the dump names accounts, never precompile moves
            do {
                try StateOverrideApplication.apply(overrides, to: &working, precompiles: &precompiles, fork: pendingFork)
            } catch {
                throw .invalidParams("cannot load the state: \(error)")
            }
            let changes = working.changes
            try journalDevChange(
                accounts: names,
                slots: names.flatMap { address in (changes.slots[address] ?? []).map { StorageSlot(address: address, key: $0) } })
        }
        if dump.timestamp > head.timestamp, dump.timestamp < Self.maxTimestamp {
            try setNextBlockTimestamp(dump.timestamp + 1)
        }
    }

    /// The state root of the live state: the head's, plus dev changes not yet in a block. Equal before a
    /// ``dumpState()`` and after ``reset()`` and ``loadState(_:)`` of that dump.
    public func liveStateRoot() -> Bytes32 { working.state.stateRoot }
}
