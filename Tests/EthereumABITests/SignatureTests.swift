import EthereumABI
import EthereumPrimitives
import Testing

@Suite struct SignatureTests {
    /// The CarChain selectors listed in contracts/README.md.
    @Test(arguments: [
        ("registerNewUser(string)", "0x995ac4fd"), ("registerNewCar(string)", "0xdae3373b"),
        ("rentCar(string,string)", "0xec73afef"), ("returnCar(string,string)", "0xea1f2762"),
        ("addCredit(string,uint256)", "0x997ec3d5"), ("getUserCredit(string)", "0x2ebc56db"),
        ("getUserCar(string)", "0x366c886a"), ("minimumRentCredit()", "0xff34ec69"),
        ("registeredUsers()", "0x660d5887"), ("registeredCars()", "0x88c6a67b"),
        ("rentedCars()", "0x2411b774"), ("availableCars()", "0xa283a333"),
        ("transfer(address,uint256)", "0xa9059cbb"), ("Error(string)", "0x08c379a0"), ("Panic(uint256)", "0x4e487b71"),
    ])
    func selectors(_ signature: String, _ selector: String) throws {
        #expect(ABISelector(signature: signature).description == selector)
        #expect(try ABIFunction(signature: signature).selector.description == selector)
    }

    @Test func humanReadableFunction() throws {
        let f = try ABIFunction(signature: "function rentCar(string plate, string userId)")
        #expect(f.name == "rentCar")
        #expect(f.inputs.map(\.name) == ["plate", "userId"])
        #expect(f.signature == "rentCar(string,string)")
        #expect(f.stateMutability == .nonpayable)
        let g = try ABIFunction(signature: "function getCar(string memory plate) external view returns (bool registered, string memory renter)")
        #expect(g.stateMutability == .view)
        #expect(g.outputs.map(\.name) == ["registered", "renter"])
        #expect(g.outputTypes == [.bool, .string])
        #expect(g.description == "function getCar(string plate) view returns (bool registered, string renter)")
        let h = try ABIFunction(signature: "function submit((uint256 id, (address who, bytes data)[] parts) order, uint[2] pair) payable returns (uint)")
        #expect(h.signature == "submit((uint256,(address,bytes)[]),uint256[2])")
        #expect(h.inputs[0].components.map(\.name) == ["id", "parts"])
        #expect(h.inputs[0].components[1].components.map(\.name) == ["who", "data"])
        #expect(h.stateMutability == .payable)
        #expect(try ABIFunction(signature: "function f(tuple(uint256 a, bool b)[] xs)").signature == "f((uint256,bool)[])")
    }

    @Test func otherItems() throws {
        let e = try ABIEvent(signature: "event Transfer(address indexed from, address indexed to, uint256 value)")
        #expect(e.inputs.map(\.indexed) == [true, true, false])
        #expect(e.topic0.description == "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
        #expect(try ABIEvent(signature: "event Ping(uint256 indexed n) anonymous").anonymous)
        let err = try ABICustomError(signature: "error InsufficientBalance(uint256 available, uint256 required)")
        #expect(err.signature == "InsufficientBalance(uint256,uint256)")
        #expect(try ABIItem(signature: "constructor(address owner) payable") == .constructor(ABIConstructor(inputs: [ABIParameter(name: "owner", type: .address)], stateMutability: .payable)))
        #expect(try ABIItem(signature: "fallback() external") == .fallback(.nonpayable))
        #expect(try ABIItem(signature: "receive() external payable") == .receive)
    }

    @Test(arguments: [
        "function", "function f(", "function f(uint256", "function f(uint7)", "event E(uint256 indexed indexed a)",
        "function f() view pure", "function f() returns", "error E(uint256) extra", "receive(uint256 x)",
        "event E(uint8 indexed a, uint8 indexed b, uint8 indexed c, uint8 indexed d)", "f(uint256))",
    ])
    func invalidSignatures(_ text: String) throws {
        #expect(throws: ABIError.self) { try ABIItem(signature: text) }
    }
}
