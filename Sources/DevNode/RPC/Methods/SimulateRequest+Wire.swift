import Chain
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// `eth_simulateV1`'s first parameter (execution-apis `EthSimulatePayload`): `blockStateCalls` (each with optional
/// `blockOverrides`, `stateOverrides` and `calls`), `traceTransfers`, `validation` and `returnFullTransactions`.
/// Members the spec does not define are ignored, as geth ignores them.
enum SimulateRequestWire {
    /// The decoded payload and whether blocks list full transaction objects.
    static func decode(_ value: JSONValue) throws(WireError) -> (SimulationRequest, fullTransactions: Bool) {
        let o = try value.wireObject("payload")
        let blocks = try (o.optional("blockStateCalls")?.wireArray("payload.blockStateCalls") ?? []).enumerated().map {
            i, block throws(WireError) in try Self.block(block, path: "payload.blockStateCalls[\(i)]")
        }
        let request = SimulationRequest(
            blocks: blocks, traceTransfers: try flag(o, "traceTransfers"), validation: try flag(o, "validation"))
        return (request, try flag(o, "returnFullTransactions"))
    }

    private static func flag(_ o: WireObject, _ key: String) throws(WireError) -> Bool {
        switch o.optional(key) {
        case nil: return false
        case .bool(let b)?: return b
        default: throw WireError("\(o.name(key)): expected a boolean")
        }
    }

    private static func block(_ value: JSONValue, path: String) throws(WireError) -> SimulatedBlockRequest {
        let o = try value.wireObject(path)
        var block = SimulatedBlockRequest()
        if let overrides = o.optional("blockOverrides") {
            block.overrides = try blockOverrides(overrides, path: o.name("blockOverrides"))
        }
        if let overrides = o.optional("stateOverrides") {
            block.stateOverrides = try stateOverrides(overrides, path: o.name("stateOverrides"))
        }
        if let calls = o.optional("calls") {
            block.calls = try calls.wireArray(o.name("calls")).enumerated().map { i, call throws(WireError) in
                let path = o.name("calls") + "[\(i)]"
                let request = try CallRequest(json: call)
                let chainID = try call.wireObject(path).optionalUInt256("chainId")
                return SimulatedCall(request, chainID: chainID)
            }
        }
        return block
    }

    /// Also debug_traceCall's `blockOverrides` (TraceConfig).
    static func blockOverrides(_ value: JSONValue, path: String) throws(WireError) -> BlockOverrides {
        let o = try value.wireObject(path)
        var overrides = BlockOverrides()
        // geth reads the number as a big integer: one past 64 bits is "too many blocks" ahead, as UInt64.max is.
        overrides.number = try o.optionalUInt256("number").map { $0.uint64 ?? UInt64.max }
        overrides.time = try o.optionalUInt64("time")
        overrides.gasLimit = try o.optionalUInt64("gasLimit")
        overrides.feeRecipient = try o.optionalAddress("feeRecipient")
        overrides.prevRandao = try o.optionalBytes32("prevRandao")
        overrides.baseFeePerGas = try o.optionalUInt256("baseFeePerGas")
        overrides.blobBaseFee = try o.optionalUInt256("blobBaseFee")
        overrides.beaconRoot = try o.optionalBytes32("beaconRoot")
        overrides.difficulty = try o.optionalUInt256("difficulty")
        if let list = o.optional("withdrawals") {
            overrides.withdrawals = try list.wireArray(o.name("withdrawals")).enumerated().map { i, item throws(WireError) in
                let w = try item.wireObject(o.name("withdrawals") + "[\(i)]")
                return Withdrawal(
                    index: try w.uint64("index"), validatorIndex: try w.uint64("validatorIndex"), address: try w.address("address"),
                    amount: try w.uint64("amount"))
            }
        }
        return overrides
    }

    /// Also eth_call's and eth_estimateGas's third parameter (DevNodeRequest).
    static func stateOverrides(_ value: JSONValue, path: String) throws(WireError) -> StateOverrides {
        guard case .object(let members) = value else { throw WireError("\(path): expected an object of accounts") }
        var overrides = StateOverrides()
        for (key, account) in members {
            let address = try JSONValue.string(key).wireAddress("\(path) key")
            if overrides[address] != nil { throw WireError("\(path): account \(address) given twice") }
            let o = try account.wireObject("\(path).\(key)")
            var change = AccountOverride()
            change.nonce = try o.optional("nonce").map { v throws(WireError) in try v.wireUInt64(o.name("nonce")) }
            change.code = try o.optionalBytes("code")
            change.balance = try o.optionalUInt256("balance")
            change.state = try o.optional("state").map { v throws(WireError) in try slots(v, path: o.name("state")) }
            change.stateDiff = try o.optional("stateDiff").map { v throws(WireError) in try slots(v, path: o.name("stateDiff")) }
            change.movePrecompileToAddress = try o.optionalAddress("movePrecompileToAddress")
            overrides[address] = change
        }
        return overrides
    }

    /// A storage map: 32-byte slot keys to 32-byte values.
    private static func slots(_ value: JSONValue, path: String) throws(WireError) -> [UInt256: UInt256] {
        guard case .object(let members) = value else { throw WireError("\(path): expected an object of slots") }
        var slots: [UInt256: UInt256] = [:]
        for (key, slot) in members {
            let k = UInt256(try JSONValue.string(key).wireBytes32("\(path) key"))
            slots[k] = UInt256(try slot.wireBytes32("\(path).\(key)"))
        }
        return slots
    }
}
