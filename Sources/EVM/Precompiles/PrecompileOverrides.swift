import EthereumPrimitives

/// Precompiles taken away from their addresses or moved to others for one block, as `eth_simulateV1`'s state
/// overrides ask (geth's `movePrecompileToAddress`): an overridden precompile address runs its account's code,
/// and a move makes the precompile answer at the new address. Warming (EIP-2929) still follows the fork's own
/// list, as in geth.
public struct PrecompileOverrides: Sendable, Equatable, Hashable {
    /// Fork precompile addresses that no longer hold their precompile.
    public var removed: Set<Address>
    /// New address → the original address of the precompile that now answers there.
    public var moved: [Address: Address]

    /// No change from the fork's precompiles.
    public init(removed: Set<Address> = [], moved: [Address: Address] = [:]) {
        self.removed = removed
        self.moved = moved
    }

    /// The original address of the precompile that answers at `address` under `fork`, or nil when code runs there.
    @inlinable
    public func precompile(at address: Address, fork: Hardfork) -> Address? {
        if let original = moved[address] { return original }
        if removed.contains(address) { return nil }
        return Precompiles.isPrecompile(address, fork: fork) ? address : nil
    }
}
