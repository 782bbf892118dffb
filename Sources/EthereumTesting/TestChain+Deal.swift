import Chain
import EthereumContracts
import EthereumContractsLocal

extension TestChain {
    /// Sets `holder`'s balance of an ERC-20 `token` to `amount` by writing the token's storage (forge's
    /// `deal(token, to, amount)`), whatever the compiler's storage layout: the slot is found as forge's `stdstore`
    /// finds it, by tracing `balanceOf(holder)` for the slots it reads and keeping the one whose value the call
    /// returns. With `adjustTotalSupply`, `totalSupply()`'s slot moves by the same difference.
    public func deal(token: Address, to holder: Address, amount: UInt256, adjustTotalSupply: Bool = false) async throws {
        let balanceOf = try ABIFunction(signature: "function balanceOf(address) view returns (uint256)")
        let slot = try await storageSlot(of: token, returnedBy: try balanceOf.encodeCall([.address(holder)]), what: "balanceOf(\(name(of: holder)))")
        let old = try await load(token, slot: slot)
        try await store(token, slot: slot, value: amount)
        guard adjustTotalSupply else { return }
        let totalSupply = try ABIFunction(signature: "function totalSupply() view returns (uint256)")
        let supplySlot = try await storageSlot(of: token, returnedBy: try totalSupply.encodeCall([]), what: "totalSupply()")
        let supply = try await load(token, slot: supplySlot)
        // supply − old + amount, in an order that cannot underflow when the result is representable.
        let (raised, overflow) = amount >= old ? supply.addingReportingOverflow(amount - old) : (supply - Swift.min(supply, old - amount), old - amount > supply)
        guard !overflow else {
            try await store(token, slot: slot, value: old)
            throw TestFailure("deal(token:): the total supply \(supply) cannot move from \(old) to \(amount) held")
        }
        try await store(token, slot: supplySlot, value: raised)
    }

    /// The storage slot of `contract` whose value the view call `calldata` returns as its first word.
    func storageSlot(of contract: Address, returnedBy calldata: [UInt8], what: String) async throws -> UInt256 {
        let request = CallRequest(to: contract, data: calldata)
        let trace: TraceResult
        trace = try await chain.untilForkFetched("deal(token:)", readOnly: true, call: request) {
            do throws(ChainError) {
                return try await chain.traceCall(request, tracer: .prestateTracer(PrestateTracerOptions(disableCode: true)))
            } catch { throw DevChainBackendError.chain(error) }
        }
        guard case .prestate(.accounts(let accounts)) = trace else { throw TestFailure("\(what): the prestate tracer gave another kind of trace") }
        let slots = (accounts[contract]?.storage.keys).map { Array($0).sorted() } ?? []
        // A value no real balance holds, so a match cannot be a coincidence.
        let marker = UInt256(Keccak256.hash(Array("EthereumTesting.deal".utf8)))
        for slot in slots {
            let old = try await load(contract, slot: slot)
            try await store(contract, slot: slot, value: marker)
            let outcome = try await backend.call(request, at: .latest)
            try await store(contract, slot: slot, value: old)
            if case .returned(let data) = outcome, data.count >= 32, UInt256(truncatingBigEndian: data.prefix(32)) == marker {
                return slot
            }
        }
        throw TestFailure(
            "\(what) of \(name(of: contract)) read \(slots.count) storage slot(s) and none of them is the value it returns: cannot deal")
    }
}
