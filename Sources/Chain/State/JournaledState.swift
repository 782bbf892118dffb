import EVM
import EthereumPrimitives

/// The world state during one transaction: the accounts, plus everything that lives only for the
/// transaction (the journal that undoes a failed frame, EIP-2929 warm sets, EIP-1153 transient
/// storage, original storage values for EIP-2200, accounts created for EIP-6780, self-destructs,
/// logs). It is the interpreter's ``Host``.
///
/// Changes are written straight into ``state``, except storage: SSTORE writes go to the slot cache
/// (``SlotCache``) and reach ``state`` when ``flushStorage()`` runs (``finalize(rules:)``, and
/// before anything that reads an account's whole storage). Each change appends an undo entry to the
/// journal, and ``revert(to:)`` replays entries backwards. ``finalize(rules:)`` ends the transaction:
/// it deletes self-destructed accounts and (EIP-161) touched empty accounts and clears the
/// transaction's sets.
public struct JournaledState: Host {
    /// The current state, including uncommitted changes of the running transaction (storage written
    /// in the running transaction only after ``flushStorage()``; between transactions it is complete).
    public var state: WorldState
    /// Logs emitted so far in the transaction.
    public private(set) var logs: [Log] = []
    /// BLOCKHASH's source.
    public var blockHashes: @Sendable (UInt64) -> Bytes32

    @usableFromInline var journal: [JournalEntry] = []
    /// The slots the transaction touched: current and original values, warm flags (EIP-2929).
    var slots = SlotCache()
    /// The accessed accounts (EIP-2929).
    var warmAccounts = WarmAddresses()
    @usableFromInline var transient: [StorageSlot: UInt256] = [:]
    @usableFromInline var createdInTransaction: Set<Address> = []
    @usableFromInline var selfDestructed: Set<Address> = []
    /// EIP-161's exception for mainnet block 2675119: a touch of RIPEMD-160 (0x03) survives a revert.
    @usableFromInline var ripemdTouched = false
    /// When true, ``finalize(rules:)`` adds what the transaction changed to ``changes`` (off by
    /// default: only a block builder needs it).
    public var recordsChanges = false
    /// What finalized transactions changed since the last ``takeChanges()`` (with ``recordsChanges``).
    public private(set) var changes = StateChanges()

    /// Wraps `state`; `blockHashes` answers BLOCKHASH.
    public init(state: WorldState, blockHashes: @escaping @Sendable (UInt64) -> Bytes32 = { _ in .zero }) {
        self.state = state
        self.blockHashes = blockHashes
    }

    // MARK: Transaction boundaries

    /// Ends the transaction: removes self-destructed accounts and, when `rules` has EIP-161, every
    /// empty account the transaction touched; then forgets the journal and the transaction's sets.
    public mutating func finalize(rules: ForkRules) {
        flushStorage()
        if recordsChanges { recordChanges() }
        for address in selfDestructed { state.deleteAccount(address) }
        if rules.emptyAccountsAreDead {
            // Each account the journal names, as often as it names it: an account deleted once is absent after.
            for entry in journal { if let address = entry.address { deleteIfEmpty(address) } }
            if ripemdTouched { deleteIfEmpty(Self.ripemd) }
        }
        journal.removeAll(keepingCapacity: true)
        slots.removeAll()
        warmAccounts.removeAll()
        transient.removeAll(keepingCapacity: true)
        createdInTransaction.removeAll(keepingCapacity: true)
        selfDestructed.removeAll(keepingCapacity: true)
        ripemdTouched = false
    }

    /// EIP-161: deletes `address` if it exists and is empty.
    private mutating func deleteIfEmpty(_ address: Address) {
        guard state.accounts[address]?.isEmpty == true else { return }
        if recordsChanges, changes.clearedStorage[address] == nil {
            changes.clearedStorage[address] = state.accounts[address]?.storage ?? [:]
        }
        state.deleteAccount(address)
    }

    /// Returns the recorded changes and starts a new, empty record.
    public mutating func takeChanges() -> StateChanges {
        defer { changes = StateChanges() }
        return changes
    }

    /// Adds the running transaction's journal to ``changes`` (before ``finalize(rules:)`` deletes
    /// accounts and forgets the journal).
    private mutating func recordChanges() {
        // A block's record starts empty: room for a block's usual few accounts at once, not grown one rehash at a time.
        if changes.accounts.isEmpty { changes.accounts.reserveCapacity(8) }
        // The journal names an account many times in a row (its slots, its balance and nonce): added once per run.
        var last: Address?
        for entry in journal {
            guard let address = entry.address else { continue }
            if address != last { changes.accounts.insert(address); last = address }
            switch entry {
            case .storage(_, let key, _):
                // A new account's set starts with room for a few slots (a transfer writes two), instead of copying
                // the shared empty set and then growing.
                changes.slots[address, default: Set(minimumCapacity: 4)].insert(key)
            case .replaced(_, let old):
                if changes.clearedStorage[address] == nil { changes.clearedStorage[address] = old.storage }
            default:
                break
            }
        }
        if ripemdTouched { changes.accounts.insert(Self.ripemd) }
        for address in selfDestructed {
            changes.accounts.insert(address)
            if changes.clearedStorage[address] == nil {
                changes.clearedStorage[address] = state.accounts[address]?.storage ?? [:]
            }
        }
    }

    /// Takes the transaction's logs, leaving none.
    public mutating func takeLogs() -> [Log] {
        defer { logs = [] }
        return logs
    }

    static let ripemd = Address(bytes: [UInt8](repeating: 0, count: 19) + [3]) ?? .zero

    // MARK: Host: accounts

    // A forked state falls back to the fork block's account where the local state holds none
    // (WorldState.remoteAccount: a nil test on a dev chain, and only on a miss).

    public func accountExists(_ address: Address) -> Bool {
        state.accounts[address] != nil || state.remoteAccount(address) != nil
    }

    public func isDeadAccount(_ address: Address) -> Bool {
        state.accounts[address]?.isEmpty ?? state.remoteAccount(address)?.isEmpty ?? true
    }

    public func balance(of address: Address) -> UInt256 {
        state.accounts[address]?.balance ?? state.remoteAccount(address)?.balance ?? .zero
    }

    public func nonce(of address: Address) -> UInt64 { state.accounts[address]?.nonce ?? state.remoteAccount(address)?.nonce ?? 0 }

    public func code(at address: Address) -> [UInt8] { state.accounts[address]?.code ?? state.remoteAccount(address)?.code ?? [] }

    public func codeHash(at address: Address) -> Bytes32 {
        state.accounts[address]?.codeHash ?? state.remoteAccount(address)?.codeHash ?? .emptyCodeHash
    }

    public func codeSize(at address: Address) -> Int {
        state.accounts[address]?.code.count ?? state.remoteAccount(address)?.code.count ?? 0
    }

    public func hasStorage(_ address: Address) -> Bool {
        let stored = state.accounts[address]?.storage ?? [:]
        // Slots written in this transaction and not yet flushed change the count.
        var count = stored.count
        for index in slots.dirtyIndexes {
            let entry = slots[index]
            guard entry.address == address else { continue }
            let before = stored[entry.key] != nil
            let after = !entry.current.isZero
            if before != after { count += after ? 1 : -1 }
        }
        return count > 0
    }

    /// Creates the account if it does not exist (journaled).
    @inlinable
    mutating func ensureAccount(_ address: Address) {
        if state.accounts[address] == nil {
            // Forked: the local copy starts as the fork block's account (undoing `.created` drops the copy).
            state.accounts[address] = state.remoteAccount(address) ?? Account()
            journal.append(.created(address))
        }
    }

    public mutating func addBalance(_ address: Address, _ amount: UInt256) {
        ensureAccount(address)
        if amount.isZero {
            touch(address)
            return
        }
        let old = state.accounts[address]?.balance ?? .zero
        journal.append(.balance(address, old))
        state.accounts[address]?.balance = old &+ amount
    }

    public mutating func subtractBalance(_ address: Address, _ amount: UInt256) {
        if amount.isZero { return }
        ensureAccount(address)
        let old = state.accounts[address]?.balance ?? .zero
        journal.append(.balance(address, old))
        state.accounts[address]?.balance = old &- amount
    }

    /// Sets a balance outright (a dev control or a state override), as a credit or debit of the difference so
    /// the journal records it; an unchanged balance still touches the account (creating it when missing).
    public mutating func setBalance(_ address: Address, _ value: UInt256) {
        let current = balance(of: address)
        if value > current {
            addBalance(address, value - current)
        } else if value < current {
            subtractBalance(address, current - value)
        } else {
            touch(address)
        }
    }

    public mutating func setNonce(_ address: Address, _ nonce: UInt64) {
        ensureAccount(address)
        journal.append(.nonce(address, state.accounts[address]?.nonce ?? 0))
        state.accounts[address]?.nonce = nonce
    }

    public mutating func setCode(_ address: Address, _ code: [UInt8]) {
        ensureAccount(address)
        let old = state.accounts[address] ?? Account()
        journal.append(.code(address, old.code, old.codeHash))
        state.accounts[address]?.setCode(code)
    }

    public mutating func createContractAccount(_ address: Address) {
        flushStorage()
        if let old = state.accounts[address] ?? state.remoteAccount(address) {
            journal.append(.replaced(address, old))
            state.accounts[address] = Account(nonce: 0, balance: old.balance)
            slots.reload(address, from: [:])
        } else {
            state.accounts[address] = Account()
            journal.append(.created(address))
        }
        if createdInTransaction.insert(address).inserted { journal.append(.createdInTransaction(address)) }
    }

    public mutating func touch(_ address: Address) {
        ensureAccount(address)
        journal.append(.touched(address))
        if address == Self.ripemd { ripemdTouched = true }
    }

    // MARK: Host: self-destruct

    public mutating func markSelfDestructed(_ address: Address) -> Bool {
        if state.fork != nil && state.accounts[address] == nil { ensureAccount(address) }
        let old = state.accounts[address]?.balance ?? .zero
        if !old.isZero {
            journal.append(.balance(address, old))
            state.accounts[address]?.balance = .zero
        }
        guard selfDestructed.insert(address).inserted else { return false }
        journal.append(.selfDestructed(address))
        return true
    }

    public func isCreatedInTransaction(_ address: Address) -> Bool { createdInTransaction.contains(address) }

    // MARK: Host: storage

    /// The slot's entry in ``slots``, read from the world state on the transaction's first access.
    @inline(__always)
    mutating func slotIndex(_ address: Address, _ key: UInt256) -> Int {
        slots.index(address, key) { state.accounts[address]?.storage[key] ?? state.remoteSlot(address, key) }.index
    }

    public func storage(_ address: Address, _ key: UInt256) -> UInt256 {
        if let index = slots.find(address, key) { return slots[index].current }
        return state.accounts[address]?.storage[key] ?? state.remoteSlot(address, key)
    }

    public func originalStorage(_ address: Address, _ key: UInt256) -> UInt256 {
        if let index = slots.find(address, key) { return slots[index].original }
        return state.accounts[address]?.storage[key] ?? state.remoteSlot(address, key)  // untouched: still its original value
    }

    public mutating func setStorage(_ address: Address, _ key: UInt256, _ value: UInt256) {
        ensureAccount(address)
        let index = slotIndex(address, key)
        journal.append(.storage(address, key, slots[index].current))
        slots.write(index, value)
    }

    /// Writes the storage the running transaction changed into ``state`` (one update per account).
    public mutating func flushStorage() {
        guard !slots.dirtyIndexes.isEmpty else { return }
        var held: (address: Address, account: Account)?
        for index in slots.dirtyIndexes {
            let entry = slots[index]
            let address = entry.address
            if held?.address != address {
                if let (heldAddress, account) = held { state.accounts[heldAddress] = account }
                // Moved out of the dictionary, so the account's storage is uniquely referenced.
                held = state.accounts.removeValue(forKey: address).map { (address, $0) }
            }
            held?.account.storage[entry.key] = entry.current.isZero ? nil : entry.current
            // Forked: a slot cleared to zero hides the fork block's value. Only a clearing counts: an entry back at its
            // zero original (a call's writes reverted before this flush) changes nothing.
            if entry.current.isZero, !entry.original.isZero, state.fork != nil {
                state.fork?.zeroed.insert(StorageSlot(address: address, key: entry.key))
            }
        }
        if let (heldAddress, account) = held { state.accounts[heldAddress] = account }
        slots.markClean()
    }

    public mutating func loadSlot(_ address: Address, _ key: UInt256, warm: Bool) -> (value: UInt256, wasCold: Bool) {
        let index = slotIndex(address, key)
        let wasCold = warm && markWarm(index, address, key)
        return (slots[index].current, wasCold)
    }

    public mutating func slotForWrite(
        _ address: Address, _ key: UInt256, warm: Bool
    ) -> (current: UInt256, original: UInt256, wasCold: Bool) {
        let index = slotIndex(address, key)
        let wasCold = warm && markWarm(index, address, key)
        let entry = slots[index]
        return (entry.current, entry.original, wasCold)
    }

    /// Marks the slot at `index` warm (journaled); true when it was cold.
    @inline(__always)
    mutating func markWarm(_ index: Int, _ address: Address, _ key: UInt256) -> Bool {
        if slots[index].warm { return false }
        slots[index].warm = true
        journal.append(.warmSlot(StorageSlot(address: address, key: key)))
        return true
    }

    public func transientStorage(_ address: Address, _ key: UInt256) -> UInt256 {
        transient[StorageSlot(address: address, key: key)] ?? .zero
    }

    public mutating func setTransientStorage(_ address: Address, _ key: UInt256, _ value: UInt256) {
        let slot = StorageSlot(address: address, key: key)
        journal.append(.transient(slot, transient[slot] ?? .zero))
        transient[slot] = value.isZero ? nil : value
    }

    // MARK: Host: access sets

    public mutating func warmAccount(_ address: Address) -> Bool {
        guard warmAccounts.insert(address) else { return false }
        journal.append(.warmAccount(address))
        return true
    }

    public mutating func warmSlot(_ address: Address, _ key: UInt256) -> Bool {
        markWarm(slotIndex(address, key), address, key)
    }

    // MARK: Host: logs, journal, chain

    public mutating func emitLog(_ log: Log) {
        logs.append(log)
        journal.append(.log)
    }

    public mutating func checkpoint() -> Int { journal.count }

    public mutating func revert(to checkpoint: Int) {
        while journal.count > checkpoint {
            switch journal.removeLast() {
            case .created(let address): state.accounts[address] = nil
            case .replaced(let address, let account):
                state.accounts[address] = account
                slots.reload(address, from: account.storage)
            case .balance(let address, let old): state.accounts[address]?.balance = old
            case .nonce(let address, let old): state.accounts[address]?.nonce = old
            case .code(let address, let code, let hash): state.accounts[address]?.restoreCode(code, hash: hash)
            case .storage(let address, let key, let old):
                if let index = slots.find(address, key) { slots.write(index, old) }
            case .transient(let slot, let old): transient[slot] = old.isZero ? nil : old
            case .warmAccount(let address): warmAccounts.remove(address)
            case .warmSlot(let slot):
                if let index = slots.find(slot.address, slot.key) { slots[index].warm = false }
            case .touched: break
            case .createdInTransaction(let address): createdInTransaction.remove(address)
            case .selfDestructed(let address): selfDestructed.remove(address)
            case .log: logs.removeLast()
            }
        }
    }

    public func blockHash(_ number: UInt64) -> Bytes32 { blockHashes(number) }

    // MARK: Transaction-level helpers (used by the executor)

    /// Marks an account warm without journaling (the transaction's initial access list).
    public mutating func prewarm(_ address: Address) { _ = warmAccounts.insert(address) }

    /// Marks a slot warm without journaling (the transaction's initial access list).
    public mutating func prewarm(_ address: Address, _ key: UInt256) {
        slots[slotIndex(address, key)].warm = true
    }
}

/// An (account, key) pair naming a storage slot.
public struct StorageSlot: Hashable, Sendable {
    /// The account.
    public var address: Address
    /// The slot key.
    public var key: UInt256

    /// Creates a slot name.
    public init(address: Address, key: UInt256) {
        self.address = address
        self.key = key
    }
}

/// One undo record of the journal.
@usableFromInline
enum JournalEntry {
    case created(Address)
    case replaced(Address, Account)
    case balance(Address, UInt256)
    case nonce(Address, UInt64)
    case code(Address, [UInt8], Bytes32)
    case storage(Address, UInt256, UInt256)
    case transient(StorageSlot, UInt256)
    case warmAccount(Address)
    case warmSlot(StorageSlot)
    case touched(Address)
    case createdInTransaction(Address)
    case selfDestructed(Address)
    case log

    /// The account whose state the entry changed (EIP-161 "touched"), if any.
    var address: Address? {
        switch self {
        case .created(let a), .replaced(let a, _), .balance(let a, _), .nonce(let a, _), .code(let a, _, _),
            .storage(let a, _, _), .touched(let a):
            return a
        default:
            return nil
        }
    }
}
