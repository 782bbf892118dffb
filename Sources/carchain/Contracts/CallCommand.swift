import ArgumentParser
import CarChainKit
import EthereumContracts
import Foundation

/// `carchain call ADDRESS SIGNATURE ARGS…`: calls any contract's function without a transaction and prints what it returns.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call any contract's function (eth_call) and print its decoded return values.",
        discussion: """
            SIGNATURE is cast's form, 'name(inputs)(outputs)' (the second list gives the return types to decode), a human-readable signature ('function balanceOf(address owner) view returns (uint256)'), or with --abi a function's name or signature from that ABI. Arguments are parsed as the parameter types: integers in decimal or 0x-hex, addresses, true/false, hex bytes, strings as they are, arrays and tuples as JSON ('[1,2]', '["0xab…",5]'). A revert prints its reason — Error(string), Panic(uint256), or with --abi the contract's custom error — and exits 1.

            Runs against the embedded chain, --rpc URL, or a fork of --fork-url at --fork-block-number.

            Examples:
              carchain call 0x5FbDB2315678afecb367f032d93F642f64180aa3 'balanceOf(address)(uint256)' 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
              carchain call $TOKEN 'function name() view returns (string)' --rpc http://127.0.0.1:8545 --chain-id 31337
              carchain call $TOKEN totalSupply --abi out/Token.sol/Token.json --block 12 --json
              carchain call $POOL slot0 --abi UniswapV3Pool.abi.json --fork-url $MAINNET --chain-id 1
            """
    )

    @Argument(help: "The contract's address.") var address: String
    @Argument(help: "The function: 'name(inputs)(outputs)', a human-readable signature, or with --abi a name.") var signature: String
    @Argument(parsing: .allUnrecognized, help: "One argument per parameter.") var arguments: [String] = []

    @Option(help: ArgumentHelp("An ABI or artifact file (JSON ABI, Foundry, Hardhat, vyper, solc): names functions and decodes custom errors.", valueName: "FILE"))
    var abi: String?
    @Option(help: ArgumentHelp("The contract in a combined ABI file (vyper combined_json, solc combined-json).", valueName: "NAME"))
    var contractName: String?
    @Option(help: ArgumentHelp("The block to call at: latest, pending, earliest, safe, finalized or a number.", valueName: "tag"))
    var block: String = "latest"
    @Option(help: ArgumentHelp("msg.sender of the call (default: the zero address).", valueName: "address"))
    var from: String?

    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Reading a fork") var fork: ForkOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if BlockTag(parsing: block) == nil { throw ValidationError("--block must be latest, pending, earliest, safe, finalized or a block number") }
        if contractName != nil && abi == nil { throw ValidationError("--contract-name needs --abi") }
    }

    func run() async throws {
        try ContractInput.refuseCarChainContract(node)
        let contractAddress = try ContractInput.address(address, what: "ADDRESS")
        let artifact = try abi.map { try ContractInput.artifact($0, option: "--abi", name: contractName) }
        let function = try ContractInput.function(signature, abi: artifact?.abi, argumentCount: arguments.count)
        let values = try ContractInput.values(arguments, for: function.inputs, what: function.signature)
        let sender = try from.map { try ContractInput.address($0, what: "--from") }
        let session = try await ChainSession.reading(try fork.connection(node))
        let backend = RPCContractBackend(client: session.client, sender: nil)
        var contractABI = artifact?.abi ?? ContractABI(items: [])
        if contractABI.function(selector: function.selector) == nil { contractABI.items.append(.function(function)) }
        let contract = Contract(address: contractAddress, abi: contractABI, backend: backend)
        let call = try ContractCall(function, values)
        let tag = BlockTag(parsing: block) ?? .latest
        // Without declared outputs the raw return data is the answer.
        if function.outputs.isEmpty {
            switch try await backend.call(CallRequest(from: sender, to: contractAddress, data: call.calldata), at: tag) {
            case .reverted(let data):
                throw ContractError.reverted(ContractRevert(function: function.signature, reason: contractABI.decodeRevert(data), stage: .call))
            case .returned(let data):
                if output.json {
                    print(JSONValue.object([("function", .string(function.signature)), ("raw", .string(Hex.encode(data)))]).description)
                } else {
                    print(Hex.encode(data))
                }
            }
            return
        }
        let result = try await contract.call(call, options: CallOptions(from: sender, block: tag))
        if output.json {
            print(JSONValue.object([
                ("function", .string(function.signature)),
                ("values", .array(result.map(\.jsonValue))),
            ]).description)
        } else {
            for line in ContractInput.lines(result, function.outputs) { print(line) }
        }
    }
}
