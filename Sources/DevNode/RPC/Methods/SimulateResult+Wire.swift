import Chain
import EthereumPrimitives
import EthereumWire

/// `eth_simulateV1`'s result as geth writes it: each block as `eth_getBlockByNumber` shows a block (transaction
/// hashes, or with `returnFullTransactions` the transactions with their senders), plus `calls`: per call
/// `returnData`, `logs`, `gasUsed`, `maxUsedGas`, `status` and, when it failed, `error` {code, message, data}.
enum SimulateResultWire {
    static func blocks(_ blocks: [SimulatedBlock], fullTransactions: Bool) -> JSONValue {
        .array(blocks.map { block($0, full: fullTransactions) })
    }

    static func block(_ simulated: SimulatedBlock, full: Bool) -> JSONValue {
        guard case .object(var members) = NodeWire.block(simulated.block, full: full) else { return .null }
        members.append(("calls", .array(simulated.calls.map(call))))
        return .object(members)
    }

    static func call(_ call: SimulatedCallResult) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("returnData", NodeWire.data(call.returnData)), ("logs", .array(call.logs.map(NodeWire.log))),
            ("gasUsed", NodeWire.q(call.gasUsed)), ("maxUsedGas", NodeWire.q(call.maxUsedGas)),
            ("status", NodeWire.q(call.status ? 1 : 0)),
        ]
        if let error = call.error {
            var object: [(key: String, value: JSONValue)] = [("message", .string(error.message)), ("code", .number(String(error.code)))]
            if let data = error.data { object.append(("data", NodeWire.data(data))) }
            members.append(("error", .object(object)))
        }
        return .object(members)
    }
}
