import EthereumABI
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

@Suite struct ContractABITests {
    static let carChainJSON = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json")

    @Test func projectArtifact() throws {
        let abi = try ContractABI(jsonData: Array(try Data(contentsOf: Self.carChainJSON)))
        #expect(abi.functions.count == 16)
        #expect(abi.events.map(\.name) == ["UserRegistered", "CarRegistered", "CarRented", "CarReturned", "CreditAdded"])
        #expect(abi.items.contains(.fallback(.nonpayable)))
        let getCar = try #require(abi.function(named: "getCar"))
        #expect(getCar.outputTypes == [.bool, .string])
        #expect(getCar.isReadOnly)
        #expect(abi.function(selector: ABISelector(rawValue: 0xec73_afef))?.name == "rentCar")
        // Round trip through JSON.
        let again = try ContractABI(jsonValue: abi.jsonValue)
        #expect(again == abi)
    }

    @Test func seedArtifact() throws {
        guard let url = TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact") else { return }
        let abi = try ContractABI(jsonData: Array(try Data(contentsOf: url)))
        #expect(abi.functions.count == 12)
        #expect(abi.events.isEmpty)
        // The seed's ABI uses the pre-0.4.16 "constant"/"payable" fields as well.
        #expect(abi.function(named: "getUserCredit")?.stateMutability == .view)
        #expect(abi.function(named: "rentCar")?.stateMutability == .nonpayable)
    }

    /// The function lookups (by selector, canonical signature, name) follow edits of the items and of a function's
    /// name and inputs; selectors are checked against ERC-20's published ones (EIP-20).
    @Test func lookupsFollowEdits() throws {
        var abi = try ContractABI(humanReadable: [
            "function transfer(address to, uint256 amount) returns (bool)", "function approve(address, uint256) returns (bool)",
            "function f(uint256)", "function f(uint256, uint256)",
        ])
        #expect(abi.function(selector: ABISelector(rawValue: 0xa905_9cbb))?.name == "transfer")
        #expect(abi.function(signature: "approve(address,uint256)")?.selector == ABISelector(rawValue: 0x095e_a7b3))
        #expect(abi.function(signature: "approve(address, uint256)") == nil)  // canonical signatures only
        #expect(abi.functions(named: "f").map(\.signature) == ["f(uint256)", "f(uint256,uint256)"])
        #expect(abi.function(named: "f")?.signature == "f(uint256)")
        abi.items.append(.function(try ABIFunction(signature: "function balanceOf(address) view returns (uint256)")))
        #expect(abi.function(selector: ABISelector(rawValue: 0x70a0_8231))?.name == "balanceOf")
        abi.items.removeFirst()
        #expect(abi.function(selector: ABISelector(rawValue: 0xa905_9cbb)) == nil)
        #expect(abi.functions.map(\.name) == ["approve", "f", "f", "balanceOf"])
        // A function's signature and selector follow its name and inputs.
        var function = try #require(abi.function(named: "approve"))
        function.name = "transfer"
        #expect(function.signature == "transfer(address,uint256)")
        #expect(function.selector == ABISelector(rawValue: 0xa905_9cbb))
        function.inputs.removeLast()
        #expect(function.selector == ABISelector(signature: "transfer(address)"))
        #expect(function == (try ABIFunction(signature: "function transfer(address) returns (bool)")))
    }

    @Test func tuplesInJSON() throws {
        let json = """
            [{"type":"function","name":"f","stateMutability":"pure",
              "inputs":[{"name":"orders","type":"tuple[2][]","components":[
                 {"name":"id","type":"uint256"},
                 {"name":"legs","type":"tuple[]","components":[{"name":"who","type":"address"}]}]}],
              "outputs":[]},
             {"type":"error","name":"Bad","inputs":[{"name":"code","type":"uint8"}]},
             {"type":"event","name":"E","anonymous":false,"inputs":[{"name":"x","type":"bytes32","indexed":true}]},
             {"type":"constructor","inputs":[],"stateMutability":"nonpayable"},
             {"type":"receive","stateMutability":"payable"}]
            """
        let abi = try ContractABI(json: json)
        let f = try #require(abi.function(named: "f"))
        #expect(f.signature == "f((uint256,(address)[])[2][])")
        #expect(f.inputs[0].components[1].components[0].name == "who")
        #expect(abi.error(named: "Bad")?.signature == "Bad(uint8)")
        #expect(abi.constructor != nil)
        #expect(try ContractABI(jsonValue: abi.jsonValue) == abi)
    }

    @Test(arguments: [
        "{}", "[1]", #"[{"type":"function"}]"#, #"[{"type":"function","name":"f","inputs":[{"type":"uint7"}]}]"#,
        #"[{"type":"function","name":"f","inputs":[{"type":"tuple"}]}]"#, #"[{"type":"banana","name":"f"}]"#,
        #"[{"type":"function","name":"f","stateMutability":"sometimes"}]"#, "not json",
    ])
    func invalidJSON(_ text: String) throws {
        #expect(throws: ABIError.self) { try ContractABI(json: text) }
    }

    @Test func jsonErrorsSayWhere() throws {
        let message = errorMessage { try ContractABI(json: #"[{"type":"event","name":"E","inputs":[]},{"name":"f","inputs":[{"name":"a","type":"uint9"}]}]"#) }
        #expect(message?.hasPrefix("invalid JSON ABI at abi[1].inputs[0].type:") == true, "\(message ?? "")")
    }

    @Test func valuesFromText() throws {
        #expect(try ABIValue(parsing: "300", as: .uint(16)) == .unsigned(300))
        #expect(try ABIValue(parsing: "0x12c", as: .uint(16)) == .unsigned(300))
        #expect(try ABIValue(parsing: "-128", as: .int(8)) == .signed(-128))
        #expect(throws: ABIError.self) { try ABIValue(parsing: "-129", as: .int(8)) }
        #expect(throws: ABIError.self) { try ABIValue(parsing: "128", as: .int(8)) }
        #expect(throws: ABIError.self) { try ABIValue(parsing: "256", as: .uint(8)) }
        #expect(try ABIValue(parsing: "true", as: .bool) == .bool(true))
        #expect(try ABIValue(parsing: "0xabcd", as: .bytes) == .bytes([0xab, 0xcd]))
        #expect(throws: ABIError.self) { try ABIValue(parsing: "0xabcd", as: .fixedBytes(3)) }
        #expect(try ABIValue(parsing: "hello world", as: .string) == .string("hello world"))
        #expect(try ABIValue(parsing: "[1,2]", as: .array(.uint256, count: nil)) == .array([.unsigned(1), .unsigned(2)]))
        let tuple = try ABIValue(parsing: #"["0x00000000000000000000000000000000000000aa", 5, ["x"]]"#, as: ABIType(parsing: "(address,uint8,string[])"))
        #expect(tuple == .tuple([.address(try Address("0x00000000000000000000000000000000000000aa")), .unsigned(5), .array([.string("x")])]))
        #expect(errorMessage { try ABIValue(parsing: "[1,\"x\"]", as: .array(.uint256, count: 2)) }?.hasPrefix("value[1] (uint256):") == true)
        // JSON output keeps integers exact.
        #expect(ABIValue.array([.uint(.max), .signed(-5)]).jsonValue.description
            == #"["115792089237316195423570985008687907853269984665640564039457584007913129639935","-5"]"#)
    }
}
