import CarChain
import CarChainKit
import EthereumPrimitives
import EthereumWire

/// One watched event as one line: readable text, or a JSON object (`--json`). Plates and user ids are the
/// contract's strings, so anything a terminal or a line-based reader could misread (spaces, `=`, quotes,
/// control characters, nothing at all) is printed JSON-quoted.
enum WatchLine {
    /// `block 12  CarRented      plate=ABC-123 user=alice` (`account=none`: the manager registered the id).
    static func text(_ record: RecordedCarChainEvent) -> String {
        let name = record.event.name
        let padded = name + String(repeating: " ", count: max(1, 15 - name.count))
        return "block \(record.blockNumber)  \(padded)" + fields(record.event).map { "\($0.key)=\(plain($0.value))" }.joined(separator: " ")
    }

    /// `{"block":12,"event":"CarRented","logIndex":0,"plate":"ABC-123","transaction":"0x…","userId":"alice"}`
    /// (amounts as decimal strings: a uint256 does not fit a JSON number everywhere).
    static func json(_ record: RecordedCarChainEvent) -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("block", .number(String(record.blockNumber))), ("event", .string(record.event.name)),
        ]
        if let index = record.logIndex { members.append(("logIndex", .number(String(index)))) }
        if let hash = record.transactionHash { members.append(("transaction", .string(Hex.encode(hash.bytes)))) }
        for field in jsonFields(record.event) { members.append((field.key, .string(field.value))) }
        return JSONValue.object(members).description
    }

    /// The text form's fields, short names.
    private static func fields(_ event: CarChainEvent) -> [(key: String, value: String)] {
        switch event {
        case .userRegistered(let user, let account):
            return [("user", user), ("account", account == Address.zero ? "none" : account.checksummed)]
        case .carRegistered(let plate): return [("plate", plate)]
        case .carRented(let plate, let user), .carReturned(let plate, let user): return [("plate", plate), ("user", user)]
        case .creditAdded(let user, let amount, let balance):
            return [("user", user), ("amount", amount.description), ("balance", balance.description)]
        }
    }

    /// The JSON form's fields, named as the contract's event parameters.
    private static func jsonFields(_ event: CarChainEvent) -> [(key: String, value: String)] {
        switch event {
        case .userRegistered(let user, let account): return [("userId", user), ("account", account.checksummed)]
        case .carRegistered(let plate): return [("plate", plate)]
        case .carRented(let plate, let user), .carReturned(let plate, let user): return [("plate", plate), ("userId", user)]
        case .creditAdded(let user, let amount, let balance):
            return [("userId", user), ("amount", amount.description), ("newBalance", balance.description)]
        }
    }

    /// `value` as is when it is plain printable text without spaces, `=` or quotes; JSON-quoted otherwise.
    private static func plain(_ value: String) -> String {
        let safe = !value.isEmpty && value.unicodeScalars.allSatisfy { s in
            s.value > 0x20 && s.value != 0x7F && s != "=" && s != "\"" && s != "\\" && !(0x80...0x9F).contains(s.value)
                && s.properties.generalCategory != .format && s.properties.generalCategory != .lineSeparator
                && s.properties.generalCategory != .paragraphSeparator && s.properties.generalCategory != .spaceSeparator
        }
        return safe ? value : JSONValue.quote(value)
    }
}
