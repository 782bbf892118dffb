import CarChain
import CarChainApp
import CarChainKit
import EthereumCrypto
import EthereumPrimitives
import Foundation
import Testing

/// Issue 31: a dev node's methods can take the contract away (`anvil_setCode` with empty or foreign code,
/// `anvil_reset`). Every route of the app API then answers as docs/APP.md says — `503 NO_CONTRACT` where it needs the
/// contract, `GET /config` with `contract` null and the reason, the routes that need no contract as before — never
/// `500`. Putting CarChain's code back makes it work again.
@Suite("app API without its contract") struct AppContractGoneTests {
    /// Every route, as a signed-in user (or the manager for the manager's routes) sends it.
    static func everyRoute(user: String, manager: String) -> [(method: String, path: String, token: String?, body: JSONValue?, query: [String: String])] {
        let raw = "0x02f86b0480843b9aca00847735940083030d4094" + String(repeating: "11", count: 20) + "8080c080a0" + String(repeating: "22", count: 32)
            + "a0" + String(repeating: "33", count: 32)
        return [
            ("GET", "/me", user, nil, [:]),
            ("GET", "/me/history", user, nil, [:]),
            ("GET", "/cars", user, nil, [:]),
            ("GET", "/cars", user, nil, ["near": "40.4168,-3.7038", "radius": "2km"]),
            ("GET", "/availability", user, nil, [:]),
            ("GET", "/stats", manager, nil, [:]),
            ("GET", "/users", manager, nil, [:]),
            ("GET", "/quote", user, nil, ["action": "rent", "plate": "6789BBB"]),
            ("GET", "/quote", user, nil, ["action": "credit", "amount": "2"]),
            ("POST", "/rent", user, write("wallet-pass", ("plate", .string("6789BBB"))), [:]),
            ("POST", "/return", user, write("wallet-pass"), [:]),
            ("POST", "/credit", user, write("wallet-pass", ("amount", .number("2"))), [:]),
            ("POST", "/cars", manager, write("manager-pass", ("plate", .string("1234BCD")), ("latitude", .number("40.4")), ("longitude", .number("-3.7"))), [:]),
            ("POST", "/cars/6789BBB/position", manager, .object([("latitude", .number("40.4")), ("longitude", .number("-3.7"))]), [:]),
            ("POST", "/prepare", user, .object([("action", .string("rent")), ("plate", .string("6789BBB"))]), [:]),
            ("POST", "/transactions", user, .object([("raw", .string(raw))]), [:]),
        ]
    }

    /// Sends `method` with `params` (JSON text) to the node's handler.
    static func rpc(_ h: AppHarness, _ method: String, _ params: String) async throws {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        let answer = try JSONValue(parsing: await h.handler.handle(Array(body.utf8)))
        #expect(answer["error"] == nil, "\(method): \(answer)")
    }

    /// Checks every route against the contract's absence (`reason` in the message).
    static func expectNoContract(_ h: AppHarness, user: String, manager: String, reason: String, _ what: Comment) async throws {
        let config = await h.call("GET", "/config")
        #expect(config.status == 200, what)
        #expect(config.body["contract"] == .null, what)
        #expect(config.body["noContract"]?.stringValue?.contains(reason) == true, "\(what): \(config.body)")
        for route in everyRoute(user: user, manager: manager) {
            let answer = await h.call(route.method, route.path, token: route.token, body: route.body, query: route.query)
            #expect(answer.status == 503, "\(what): \(route.method) \(route.path) answered \(answer.status) \(answer.body)")
            #expect(code(answer) == "NO_CONTRACT", "\(what): \(route.method) \(route.path): \(answer.body)")
            #expect(answer.body["error"]?["message"]?.stringValue?.contains(reason) == true, "\(what): \(route.method) \(route.path): \(answer.body)")
        }
        let newcomer = try await h.signUp("new-\(UUID().uuidString.prefix(8))@example.com")
        let setup = await h.call("POST", "/account", token: newcomer, body: write("new-pass"))
        #expect(setup.status == 503 && code(setup) == "NO_CONTRACT", "\(what): POST /account: \(setup.body)")
        // What needs no contract answers as before.
        #expect((await h.call("GET", "/head")).status == 200, what)
        let unknown = await h.call("GET", "/transactions/0x" + String(repeating: "ab", count: 32), token: user)
        #expect(unknown.status == 200 && unknown.body["status"]?.stringValue == "pending", "\(what): \(unknown.body)")
    }

    @Test("anvil_setCode empty, anvil_setCode foreign (empty answers, 32 zero bytes), anvil_reset: 503 NO_CONTRACT on every route")
    func contractRemoved() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        let manager = try await h.manager()
        await h.registerCar("6789BBB", manager: manager)
        let user = try await h.user("ana@example.com")
        #expect((await h.call("GET", "/me", token: user)).status == 200)
        let original = Hex.encode(try await h.client.code(at: h.contract))
        let address = h.contract.checksummed

        try await Self.rpc(h, "anvil_setCode", #"["\#(address)","0x"]"#)
        try await Self.expectNoContract(h, user: user, manager: manager, reason: "No CarChain contract at \(address)", "code removed")

        // Foreign code: STOP (every call answers nothing), then one that answers 32 zero bytes to anything.
        for foreign in ["0x00", "0x60206000f3"] {
            try await Self.rpc(h, "anvil_setCode", #"["\#(address)","\#(foreign)"]"#)
            try await Self.expectNoContract(h, user: user, manager: manager, reason: "is not CarChain", "foreign code \(foreign)")
        }

        // CarChain's code back: everything answers again (the state was kept).
        try await Self.rpc(h, "anvil_setCode", #"["\#(address)","\#(original)"]"#)
        let me = await h.call("GET", "/me", token: user)
        #expect(me.status == 200 && me.body["registered"] == .bool(true), "\(me.body)")
        #expect((await h.call("GET", "/cars", token: user)).body["total"]?.description == "1")

        // A reset to genesis: the contract's deployment is gone.
        try await Self.rpc(h, "anvil_reset", "[]")
        try await Self.expectNoContract(h, user: user, manager: manager, reason: "No CarChain contract at \(address)", "anvil_reset")
    }
}
