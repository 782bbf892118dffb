import EthereumPrimitives

/// The interpreter's view of the world: accounts, storage, logs, the access sets of EIP-2929, the
/// journal that lets a failed call frame undo its changes, and block hashes.
///
/// The interpreter is generic over its host (`Interpreter<H: Host, …>`), so calls are statically
/// dispatched and specialised; the world state, journal and chain live in other modules (`Chain`).
/// Every state change made through these methods must be undone by ``revert(to:)`` of an earlier
/// ``checkpoint()``.
public protocol Host {
    // MARK: Accounts

    /// True when the account exists in the state (even if empty).
    mutating func accountExists(_ address: Address) -> Bool
    /// True when the account does not exist or is empty (nonce 0, balance 0, no code): "dead" in
    /// the terms of EIP-161.
    mutating func isDeadAccount(_ address: Address) -> Bool
    /// The balance; 0 for an account that does not exist.
    mutating func balance(of address: Address) -> UInt256
    /// The nonce; 0 for an account that does not exist.
    mutating func nonce(of address: Address) -> UInt64
    /// The code; empty for an account that does not exist.
    mutating func code(at address: Address) -> [UInt8]
    /// The Keccak-256 hash of the code (the empty-code hash for an account without code or that
    /// does not exist).
    mutating func codeHash(at address: Address) -> Bytes32
    /// The code length in bytes.
    mutating func codeSize(at address: Address) -> Int
    /// True when the account has a non-empty storage (EIP-7610's collision rule).
    mutating func hasStorage(_ address: Address) -> Bool

    /// Adds `amount` to the balance, creating the account if needed (and touching it, EIP-161).
    mutating func addBalance(_ address: Address, _ amount: UInt256)
    /// Subtracts `amount` from the balance, which the caller has checked is at least `amount`
    /// (touches the account).
    mutating func subtractBalance(_ address: Address, _ amount: UInt256)
    /// Sets the nonce, creating the account if needed.
    mutating func setNonce(_ address: Address, _ nonce: UInt64)
    /// Sets the code.
    mutating func setCode(_ address: Address, _ code: [UInt8])
    /// Prepares `address` to receive a new contract: keeps its balance, clears storage and code,
    /// and records it as created in this transaction (for EIP-6780).
    mutating func createContractAccount(_ address: Address)
    /// Marks the account touched without changing it (EIP-161: a touched empty account is deleted
    /// at the end of the transaction).
    mutating func touch(_ address: Address)

    // MARK: Self-destruct

    /// Marks the account for deletion at the end of the transaction and zeroes its balance; returns
    /// false if it was already marked.
    mutating func markSelfDestructed(_ address: Address) -> Bool
    /// True when the account was created earlier in the current transaction (EIP-6780).
    mutating func isCreatedInTransaction(_ address: Address) -> Bool

    // MARK: Storage

    /// The current value of a storage slot.
    mutating func storage(_ address: Address, _ key: UInt256) -> UInt256
    /// The value the slot had at the start of the transaction (EIP-1283/2200 net metering).
    mutating func originalStorage(_ address: Address, _ key: UInt256) -> UInt256
    /// Writes a storage slot.
    mutating func setStorage(_ address: Address, _ key: UInt256, _ value: UInt256)
    /// SLOAD's access: the slot's current value and, when `warm` (EIP-2929 in force), whether this
    /// was the transaction's first access to it (marking it warm). One call, so a host can answer
    /// both from one lookup.
    mutating func loadSlot(_ address: Address, _ key: UInt256, warm: Bool) -> (value: UInt256, wasCold: Bool)
    /// SSTORE's access: the slot's current and original values and, when `warm`, whether it was cold
    /// (marking it warm).
    mutating func slotForWrite(
        _ address: Address, _ key: UInt256, warm: Bool
    ) -> (current: UInt256, original: UInt256, wasCold: Bool)
    /// The value of a transient storage slot (EIP-1153).
    mutating func transientStorage(_ address: Address, _ key: UInt256) -> UInt256
    /// Writes a transient storage slot (EIP-1153).
    mutating func setTransientStorage(_ address: Address, _ key: UInt256, _ value: UInt256)

    // MARK: Access sets (EIP-2929)

    /// Adds the account to the accessed set; returns true if it was cold (not yet in the set).
    mutating func warmAccount(_ address: Address) -> Bool
    /// Adds the slot to the accessed set; returns true if it was cold.
    mutating func warmSlot(_ address: Address, _ key: UInt256) -> Bool

    // MARK: Logs, journal, chain

    /// Appends a log entry.
    mutating func emitLog(_ log: Log)
    /// Starts a journal section and returns its identifier.
    mutating func checkpoint() -> Int
    /// Undoes every change made since `checkpoint` was taken.
    mutating func revert(to checkpoint: Int)
    /// The hash of block `number` (only called for the 256 most recent blocks).
    mutating func blockHash(_ number: UInt64) -> Bytes32
}

extension Host {
    /// ``warmSlot(_:_:)`` then ``storage(_:_:)``.
    public mutating func loadSlot(_ address: Address, _ key: UInt256, warm: Bool) -> (value: UInt256, wasCold: Bool) {
        let wasCold = warm && warmSlot(address, key)
        return (storage(address, key), wasCold)
    }

    /// ``warmSlot(_:_:)``, ``storage(_:_:)`` and ``originalStorage(_:_:)``.
    public mutating func slotForWrite(
        _ address: Address, _ key: UInt256, warm: Bool
    ) -> (current: UInt256, original: UInt256, wasCold: Bool) {
        let wasCold = warm && warmSlot(address, key)
        return (storage(address, key), originalStorage(address, key), wasCold)
    }
}

/// A log entry emitted by LOG0–LOG4.
public struct Log: Sendable, Equatable, Hashable {
    /// The account that emitted it.
    public var address: Address
    /// Zero to four topics.
    public var topics: [Bytes32]
    /// The data.
    public var data: [UInt8]

    /// Creates a log entry.
    public init(address: Address, topics: [Bytes32], data: [UInt8]) {
        self.address = address
        self.topics = topics
        self.data = data
    }
}
