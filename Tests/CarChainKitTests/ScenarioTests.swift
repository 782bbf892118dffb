import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

@Suite struct ScenarioParsingTests {
    static let scenarios = TestPaths.packageRoot.appendingPathComponent("testdata/scenarios")

    func parse(_ text: String) throws(ScenarioError) -> Scenario {
        try Scenario(json: Array(text.utf8), source: "t.json", defaultName: "t")
    }

    /// The error message a document gives (fails the test when it parses).
    func error(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            _ = try parse(text)
            Issue.record("parsed: \(text)", sourceLocation: sourceLocation)
            return ""
        } catch {
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
            return error.description
        }
    }

    @Test func minimalScenario() throws {
        let s = try parse(#"{"accounts": {"manager": "dev:0", "alice": "dev:1"}, "steps": [{"op": "registerNewUser", "userId": "u1"}, {"op": "rentCar", "plate": "P1", "user": "u1", "from": "alice", "expect": {"revert": "car not registered"}}, {"op": "addCredit", "user": "u1", "credit": "5", "expect": "success"}]}"#)
        #expect(s.name == "t")
        #expect(s.deployer == "manager")
        #expect(s.accounts.map(\.name) == ["alice", "manager"])
        #expect(s.account("alice")?.source == .dev(1))
        #expect(s.steps.count == 3)
        #expect(s.steps[0] == ScenarioStep(operation: .registerNewUser(userId: "u1"), from: "manager"))
        #expect(s.steps[1].operation == .rentCar(plate: "P1", userId: "u1"))
        #expect(s.steps[1].from == "alice")
        #expect(s.steps[1].expect == .revert(reason: "car not registered"))
        #expect(s.steps[2].operation == .addCredit(userId: "u1", credit: 5))
        #expect(s.steps[2].expect == .success)
        #expect(s.deploymentGasLimit == nil && s.callGasLimit == nil)
    }

    @Test func errorsNameTheFileAndField() {
        let accounts = #""accounts": {"manager": "dev:0"}"#
        let cases: [(String, String)] = [
            ("{", "scenario t.json is not valid JSON"),
            ("{\"accounts\": {\"manager\": \"dev:0\"},\n \"steps\": [,]}", "scenario t.json is not valid JSON: invalid value at line 2, column 12"),
            ("[]", "scenario t.json: (top level): expected an object, found an array"),
            (#"{"steps": []}"#, "scenario t.json: accounts: missing"),
            (#"{"accounts": {}, "steps": []}"#, "scenario t.json: accounts: no accounts"),
            (#"{"accounts": {"manager": "dev:10"}, "steps": []}"#, "accounts.manager: \"dev:10\": expected dev:0 … dev:9"),
            (#"{"accounts": {"manager": "alice"}, "steps": []}"#, "accounts.manager: expected \"dev:N\" or a 0x-prefixed 32-byte private key"),
            (#"{"accounts": {"manager": "0x00"}, "steps": []}"#, "accounts.manager: not a valid private key"),
            (#"{"accounts": {"boss": "dev:0"}, "steps": []}"#, "deployer: missing: name the deploying account"),
            (#"{"accounts": {"boss": "dev:0"}, "deployer": "chief", "steps": []}"#, "deployer: \"chief\" is not an account"),
            ("{\(accounts)}", "steps: missing"),
            ("{\(accounts), \"steps\": {}}", "steps: expected an array, found an object"),
            ("{\(accounts), \"stepz\": []}", "(top level): unknown field \"stepz\""),
            ("{\(accounts), \"steps\": [{\"plate\": \"P\"}]}", "steps[0].op: missing"),
            ("{\(accounts), \"steps\": [{\"op\": \"rentcar\"}]}", "steps[0].op: unknown operation \"rentcar\" (expected one of registerNewUser"),
            ("{\(accounts), \"steps\": [{\"op\": \"rentCar\", \"user\": \"u\"}]}", "steps[0].plate: missing (rentCar needs a \"plate\")"),
            ("{\(accounts), \"steps\": [{\"op\": \"rentCar\", \"plate\": \"P\"}]}", "steps[0].userId: missing (rentCar needs a user id"),
            ("{\(accounts), \"steps\": [{\"op\": \"rentCar\", \"plate\": 7, \"user\": \"u\"}]}", "steps[0].plate: expected a string, found the number 7"),
            ("{\(accounts), \"steps\": [{\"op\": \"registerNewCar\", \"plate\": \"P\", \"user\": \"u\"}]}", "steps[0]: unknown field \"user\""),
            ("{\(accounts), \"steps\": [{\"op\": \"addCredit\", \"user\": \"u\"}]}", "steps[0].credit: missing"),
            ("{\(accounts), \"steps\": [{\"op\": \"addCredit\", \"user\": \"u\", \"credit\": -1}]}", "steps[0].credit: expected a whole number"),
            ("{\(accounts), \"steps\": [{\"op\": \"addCredit\", \"user\": \"u\", \"credit\": 1.5}]}", "steps[0].credit: expected a whole number"),
            ("{\(accounts), \"steps\": [{\"op\": \"registerNewUser\", \"user\": \"u\", \"userId\": \"v\"}]}", "give either \"userId\" or \"user\""),
            ("{\(accounts), \"steps\": [{\"op\": \"registerNewUser\", \"user\": \"u\", \"from\": \"bob\"}]}", "steps[0].from: \"bob\" is not an account (accounts: manager)"),
            ("{\(accounts), \"steps\": [{\"op\": \"registerNewUser\", \"user\": \"u\", \"expect\": \"fine\"}]}", "steps[0].expect: expected \"success\", \"revert\""),
            ("{\(accounts), \"steps\": [{\"op\": \"registerNewUser\", \"user\": \"u\", \"expect\": {\"revert\": 3}}]}", "steps[0].expect.revert: expected a string"),
            ("{\(accounts), \"gasLimits\": {\"call\": 0}, \"steps\": []}", "gasLimits.call: expected a positive whole number of gas"),
            ("{\(accounts), \"steps\": [1]}", "steps[0]: expected an object, found the number 1"),
        ]
        for (text, expected) in cases {
            let message = error(text)
            #expect(message.contains(expected), "for \(text): \(message)")
        }
    }

    @Test func keysAreNeverEchoed() {
        let key = "0x" + String(repeating: "ff", count: 32)  // above the curve order
        let message = error(#"{"accounts": {"manager": "\#(key)"}, "steps": []}"#)
        #expect(message.contains("accounts.manager: not a valid private key"))
        #expect(!message.contains("ffffffff"))
    }

    @Test func unreadableFile() {
        #expect {
            try Scenario(contentsOf: URL(fileURLWithPath: "/nonexistent/dir/nope.json"))
        } throws: { error in
            (error as? ScenarioError)?.description == "cannot read scenario /nonexistent/dir/nope.json: no such file"
        }
    }

    @Test func testdataScenariosParse() throws {
        let seed = try Scenario(contentsOf: Self.scenarios.appendingPathComponent("seed-replay.json"))
        #expect(seed.name == "seed-replay")
        #expect(seed.steps.count == 18)
        #expect(seed.deploymentGasLimit == 6_700_000)
        #expect(seed.callGasLimit == 210_000)
        #expect(seed.steps.filter { $0.expect == .success }.count == 14)
        let busy = try Scenario(contentsOf: Self.scenarios.appendingPathComponent("busy-day.json"))
        #expect(busy.name == "busy-day")
        #expect(busy.steps.count >= 30)
        #expect(Set(busy.steps.map(\.operation.functionName)) == Set(Scenario.operationNames))
    }

    @Test func embeddedSeedScenarioIsTheTestdataFile() throws {
        let file = try String(contentsOf: Self.scenarios.appendingPathComponent("seed-replay.json"), encoding: .utf8)
        #expect(file == Scenario.seedReplayJSON + "\n", "Sources/CarChain/Scenario/Scenario+Seed.swift is stale")
        let embedded = try Scenario.seedReplay()
        #expect(embedded == (try Scenario(contentsOf: Self.scenarios.appendingPathComponent("seed-replay.json"))))
    }
}
