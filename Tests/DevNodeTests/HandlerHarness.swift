import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// A handler over a fresh deterministic in-memory chain, with helpers that send JSON text and read
/// the answer as ``JSONValue``.
struct HandlerHarness {
    let chain: DevChain
    let handler: NodeRPCHandler

    static let account0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
    static let account1 = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"

    /// `hardfork`: the chain's fork (default: the dev chain's, Osaka); tests of figures that Osaka's EIP-7825 cap
    /// would change pin Cancun.
    static func make(limits: NodeRPCHandler.Limits = .init(), hardfork: Hardfork? = nil) async throws -> HandlerHarness {
        var config = ChainConfig.deterministic()
        if let hardfork { config.hardfork = hardfork }
        let chain = try await DevChain(config: config)
        return HandlerHarness(chain: chain, handler: NodeRPCHandler(chain: chain, limits: limits))
    }

    /// Sends `body` and parses the answer.
    func raw(_ body: String) async throws -> JSONValue {
        try await raw(Array(body.utf8))
    }

    func raw(_ body: [UInt8]) async throws -> JSONValue {
        let answer = await handler.handle(body)
        return try JSONValue(parsing: answer)
    }

    /// Calls `method` with `params` (JSON text of the array) and returns the whole answer object.
    func answer(_ method: String, _ params: String = "[]") async throws -> JSONValue {
        try await raw("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"\(method)\",\"params\":\(params)}")
    }

    /// The result, failing the test on an error answer.
    func result(_ method: String, _ params: String = "[]", sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let answer = try await answer(method, params)
        #expect(answer["error"] == nil, "\(method) failed: \(answer)", sourceLocation: sourceLocation)
        #expect(answer["id"] == .number("7"), sourceLocation: sourceLocation)
        return answer["result"] ?? .null
    }

    /// The error code of an error answer (nil for a result).
    func errorCode(_ method: String, _ params: String = "[]") async throws -> Int? {
        let answer = try await answer(method, params)
        return answer["error"]?["code"].flatMap { Int($0.description) }
    }

    /// Sends a transaction from a dev account and returns its hash.
    func send(from: String = account0, to: String? = nil, data: String? = nil, value: String? = nil, gas: String? = nil) async throws -> String {
        var members = ["\"from\":\"\(from)\""]
        if let to { members.append("\"to\":\"\(to)\"") }
        if let data { members.append("\"data\":\"\(data)\"") }
        if let value { members.append("\"value\":\"\(value)\"") }
        if let gas { members.append("\"gas\":\"\(gas)\"") }
        let hash = try await result("eth_sendTransaction", "[{\(members.joined(separator: ","))}]")
        return try #require(hash.stringValue)
    }
}

extension JSONValue {
    /// A quantity result as UInt64.
    var quantity: UInt64? {
        guard let text = stringValue, text.hasPrefix("0x") else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }
}
