import CarChainApp
import EthereumPrimitives
import EthereumRPC
import Foundation
import Testing

/// Issue 31: after a dev method removes the contract (`anvil_reset`) or replaces its code (`anvil_setCode` with
/// nothing, with code that reverts, with code that stops), every route of the app API answers its documented status
/// (docs/APP.md): `503 NO_CONTRACT` where the route needs the contract, `/config` a null contract — never `500 FAILED`.
@Suite struct AppContractGoneTests {
    /// The dev requests that take the contract away, by name.
    static func removals(_ contract: Address) -> [(String, String, String)] {
        let at = "\"\(contract)\""
        return [
            ("anvil_reset", "anvil_reset", "[]"),
            ("anvil_setCode (empty)", "anvil_setCode", "[\(at),\"0x\"]"),
            ("anvil_setCode (reverting code)", "anvil_setCode", "[\(at),\"0x60006000fd\"]"),
            ("anvil_setCode (code that stops)", "anvil_setCode", "[\(at),\"0x00\"]"),
        ]
    }

    @Test func everyRouteAnswersNoContractOnceTheContractIsGone() async throws {
        for index in 0..<4 {
            let h = try await AppHarness.make()
            let manager = try await h.manager()
            await h.registerCar("6789BBB", manager: manager)
            let ana = try await h.user("ana@example.com", passphrase: "ana-pass")
            let newcomer = try await h.signUp("new@example.com")
            let (name, method, params) = Self.removals(h.contract)[index]
            let answer = try JSONValue(parsing: await h.handler.handle(
                Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\(method)\",\"params\":\(params)}".utf8)) ?? [])
            #expect(answer["error"] == nil, "\(name): \(answer)")

            let config = await h.call("GET", "/config")
            #expect(config.status == 200 && config.body["contract"] == .null && config.body["manager"] == .null, "\(name): /config \(config.body)")
            let position: JSONValue = .object([("latitude", .number("40.41")), ("longitude", .number("-3.70"))])
            let routes: [(String, String, String, JSONValue?, [String: String])] = [
                ("GET", "/me", ana, nil, [:]),
                ("GET", "/me/history", ana, nil, [:]),
                ("GET", "/cars", ana, nil, [:]),
                ("GET", "/availability", ana, nil, [:]),
                ("GET", "/stats", manager, nil, [:]),
                ("GET", "/users", manager, nil, [:]),
                ("GET", "/quote", ana, nil, ["action": "rent", "plate": "6789BBB"]),
                ("POST", "/account", newcomer, write("new-pass"), [:]),
                ("POST", "/credit", ana, write("ana-pass", ("amount", .number("1"))), [:]),
                ("POST", "/rent", ana, write("ana-pass", ("plate", .string("6789BBB"))), [:]),
                ("POST", "/return", ana, write("ana-pass", ("plate", .string("6789BBB"))), [:]),
                ("POST", "/cars", manager, write(
                    "manager-pass", ("plate", .string("2353HYP")), ("latitude", .number("40.4")), ("longitude", .number("-3.7"))), [:]),
                ("POST", "/cars/6789BBB/position", manager, position, [:]),
                // (GET /transactions/HASH reads a receipt, not the contract: it keeps answering.)
                ("POST", "/prepare", ana, .object([("action", .string("credit")), ("amount", .number("1"))]), [:]),
            ]
            for (verb, path, token, body, query) in routes {
                let response = await h.call(verb, path, token: token, body: body, query: query)
                #expect(
                    response.status == 503 && code(response) == "NO_CONTRACT",
                    "\(name): \(verb) \(path) answered \(response.status) \(response.body)")
            }
            await h.close()
        }
    }
}
