import EVM
import EthereumPrimitives

/// Applying a block's state overrides, as geth's `StateOverride.Apply`: accounts in address order; nonce, code
/// and balance replaced; `state` replacing the whole storage, `stateDiff` writing slots; a precompile moved with
/// `movePrecompileToAddress`, and any overridden precompile address left to run its account's code. The changes
/// are ended like a transaction of their own, without EIP-161's removal of empty accounts (an account created
/// with a zero balance stays until a transaction touches it).
enum StateOverrideApplication {
    static func apply(
        _ overrides: StateOverrides, to journaled: inout JournaledState, precompiles: inout PrecompileOverrides,
        fork: Hardfork
    ) throws(SimulationError) {
        var movedInto: Set<Address> = []
        for address in overrides.keys.sorted() {
            guard let change = overrides[address] else { continue }
            if movedInto.contains(address) {
                throw .invalidOverride("account \(address) has already been overridden by a precompile")
            }
            let precompile = precompiles.precompile(at: address, fork: fork)
            if let destination = change.movePrecompileToAddress {
                guard let precompile else { throw .invalidOverride("account \(address) is not a precompile") }
                if overrides[destination] != nil {
                    throw .invalidOverride("account \(destination) is already overridden")
                }
                precompiles.moved[destination] = precompile
                movedInto.insert(destination)
            }
            if precompile != nil {
                precompiles.moved[address] = nil
                precompiles.removed.insert(address)
            }
            if let nonce = change.nonce { journaled.setNonce(address, nonce) }
            if let code = change.code { journaled.setCode(address, code) }
            if let balance = change.balance { journaled.setBalance(address, balance) }
            if change.state != nil && change.stateDiff != nil {
                throw .invalidOverride("account \(address) has both 'state' and 'stateDiff'")
            }
            if let storage = change.state {
                journaled.flushStorage()
                let existing = journaled.state[address]?.storage ?? [:]
                for key in existing.keys where storage[key] == nil { journaled.setStorage(address, key, .zero) }
                // geth recreates the account for a new storage: it exists afterwards even when the storage is empty.
                journaled.touch(address)
                // Forked: none of the fork block's slots of this account show through any more.
                journaled.state.fork?.detached.insert(address)
                for (key, value) in storage { journaled.setStorage(address, key, value) }
            }
            if let diff = change.stateDiff {
                for (key, value) in diff { journaled.setStorage(address, key, value) }
            }
        }
        journaled.finalize(rules: ForkRules(.homestead))
    }
}
