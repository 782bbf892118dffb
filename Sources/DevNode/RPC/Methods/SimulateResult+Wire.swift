import Chain
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// `eth_simulateV1`'s result as geth writes it: each block as `eth_getBlockByNumber` shows a block (transaction
/// hashes, or with `returnFullTransactions` the transactions with their senders), plus `calls`: per call
/// `returnData`, `logs`, `gasUsed`, `maxUsedGas`, `status` and, when it failed, `error` {code, message, data}.
enum SimulateResultWire {
    static func blocks(_ blocks: [SimulatedBlock], fullTransactions: Bool) -> JSONValue {
        .array(blocks.map { block($0, full: fullTransactions) })
    }

    static func block(_ simulated: SimulatedBlock, full: Bool) -> JSONValue {
        let timestamp = NodeWire.q(simulated.block.header.timestamp)
        guard case .object(var members) = NodeWire.block(simulated.block, full: full) else { return .null }
        // geth's block objects no longer carry totalDifficulty; a simulated block's size counts its withdrawals.
        members.removeAll { $0.key == "totalDifficulty" }
        set(&members, "size", NodeWire.q(simulated.size))
        if members.contains(where: { $0.key == "withdrawals" }) {
            set(&members, "withdrawals", .array(simulated.withdrawals.map(withdrawal)))
        }
        if full, let index = members.firstIndex(where: { $0.key == "transactions" }),
            case .array(let transactions) = members[index].value
        {
            members[index].value = .array(transactions.map { addTimestamp($0, timestamp) })
        }
        members.append(("calls", .array(simulated.calls.map { call($0, timestamp: timestamp) })))
        return .object(members)
    }

    static func call(_ call: SimulatedCallResult, timestamp: JSONValue) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("returnData", NodeWire.data(call.returnData)),
            ("logs", .array(call.logs.map { addTimestamp(NodeWire.log($0), timestamp) })),
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

    static func withdrawal(_ w: Withdrawal) -> JSONValue {
        .object([
            ("index", NodeWire.q(w.index)), ("validatorIndex", NodeWire.q(w.validatorIndex)),
            ("address", NodeWire.address(w.address)), ("amount", NodeWire.q(w.amount)),
        ])
    }

    /// Adds `blockTimestamp` to a log or transaction object that lacks it (geth writes it on both).
    private static func addTimestamp(_ value: JSONValue, _ timestamp: JSONValue) -> JSONValue {
        guard case .object(var members) = value, !members.contains(where: { $0.key == "blockTimestamp" }) else { return value }
        members.append(("blockTimestamp", timestamp))
        return .object(members)
    }

    private static func set(_ members: inout [(key: String, value: JSONValue)], _ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value } else { members.append((key, value)) }
    }
}
