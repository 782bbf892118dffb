import EVM
import EthereumPrimitives

/// Keeping the dev methods' work across a restart (Store/DevJournal.swift): each state change is recorded as it is
/// made, the settings whenever one changes, and both are put back when the chain opens.
extension DevChain {
    /// Puts back what the journal kept: the pending changes on top of the head's state (recorded for the next block,
    /// as when they were made), and the settings (the one-shot ones only when the head is still the one they were
    /// made on, and only while they still make sense: a next timestamp must be after the head's).
    func restoreJournal(_ restored: (pending: PendingDevState, settings: DevJournal.Settings?)) throws(ChainError) {
        restored.pending.apply(to: &working)
        guard let settings = restored.settings else { return }
        if settings.chainId != 0 { chainIdBox.withLock { $0 = settings.chainId } }
        timeOffset = settings.timeOffset
        devSettings.coinbase = settings.coinbase
        devSettings.gasLimit = settings.gasLimit
        devSettings.minGasPrice = settings.minGasPrice
        guard settings.head == headHash else { return }
        if let next = settings.nextTimestamp, next > head.timestamp, next <= Self.maxTimestamp { nextTimestamp = next }
        pendingTimeJump = settings.pendingTimeJump
        devSettings.nextBaseFee = settings.nextBaseFee
    }

    /// Records what a dev change just made to `accounts` and `slots` (their values now) before its answer goes out.
    /// An account named by a slot is recorded too (writing a slot creates its account).
    func journalDevChange(accounts: some Sequence<Address>, slots: some Sequence<StorageSlot> = []) throws(ChainError) {
        guard let journal else { return }
        var pending = PendingDevState()
        for address in accounts { pending.accounts[address] = working.state.accounts[address].map(PendingAccount.init) }
        for slot in slots {
            pending.slots[slot] = working.storage(slot.address, slot.key)
            if pending.accounts[slot.address] == nil {
                pending.accounts[slot.address] = working.state.accounts[slot.address].map(PendingAccount.init)
            }
        }
        try journal.record(pending, head: headHash)
    }

    /// Every dev change `state` holds beyond the committed head (an account or slot it records as changed, with its
    /// value now): what the journal must hold after a revert or reset puts `state` in place.
    func pendingState(of state: JournaledState) -> PendingDevState {
        var pending = PendingDevState()
        let changes = state.changes
        for address in changes.allAccounts { pending.accounts[address] = state.state.accounts[address].map(PendingAccount.init) }
        for (address, keys) in changes.slots {
            for key in keys { pending.slots[StorageSlot(address: address, key: key)] = state.storage(address, key) }
        }
        return pending
    }

    /// Records the run-time settings as they are now.
    func journalSettings() throws(ChainError) {
        guard let journal else { return }
        try journal.save(
            DevJournal.Settings(
                chainId: chainId, timeOffset: timeOffset, coinbase: devSettings.coinbase, gasLimit: devSettings.gasLimit,
                minGasPrice: devSettings.minGasPrice, head: headHash, nextTimestamp: nextTimestamp, pendingTimeJump: pendingTimeJump,
                nextBaseFee: devSettings.nextBaseFee))
    }
}
