import DevNode
import EthereumPrimitives

/// Checks that a node's answer is valid JSON-RPC 2.0: JSON; an object, or for a batch an array of objects; each
/// with `"jsonrpc":"2.0"`, an `id` (number, string or null) and exactly one of `result` and `error`, the error
/// with an integer `code` and a string `message`. Given what was sent, also that every request with an id is
/// answered once, with its id, and notifications are not.
enum JSONRPCResponseCheck {
    /// One request object as sent: its id, nil for a notification.
    struct Sent {
        var id: JSONValue?
    }

    /// nil when the answer is valid, else what is wrong.
    static func check(_ answer: [UInt8], for sent: [Sent]?, batch: Bool?) -> String? {
        if answer.isEmpty {
            if let sent, sent.contains(where: { $0.id != nil }) { return "empty answer to requests with ids" }
            return nil
        }
        let document: JSONValue
        do { document = try JSONParser.parse(answer) } catch {
            return "answer is not JSON (\(error)): \(String(decoding: answer.prefix(300), as: UTF8.self))"
        }
        let objects: [JSONValue]
        switch document {
        case .array(let items):
            if batch == false { return "an array answers a single request" }
            guard !items.isEmpty else { return "empty array answer" }
            objects = items
        case .object:
            // A batch that fails as a whole (too long, empty) is answered with one error object.
            objects = [document]
        default:
            return "answer is neither an object nor an array: \(document.description.prefix(200))"
        }
        var answeredIDs: [JSONValue] = []
        for object in objects {
            if let problem = shapeProblem(object) { return "\(problem): \(object.description.prefix(300))" }
            answeredIDs.append(object["id"] ?? .null)
        }
        guard let sent else { return nil }
        guard case .array = document else {
            if objects.first?["error"] == nil, batch == true { return "a batch answered with a single result" }
            return nil
        }
        let expected = sent.compactMap(\.id).filter(isValidID)
        if objects.count > sent.count { return "\(objects.count) answers to \(sent.count) requests" }
        for id in expected where !answeredIDs.contains(id) { return "request \(id) not answered" }
        for id in answeredIDs where id != .null && !expected.contains(id) { return "answer with id \(id) that was not sent" }
        return nil
    }

    private static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .null, .number, .string: return true
        default: return false
        }
    }

    /// What is wrong with one response object, or nil.
    static func shapeProblem(_ object: JSONValue) -> String? {
        guard case .object(let members) = object else { return "response is not an object" }
        var keys = Set<String>()
        for (key, _) in members {
            guard keys.insert(key).inserted else { return "duplicate member \(key)" }
            guard ["jsonrpc", "id", "result", "error"].contains(key) else { return "unexpected member \(key)" }
        }
        guard object["jsonrpc"] == .string("2.0") else { return "jsonrpc is not \"2.0\"" }
        guard let id = object["id"] else { return "no id" }
        guard isValidID(id) else { return "id is not a number, string or null" }
        switch (object["result"], object["error"]) {
        case (nil, nil): return "neither result nor error"
        case (.some, .some): return "both result and error"
        case (nil, let error?):
            guard case .number(let code)? = error["code"], Int(code) != nil else { return "error code is not an integer" }
            guard case .string? = error["message"] else { return "error message is not a string" }
            guard case .object(let errorMembers) = error else { return "error is not an object" }
            for (key, _) in errorMembers where !["code", "message", "data"].contains(key) {
                return "unexpected error member \(key)"
            }
        default: break
        }
        return nil
    }
}
