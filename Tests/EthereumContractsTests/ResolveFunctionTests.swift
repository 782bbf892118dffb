import EthereumABI
import EthereumContracts
import Testing

/// How the dynamic API picks a function (ContractABI.resolveFunction): a canonical signature is looked up directly, a
/// human-readable one is parsed first, a bare name must be unique or unique for the argument count.
@Suite struct ResolveFunctionTests {
    static let abi = try! ContractABI(humanReadable: [
        "function transfer(address to, uint256 amount) returns (bool)", "function f(uint256)", "function f(uint256, uint256)",
        "function f(address)",
    ])

    @Test func signaturesAndNames() throws {
        let abi = Self.abi
        #expect(try abi.resolveFunction("transfer(address,uint256)").selector == ABISelector(rawValue: 0xa905_9cbb))
        #expect(try abi.resolveFunction("transfer(address to, uint256 amount)").selector == ABISelector(rawValue: 0xa905_9cbb))
        #expect(try abi.resolveFunction("transfer").signature == "transfer(address,uint256)")
        #expect(try abi.resolveFunction("f(uint256,uint256)").inputs.count == 2)
        #expect(try abi.resolveFunction("f", argumentCount: 2).signature == "f(uint256,uint256)")
    }

    @Test func refusals() {
        let abi = Self.abi
        #expect(throws: ContractError.self) { try abi.resolveFunction("f") }  // three overloads
        #expect(throws: ContractError.self) { try abi.resolveFunction("f", argumentCount: 1) }  // two take one argument
        #expect(throws: ContractError.self) { try abi.resolveFunction("transfer(address)") }
        #expect(throws: ContractError.self) { try abi.resolveFunction("approve") }
        #expect(throws: ContractError.self) { try abi.resolveFunction("transfer(") }
    }
}
