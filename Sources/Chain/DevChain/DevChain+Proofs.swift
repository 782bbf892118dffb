import EthereumPrimitives

/// State proofs (`eth_getProof`) and batched storage reads (`eth_getStorageValues`) at any block.
extension DevChain {
    /// The EIP-1186 proof of `address` and `slots` in the state after block `id`. The head's proof comes from
    /// the committed tries (the state its header's root names, without dev changes not yet mined); an earlier
    /// block's state is rebuilt from the reverse diffs and hashed into tries of its own, which costs the size of
    /// the state once per request.
    public func proof(_ address: Address, slots: [UInt256], at id: BlockID = .latest) throws(ChainError) -> AccountProof {
        if case .pending = id, let state = try pendingStateForReads() {
            var tries = CommittedState(state: state)
            return tries.proof(address, slots: slots)
        }
        guard let number = resolve(id) else { throw .unknownBlock("\(id)") }
        if number >= head.number { return committed.proof(address, slots: slots) }
        var tries = CommittedState(state: try state(at: number))
        return tries.proof(address, slots: slots)
    }

    /// The values of several accounts' slots at block `id`, in the order asked.
    public func storageValues(
        _ requests: [(address: Address, slots: [UInt256])], at id: BlockID = .latest
    ) throws(ChainError) -> [[UInt256]] {
        var values: [[UInt256]] = []
        for request in requests {
            var row: [UInt256] = []
            for slot in request.slots { row.append(try storage(request.address, slot: slot, at: id)) }
            values.append(row)
        }
        return values
    }
}
