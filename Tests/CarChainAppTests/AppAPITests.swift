import AuthEmulator
import CarChain
import CarChainApp
import CarChainKit
import Chain
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import Foundation
import Testing

/// The app API without a browser: every endpoint and its errors, against the contract's own views and the node's
/// own answers (eth_estimateGas, eth_gasPrice, receipts) as the independent truth.
@Suite("app API") struct AppAPITests {
    @Test("GET /config needs no token and names the chain, the contract and the manager")
    func config() async throws {
        let h = try await AppHarness.make(ethPriceMicros: UInt256(3_000_000_000 as UInt64))
        defer { Task { await h.close() } }
        let answer = await h.call("GET", "/config")
        #expect(answer.status == 200)
        #expect(answer.body["chainId"]?.description == "4")
        #expect(answer.body["contract"]?.stringValue == h.contract.checksummed)
        #expect(answer.body["manager"]?.stringValue == AppHarness.managerKey.address.checksummed)
        #expect(answer.body["projectId"]?.stringValue == "demo-carchain")
        #expect(answer.body["ethPrice"]?.stringValue == "3000")
    }

    @Test("tokens: none, malformed, another key, another project, expired — each refused with its code")
    func tokens() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        #expect(code(await h.call("GET", "/me")) == "UNAUTHENTICATED")
        #expect((await h.call("GET", "/me")).status == 401)
        #expect(code(await h.call("GET", "/me", token: "not.a.jwt")) == "INVALID_TOKEN")
        // Signed by another key: a forged token.
        let other = try await AuthEmulator.ephemeral()
        let forged = try await AuthClient.inProcess(other).signUp(email: "eve@example.com", password: "password1").idToken
        #expect(code(await h.call("GET", "/me", token: forged)) == "INVALID_TOKEN")
        // The right key, another project (audience and issuer).
        let otherProject = try AuthEmulator(
            store: try AuthStore.inMemory(), signer: try await AppTestKeys.shared.value, projectId: "demo-other",
            policy: AuthPolicy(scrypt: ScryptParameters(logN: 10, r: 8, p: 1)))
        let foreign = try await AuthClient.inProcess(otherProject).signUp(email: "eve@example.com", password: "password1").idToken
        let wrongAudience = await h.call("GET", "/me", token: foreign)
        #expect(code(wrongAudience) == "INVALID_TOKEN")
        #expect(wrongAudience.body["error"]?["message"]?.stringValue?.contains("expected https://securetoken.google.com/demo-carchain") == true)
        // Issued two hours ago: expired an hour ago.
        h.clock.advance(by: -7200)
        let old = try await h.signUp("old@example.com")
        h.clock.advance(by: 7200)
        #expect(code(await h.call("GET", "/me", token: old)) == "TOKEN_EXPIRED")
        // A valid one is accepted.
        #expect((await h.call("GET", "/me", token: try await h.signUp("ok@example.com"))).status == 200)
    }

    @Test("account setup: a key on the server, funded and registered from its own account; errors say what is wrong")
    func accountSetup() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        let token = try await h.signUp("ana@example.com")
        let before = await h.call("GET", "/me", token: token)
        #expect(before.body["address"] == .null && before.body["registered"] == .bool(false))
        #expect(code(await h.call("POST", "/account", token: token, body: .object([]))) == "BAD_REQUEST")
        let badKey = await h.call("POST", "/account", token: token, body: write("p", ("privateKey", .string("0xnot-a-secret-key"))))
        #expect(code(badKey) == "BAD_REQUEST")
        #expect(!badKey.body.description.contains("not-a-secret-key"))
        #expect(code(await h.call("POST", "/account", token: token, body: .string("x"))) == "BAD_REQUEST")
        let setup = await h.call("POST", "/account", token: token, body: write("wallet-pass"))
        #expect(setup.status == 200, "\(setup.body)")
        #expect(setup.body["registered"] == .bool(true))
        #expect(setup.body["keystore"] == nil)
        let address = try Address(try #require(setup.body["address"]?.stringValue))
        // The chain's own views agree.
        let contract = try await ChainSession.reading(
            ChainConnection(url: nil, dataDirectory: URL(fileURLWithPath: "/nonexistent"), contract: h.contract), over: h.client
        ).contract()
        let me = await h.call("GET", "/me", token: token)
        let uid = try #require(me.body["uid"]?.stringValue)
        #expect(try await contract.getUserAccount(uid) == address)
        #expect(me.body["role"]?.stringValue == "user" && me.body["registered"] == .bool(true) && me.body["serverHoldsKey"] == .bool(true))
        #expect(me.body["balanceWei"]?.stringValue == (try await h.client.balance(of: address)).description)
        #expect(code(await h.call("POST", "/account", token: token, body: write("wallet-pass"))) == "ALREADY_SET_UP")
    }

    @Test("the manager registers and places cars; a user is refused before any passphrase is checked")
    func registerCars() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        let manager = try await h.manager()
        let me = await h.call("GET", "/me", token: manager)
        #expect(me.body["role"]?.stringValue == "manager")
        await h.registerCar("6789BBB", manager: manager, at: (40.4170, -3.7030))
        let cars = await h.call("GET", "/cars", token: manager)
        let car = try #require(cars.body["cars"]?.arrayValue?.first)
        #expect(car["plate"]?.stringValue == "6789BBB" && car["status"]?.stringValue == "available")
        #expect(car["latitude"]?.description == "40.417")
        #expect(code(await h.call("POST", "/cars", token: manager, body: write(
            "manager-pass", ("plate", .string("6789BBB")), ("latitude", .number("40.4")), ("longitude", .number("-3.7"))))) == "CAR_EXISTS")
        #expect(code(await h.call("POST", "/cars", token: manager, body: write(
            "manager-pass", ("plate", .string("car-1")), ("latitude", .number("40.4")), ("longitude", .number("-3.7"))))) == "BAD_REQUEST")
        #expect(code(await h.call("POST", "/cars", token: manager, body: write(
            "manager-pass", ("plate", .string("1111BBB")), ("latitude", .number("95")), ("longitude", .number("-3.7"))))) == "BAD_REQUEST")
        #expect(code(await h.call("POST", "/cars", token: manager, body: write(
            "wrong", ("plate", .string("1111BBB")), ("latitude", .number("40.4")), ("longitude", .number("-3.7"))))) == "WRONG_PASSPHRASE")
        let user = try await h.user("bob@example.com")
        let refused = await h.call("POST", "/cars", token: user, body: write(
            "not-even-his", ("plate", .string("2353HYP")), ("latitude", .number("40.4")), ("longitude", .number("-3.7"))))
        #expect(code(refused) == "NOT_MANAGER" && refused.status == 403)
        #expect(code(await h.call("POST", "/cars/6789BBB/position", token: user, body: .object([
            ("latitude", .number("40.41")), ("longitude", .number("-3.70")),
        ]))) == "NOT_MANAGER")
        // Moving a car (telemetry): the manager only, a car registered on chain only.
        let moved = await h.call("POST", "/cars/6789BBB/position", token: manager, body: .object([
            ("latitude", .number("40.41")), ("longitude", .number("-3.70")),
        ]))
        #expect(moved.body["car"]?["latitude"]?.description == "40.41")
        #expect(code(await h.call("POST", "/cars/9999ZZZ/position", token: manager, body: .object([
            ("latitude", .number("40.41")), ("longitude", .number("-3.70")),
        ]))) == "NO_SUCH_CAR")
        #expect(code(await h.call("GET", "/users", token: user)) == "NOT_MANAGER")
    }

    @Test("credit, rent, a second rent, a taken car, the manager renting, return: each answer matches the contract")
    func rentAndReturn() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        let manager = try await h.manager()
        await h.registerCar("6789BBB", manager: manager)
        await h.registerCar("2353HYP", manager: manager, at: (40.4180, -3.7050))
        let ana = try await h.user("ana@example.com", passphrase: "ana-pass")
        let bob = try await h.user("bob@example.com", passphrase: "bob-pass")
        #expect(code(await h.call("POST", "/rent", token: ana, body: write("ana-pass", ("plate", .string("6789BBB"))))) == "NO_CREDIT")
        for bad in ["0", "1000", "abc", "1.5"] {
            #expect(code(await h.call("POST", "/credit", token: ana, body: write("ana-pass", ("amount", .string(bad))))) == "BAD_REQUEST", "\(bad)")
        }
        let credit = await h.call("POST", "/credit", token: ana, body: write("ana-pass", ("amount", .number("3"))))
        #expect(credit.body["status"]?.stringValue == "success", "\(credit.body)")
        #expect((await h.call("GET", "/me", token: ana)).body["credit"]?.stringValue == "3")
        let wrong = await h.call("POST", "/rent", token: ana, body: write("not-ana-pass", ("plate", .string("6789BBB"))))
        #expect(code(wrong) == "WRONG_PASSPHRASE" && wrong.status == 403)
        #expect(!wrong.body.description.contains("not-ana-pass"))
        let rented = await h.call("POST", "/rent", token: ana, body: write("ana-pass", ("plate", .string("6789BBB"))))
        #expect(rented.body["status"]?.stringValue == "success", "\(rented.body)")
        let rentHash = try Bytes32(hex: try #require(rented.body["transactionHash"]?.stringValue))
        let receipt = try #require(try await h.client.receipt(rentHash))
        #expect(rented.body["gasUsed"]?.description == String(receipt.gasUsed))
        // Ana sees her car; Bob sees it rented, without Ana's uid; the manager sees the renter.
        let anaCars = await h.call("GET", "/cars", token: ana, query: ["q": "6789"])
        #expect(anaCars.body["cars"]?[0]?["status"]?.stringValue == "mine")
        let bobCars = await h.call("GET", "/cars", token: bob, query: ["q": "6789bbb"])
        #expect(bobCars.body["cars"]?[0]?["status"]?.stringValue == "rented" && bobCars.body["cars"]?[0]?["renter"] == nil)
        let anaUID = try #require((await h.call("GET", "/me", token: ana)).body["uid"]?.stringValue)
        #expect((await h.call("GET", "/cars", token: manager, query: ["q": "6789BBB"])).body["cars"]?[0]?["renter"]?.stringValue == anaUID)
        let availability = await h.call("GET", "/availability", token: bob)
        #expect(availability.body["cars"]?["6789BBB"]?.stringValue == "rented")
        #expect(availability.body["available"]?.description == "1" && availability.body["rented"]?.description == "1")
        #expect(code(await h.call("POST", "/rent", token: ana, body: write("ana-pass", ("plate", .string("2353HYP"))))) == "ALREADY_RENTING")
        #expect(code(await h.call("POST", "/credit", token: bob, body: write("bob-pass", ("amount", .number("1"))))) == nil)
        #expect(code(await h.call("POST", "/rent", token: bob, body: write("bob-pass", ("plate", .string("6789BBB"))))) == "CAR_TAKEN")
        #expect(code(await h.call("POST", "/rent", token: bob, body: write("bob-pass", ("plate", .string("1234XYZ"))))) == "NO_SUCH_CAR")
        #expect(code(await h.call("POST", "/rent", token: manager, body: write("manager-pass", ("plate", .string("2353HYP"))))) == "MANAGER_CANNOT_RENT")
        #expect(code(await h.call("POST", "/return", token: bob, body: write("bob-pass"))) == "NOT_RENTING")
        #expect(code(await h.call("POST", "/return", token: bob, body: write("bob-pass", ("plate", .string("6789BBB"))))) == "NOT_YOUR_CAR")
        let returned = await h.call("POST", "/return", token: ana, body: write("ana-pass"))
        #expect(returned.body["status"]?.stringValue == "success", "\(returned.body)")
        let me = await h.call("GET", "/me", token: ana)
        #expect(me.body["car"] == .null && me.body["credit"]?.stringValue == "2")
        // The history, rebuilt from events, lists both, with the blocks of the receipts.
        let history = await h.call("GET", "/me/history", token: ana)
        let rental = try #require(history.body["rentals"]?[0])
        #expect(rental["plate"]?.stringValue == "6789BBB" && rental["rentedBlock"]?.description == String(receipt.blockNumber))
        #expect(rental["returnedBlock"]?.description == returned.body["blockNumber"]?.description)
        #expect(history.body["topUps"]?[0]?["amount"]?.stringValue == "3")
    }

    @Test("stats and users: the utilisation series ends at the contract's counters; users carry their emails")
    func statsAndUsers() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        let manager = try await h.manager()
        for (i, plate) in ["6789BBB", "2353HYP", "5432TPK"].enumerated() {
            await h.registerCar(plate, manager: manager, at: (40.416 + Double(i) * 0.001, -3.703))
        }
        let ana = try await h.user("ana@example.com", passphrase: "ana-pass")
        _ = await h.call("POST", "/credit", token: ana, body: write("ana-pass", ("amount", .number("2"))))
        _ = await h.call("POST", "/rent", token: ana, body: write("ana-pass", ("plate", .string("2353HYP"))))
        let stats = await h.call("GET", "/stats", token: ana)
        let last = try #require(stats.body["utilisation"]?.arrayValue?.last)
        #expect(stats.body["registeredCars"]?.stringValue == "3" && stats.body["rentedCars"]?.stringValue == "1")
        #expect(stats.body["availableCars"]?.stringValue == "2" && stats.body["registeredUsers"]?.stringValue == "2")
        #expect(last["registered"]?.description == "3" && last["rented"]?.description == "1")
        let users = try #require((await h.call("GET", "/users", token: manager)).body["users"]?.arrayValue)
        let emails = users.compactMap { $0["email"]?.stringValue }
        #expect(emails.sorted() == ["ana@example.com", "manager@example.com"])
        let anaRow = try #require(users.first { $0["email"]?.stringValue == "ana@example.com" })
        #expect(anaRow["car"]?.stringValue == "2353HYP" && anaRow["credit"]?.stringValue == "1" && anaRow["role"]?.stringValue == "user")
    }

    @Test("a quote is the node's estimate at the node's gas price, in ETH and USD; refusals come before it")
    func quote() async throws {
        let h = try await AppHarness.make(ethPriceMicros: UInt256(3_512_250_000 as UInt64))
        defer { Task { await h.close() } }
        let manager = try await h.manager()
        await h.registerCar("6789BBB", manager: manager)
        let ana = try await h.user("ana@example.com", passphrase: "ana-pass")
        #expect(code(await h.call("GET", "/quote", token: ana, query: ["action": "rent", "plate": "6789BBB"])) == "NO_CREDIT")
        _ = await h.call("POST", "/credit", token: ana, body: write("ana-pass", ("amount", .number("1"))))
        let quote = await h.call("GET", "/quote", token: ana, query: ["action": "rent", "plate": "6789BBB"])
        #expect(quote.status == 200, "\(quote.body)")
        let gas = try #require(quote.body["gas"].flatMap { UInt64($0.description) })
        let gasPrice = try await h.client.gasPrice()
        #expect(quote.body["gasPriceWei"]?.stringValue == gasPrice.description)
        let fee = UInt256(gas) * gasPrice
        #expect(quote.body["feeWei"]?.stringValue == fee.description)
        #expect(quote.body["feeEth"]?.stringValue == Units.format(fee, as: .ether))
        // USD, computed here with Foundation's decimal arithmetic: wei × price / 10^18, to 4 places.
        var usd = (Decimal(string: fee.description)! * Decimal(string: "3512.25")!) / Decimal(string: "1000000000000000000")!
        var rounded = Decimal()
        NSDecimalRound(&rounded, &usd, 4, .plain)
        let text = try #require(quote.body["feeUsd"]?.stringValue)
        #expect(Decimal(string: text) == rounded, "\(text) vs \(rounded)")
        #expect(quote.body["gasLimit"]?.description == String(gas + gas / 5))
        // The mined rental uses no more than the estimate.
        let rented = await h.call("POST", "/rent", token: ana, body: write("ana-pass", ("plate", .string("6789BBB"))))
        let used = try #require(rented.body["gasUsed"].flatMap { UInt64($0.description) })
        #expect(used <= gas && gas - used < 3000, "estimate \(gas), used \(used)")
        #expect(code(await h.call("GET", "/quote", token: ana, query: ["action": "fly"])) == "BAD_REQUEST")
        #expect(code(await h.call("GET", "/quote", token: ana, query: ["action": "registerCar", "plate": "1111BBB"])) == "NOT_MANAGER")
        #expect(code(await h.call("GET", "/quote", token: ana, query: ["action": "credit", "amount": "0"])) == "BAD_REQUEST")
    }

    @Test("the wallet path: link by personal_sign, register and rent through eth_sendTransaction, follow by hash")
    func walletPath() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        let manager = try await h.manager()
        await h.registerCar("6789BBB", manager: manager)
        let token = try await h.signUp("wally@example.com")
        let uid = try #require((await h.call("GET", "/me", token: token)).body["uid"]?.stringValue)
        let key = try DevAccounts.key(index: 3)
        let address = key.address
        // The node signs for its dev accounts (personal_sign), as the test provider in the browser asks it to.
        let message = AppAPI.walletLinkMessage(uid: uid, email: "wally@example.com", address: address, chainID: 4)
        let signed = try await h.client.request("personal_sign", [.string(Hex.encode(Array(message.utf8))), .string(address.checksummed)])
        let signature = try #require(signed.stringValue)
        let wrong = PersonalMessage.sign(Array("something else".utf8), with: key)
        #expect(code(await h.call("POST", "/account", token: token, body: .object([("wallet", .object([
            ("address", .string(address.checksummed)), ("signature", .string(Hex.encode(wrong.rsv))),
        ]))]))) == "BAD_SIGNATURE")
        let linked = await h.call("POST", "/account", token: token, body: .object([("wallet", .object([
            ("address", .string(address.lowercasedHex)), ("signature", .string(signature)),
        ]))]))
        #expect(linked.status == 200 && linked.body["registered"] == .bool(false), "\(linked.body)")
        let me = await h.call("GET", "/me", token: token)
        #expect(me.body["address"]?.stringValue == address.checksummed && me.body["serverHoldsKey"] == .bool(false))
        func viaWallet(_ action: String, _ fields: (String, JSONValue)...) async throws -> JSONValue {
            let prepared = await h.call("POST", "/prepare", token: token, body: .object([("action", .string(action))] + fields))
            let tx = try #require(prepared.body["transaction"], "\(prepared.body)")
            #expect(tx["from"]?.stringValue == address.checksummed && tx["to"]?.stringValue == h.contract.checksummed)
            let hash = try await h.client.request("eth_sendTransaction", [.object([
                ("from", tx["from"]!), ("to", tx["to"]!), ("data", tx["data"]!), ("gas", tx["gas"]!),
            ])])
            return (await h.call("GET", "/transactions/\(try #require(hash.stringValue))", token: token)).body
        }
        #expect(try await viaWallet("register")["status"]?.stringValue == "success")
        // The passphrase path has no key for this account.
        #expect(code(await h.call("POST", "/credit", token: token, body: write("x", ("amount", .number("1"))))) == "NO_KEY")
        #expect(try await viaWallet("credit", ("amount", .number("2")))["status"]?.stringValue == "success")
        let rent = try await viaWallet("rent", ("plate", .string("6789BBB")))
        #expect(rent["status"]?.stringValue == "success")
        #expect((await h.call("GET", "/me", token: token)).body["car"]?.stringValue == "6789BBB")
        // A transaction the wallet sends anyway (past the checks) reverts, and the status says why.
        let bobKey = try DevAccounts.key(index: 4)
        let forced = try await h.client.request("eth_sendTransaction", [.object([
            ("from", .string(bobKey.address.checksummed)), ("to", .string(h.contract.checksummed)),
            ("data", .string(Hex.encode(CarChainOperation.rentCar(plate: "6789BBB", userId: uid).calldata))), ("gas", .string("0x30000")),
        ])])
        let status = await h.call("GET", "/transactions/\(try #require(forced.stringValue))", token: token)
        #expect(status.body["status"]?.stringValue == "reverted" && status.body["reason"]?.stringValue == "not user's account or manager")
        #expect(code(await h.call("GET", "/transactions/0x1234", token: token)) == "BAD_REQUEST")
        let unknown = await h.call("GET", "/transactions/0x" + String(repeating: "ab", count: 32), token: token)
        #expect(unknown.body["status"]?.stringValue == "pending")
    }

    @Test("unknown endpoints, wrong methods, bad JSON and bad queries are JSON errors")
    func badRequests() async throws {
        let h = try await AppHarness.make()
        defer { Task { await h.close() } }
        let token = try await h.user("ana@example.com")
        #expect(code(await h.call("GET", "/nothing", token: token)) == "NOT_FOUND")
        #expect(code(await h.call("DELETE", "/cars", token: token)) == "METHOD_NOT_ALLOWED")
        #expect(code(await h.call("GET", "/rent", token: token)) == "METHOD_NOT_ALLOWED")
        #expect(code(await h.call("POST", "/rent", token: token)) == "BAD_REQUEST")
        let garbage = await h.app.api.handle(AppRequest(method: "POST", path: "/rent", body: Array("{\"plate\":".utf8), authorization: "Bearer \(token)"))
        #expect(code(garbage) == "BAD_REQUEST")
        #expect(code(await h.call("GET", "/cars", token: token, query: ["near": "north"])) == "BAD_REQUEST")
        #expect(code(await h.call("GET", "/cars", token: token, query: ["radius": "-5km"])) == "BAD_REQUEST")
        #expect(code(await h.call("GET", "/cars", token: token, query: ["available": "maybe"])) == "BAD_REQUEST")
        #expect(code(await h.call("POST", "/rent", token: token, body: write("x", ("plate", .number("5"))))) == "BAD_REQUEST")
        #expect(code(await h.call("POST", "/rent", token: token, body: .object([("plate", .string("6789BBB"))]))) == "BAD_REQUEST")
        #expect(code(await h.call("GET", "/quote", token: token, query: ["action": "rent"])) == "BAD_REQUEST")
        #expect(code(await h.call("GET", "/me", token: token)) == nil)
    }
}
