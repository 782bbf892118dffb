import EthereumPrimitives

/// What finalized transactions changed in a world state, collected by ``JournaledState`` when
/// ``JournaledState/recordsChanges`` is on: the block builder uses it to update the state trie
/// incrementally and to write per-block state diffs, without comparing whole states.
public struct StateChanges: Sendable, Equatable {
    /// Accounts whose nonce, balance, code or existence may have changed (a superset: touched
    /// accounts are included).
    public var accounts: Set<Address> = []
    /// Storage slots written, by account.
    public var slots: [Address: Set<UInt256>] = [:]
    /// Accounts deleted (self-destruct, EIP-161) or replaced by a contract creation, with the
    /// storage they had just before the first such event; their storage trie must be rebuilt.
    public var clearedStorage: [Address: [UInt256: UInt256]] = [:]

    /// No changes.
    public init() {}

    /// True when nothing changed.
    public var isEmpty: Bool { accounts.isEmpty && slots.isEmpty && clearedStorage.isEmpty }

    /// Every account named by any of the three sets.
    public var allAccounts: Set<Address> {
        var all = accounts
        for address in slots.keys { all.insert(address) }
        for address in clearedStorage.keys { all.insert(address) }
        return all
    }

    /// Adds `other`'s changes; for cleared storage the earlier capture is kept.
    public mutating func merge(_ other: StateChanges) {
        accounts.formUnion(other.accounts)
        for (address, keys) in other.slots { slots[address, default: []].formUnion(keys) }
        for (address, storage) in other.clearedStorage where clearedStorage[address] == nil {
            clearedStorage[address] = storage
        }
    }
}
