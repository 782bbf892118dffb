import EVM
import EthereumPrimitives

/// An account's fields without its storage.
public struct AccountFields: Sendable, Equatable {
    /// The nonce.
    public var nonce: UInt64
    /// The balance in wei.
    public var balance: UInt256
    /// keccak256 of the code.
    public var codeHash: Bytes32

    /// Creates the fields.
    public init(nonce: UInt64, balance: UInt256, codeHash: Bytes32) {
        self.nonce = nonce
        self.balance = balance
        self.codeHash = codeHash
    }

    /// The fields of an account.
    public init(_ account: Account) {
        self.init(nonce: account.nonce, balance: account.balance, codeHash: account.codeHash)
    }
}

/// What one account looked like before a block: its fields (nil if it did not exist), and the
/// previous value of every storage slot the block changed.
struct AccountDiff: Sendable, Equatable {
    /// The fields before; nil when the account did not exist.
    var pre: AccountFields?
    /// True when the block deleted the account or replaced it by a creation; ``slots`` then holds
    /// every slot the account had before.
    var storageCleared: Bool
    /// Previous values of the changed slots (zero: the slot was empty).
    var slots: [UInt256: UInt256]
}

/// A reverse state diff: enough to turn the state after a block back into the state before it.
/// One is stored per block (in memory and in SQLite, with the block), so any earlier state can be
/// rebuilt from the head by applying them newest first.
struct StateDiff: Sendable, Equatable {
    /// The changed accounts.
    var accounts: [Address: AccountDiff] = [:]

    /// True when the block changed nothing.
    var isEmpty: Bool { accounts.isEmpty }

    /// Turns `state` (after the block) into the state before it; `code` finds code by hash.
    func revert(_ state: inout WorldState, code: (Bytes32) -> [UInt8]) {
        for (address, diff) in accounts {
            guard let pre = diff.pre else {
                state.accounts[address] = nil
                continue
            }
            // Taken out of the dictionary, so its storage is changed in place: a copy held in the dictionary meanwhile
            // would make every slot write copy the whole storage map (8,191 slots for the system contracts' rings).
            var restored = state.accounts.removeValue(forKey: address) ?? Account()
            if diff.storageCleared { restored = Account() }
            restored.nonce = pre.nonce
            restored.balance = pre.balance
            if restored.codeHash != pre.codeHash { restored.setCode(code(pre.codeHash)) }
            for (key, value) in diff.slots { restored.storage[key] = value.isZero ? nil : value }
            state.accounts[address] = restored
        }
    }

    // MARK: Encoding (for the state_diffs table)

    /// RLP: a list of `[address, exists, nonce, balance, codeHash, cleared, [[slot, value], …]]`,
    /// sorted by address (and each account's slots by slot) so the bytes are deterministic.
    /// Written with ``RLPWriter`` (one buffer, no item tree): one is encoded per block.
    var encoded: [UInt8] {
        var writer = RLPWriter(reservingCapacity: 128 * accounts.count)
        writer.list { w in
            for (address, diff) in accounts.sorted(by: { $0.key < $1.key }) {
                let pre = diff.pre
                w.list { w in
                    w.append(address)
                    w.append(pre != nil)
                    w.append(integer: pre?.nonce ?? 0)
                    w.append(integer: pre?.balance ?? .zero)
                    w.append(pre?.codeHash ?? .zero)
                    w.append(diff.storageCleared)
                    w.list { w in
                        for (key, value) in diff.slots.sorted(by: { $0.key < $1.key }) {
                            w.list { w in
                                w.append(integer: key)
                                w.append(integer: value)
                            }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// Decodes ``encoded``.
    init(encoded: [UInt8]) throws(RLPError) {
        guard case .list(let items) = try RLP.decode(encoded) else { throw RLPError(.expectedList) }
        for item in items {
            let f = try item.list(expectedCount: 7)
            let address = try Address(rlp: f[0])
            let exists = try Bool(rlp: f[1])
            let nonce = try UInt64(rlp: f[2])
            let balance = UInt256(truncatingBigEndian: try f[3].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
            let codeHash = try Bytes32(rlp: f[4])
            let cleared = try Bool(rlp: f[5])
            guard case .list(let slotItems) = f[6] else { throw RLPError(.expectedList) }
            var slots: [UInt256: UInt256] = [:]
            for slotItem in slotItems {
                let pair = try slotItem.list(expectedCount: 2)
                let key = UInt256(truncatingBigEndian: try pair[0].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
                slots[key] = UInt256(truncatingBigEndian: try pair[1].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
            }
            accounts[address] = AccountDiff(
                pre: exists ? AccountFields(nonce: nonce, balance: balance, codeHash: codeHash) : nil,
                storageCleared: cleared, slots: slots)
        }
    }

    /// An empty diff.
    init() {}
}
