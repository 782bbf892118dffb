import EthereumPrimitives

/// What a forked world state needs beyond its local accounts: the remote's values (``ForkCache``) and what
/// the local chain did that hides them. A value inside ``WorldState``, so snapshots, calls on copies and the
/// journal's undo see the right remote fallback without any bookkeeping of their own.
///
/// The rule: an account or slot the local state holds is the local value; one it does not hold is the fork
/// block's, unless the local chain deleted the account (``detached``) or wrote zero to the slot (``zeroed``,
/// since zero slots are not stored).
public struct ForkOverlay: Sendable, Equatable {
    /// The remote's values.
    public let cache: ForkCache
    /// Accounts the local chain deleted (self-destruct, EIP-161): the fork block's value no longer applies.
    public internal(set) var detached: Set<Address> = []
    /// Slots the local chain set to zero.
    public internal(set) var zeroed: Set<StorageSlot> = []

    public init(cache: ForkCache) { self.cache = cache }

    public static func == (a: ForkOverlay, b: ForkOverlay) -> Bool {
        a.cache === b.cache && a.detached == b.detached && a.zeroed == b.zeroed
    }
}

extension WorldState {
    /// The account as the fork block has it, for an address the local state does not hold; nil on a chain
    /// that is not forked. Inlined check, out-of-line fetch: a dev chain pays one nil test on a miss only.
    @inlinable @inline(__always)
    func remoteAccount(_ address: Address) -> Account? {
        guard let fork else { return nil }
        return Self.remoteAccount(address, fork)
    }

    @usableFromInline @inline(never)
    static func remoteAccount(_ address: Address, _ fork: ForkOverlay) -> Account? {
        // The sets are empty until the local chain deletes an account or clears a slot: no hashing until then.
        if !fork.detached.isEmpty, fork.detached.contains(address) { return nil }
        return fork.cache.account(address)
    }

    /// A slot the local account does not hold: the fork block's value, zero on a chain that is not forked.
    @inline(__always)
    func remoteSlot(_ address: Address, _ key: UInt256) -> UInt256 {
        guard let fork else { return .zero }
        return Self.remoteSlot(address, key, fork)
    }

    @inline(never)
    static func remoteSlot(_ address: Address, _ key: UInt256, _ fork: ForkOverlay) -> UInt256 {
        if !fork.detached.isEmpty, fork.detached.contains(address) { return .zero }
        if !fork.zeroed.isEmpty, fork.zeroed.contains(StorageSlot(address: address, key: key)) { return .zero }
        return fork.cache.slot(address, key)
    }

    /// The account, local or (forked) the fork block's.
    public func account(_ address: Address) -> Account? { accounts[address] ?? remoteAccount(address) }

    /// A storage slot, local or (forked) the fork block's.
    public func slot(_ address: Address, _ key: UInt256) -> UInt256 {
        if let account = accounts[address], let value = account.storage[key] { return value }
        return remoteSlot(address, key)
    }

    /// Deletes an account; on a forked state its fork-block value stops applying.
    mutating func deleteAccount(_ address: Address) {
        accounts[address] = nil
        fork?.detached.insert(address)
    }
}
