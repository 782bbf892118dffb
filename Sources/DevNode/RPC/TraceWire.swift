import Chain
import EVM
import EthereumPrimitives
import EthereumWire

/// The JSON of the tracers' answers, in the shapes geth's built-in tracers write (members in geth's order, keys of
/// maps sorted as Go's encoder sorts them, quantities as minimal hex, data as hex, addresses lowercase).
extension NodeWire {
    static func trace(_ result: TraceResult) -> JSONValue {
        switch result {
        case .structLogs(let steps): return trace(steps)
        case .callFrame(let frame): return callFrame(frame)
        case .prestate(.accounts(let accounts)): return prestate(accounts)
        case .prestate(.diff(let pre, let post)): return .object([("post", prestate(post)), ("pre", prestate(pre))])
        case .fourByte(let counts):
            return .object(counts.sorted { $0.key < $1.key }.map { (key: $0.key, value: .number(String($0.value))) })
        case .noop: return .object([])
        }
    }

    /// geth's `callTracer` frame: `output`, `error`, `revertReason`, `calls`, `logs` only when set, `to` missing
    /// for a failed creation, `value` missing for STATICCALL.
    static func callFrame(_ frame: CallFrame) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("from", address(frame.from)), ("gas", q(frame.gas)), ("gasUsed", q(frame.gasUsed)),
        ]
        if let to = frame.to { members.append(("to", address(to))) }
        members.append(("input", data(frame.input)))
        if !frame.output.isEmpty { members.append(("output", data(frame.output))) }
        if let error = frame.error { members.append(("error", .string(error))) }
        if let reason = frame.revertReason, !reason.isEmpty { members.append(("revertReason", .string(reason))) }
        if !frame.calls.isEmpty { members.append(("calls", .array(frame.calls.map(callFrame)))) }
        if !frame.logs.isEmpty {
            members.append((
                "logs",
                .array(
                    frame.logs.map { entry in
                        .object([
                            ("address", address(entry.log.address)), ("topics", .array(entry.log.topics.map(hash))),
                            ("data", data(entry.log.data)), ("index", q(entry.index)), ("position", q(entry.position)),
                        ])
                    })
            ))
        }
        if let value = frame.value { members.append(("value", q(value))) }
        members.append(("type", .string(frame.type.rawValue)))
        return .object(members)
    }

    /// geth's `prestateTracer` accounts by address: `balance`, `code`, `codeHash`, `nonce` (a JSON number),
    /// `storage` (32-byte slots and values), each only when set.
    static func prestate(_ accounts: [Address: PrestateAccount]) -> JSONValue {
        .object(
            accounts.sorted { $0.key.lowercasedHex < $1.key.lowercasedHex }.map { address, account in
                var members: [(key: String, value: JSONValue)] = []
                if let balance = account.balance { members.append(("balance", q(balance))) }
                if let code = account.code { members.append(("code", data(code))) }
                if let codeHash = account.codeHash { members.append(("codeHash", hash(codeHash))) }
                if account.nonce != 0 { members.append(("nonce", .number(String(account.nonce)))) }
                if !account.storage.isEmpty {
                    let slots = account.storage.sorted { $0.key < $1.key }.map { slot in
                        (key: Hex.encode(slot.key.bigEndianBytes), value: JSONValue.string(Hex.encode(slot.value.bigEndianBytes)))
                    }
                    members.append(("storage", .object(slots)))
                }
                return (key: address.lowercasedHex, value: .object(members))
            })
    }
}
