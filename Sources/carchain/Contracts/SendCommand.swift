import ArgumentParser
import CarChainKit
import EthereumContracts
import Foundation

/// `carchain send ADDRESS SIGNATURE ARGS…`: sends a transaction calling any contract's function.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a transaction calling any contract's function; print its receipt and decoded events.",
        discussion: """
            SIGNATURE is a function signature ('transfer(address,uint256)', or human-readable) or, with --abi, a function's name or signature from that ABI; arguments are parsed as in `carchain call`. The gas limit is the node's estimate x 1.2 unless --gas-limit is given; a transaction the estimate finds reverting is not sent (its reason is printed; --no-precheck sends it anyway, to see it fail on chain). With --abi the receipt's events and any custom error are decoded.

            Signs with --private-key-env, --keystore or --dev-account (dev account 0 on a development chain when none is given). With --fork-url the transaction is rehearsed on a fork in this process as --from (no key needed) and never sent.

            Examples:
              carchain send $TOKEN 'transfer(address,uint256)' 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 1000000000000000000
              carchain send $TOKEN approve $SPENDER 500 --abi Token.abi.json --rpc http://127.0.0.1:8545 --chain-id 31337 --private-key-env PK
              carchain send $WETH 'deposit()' --value '1 ether' --json
              carchain send $TOKEN transfer $TO 5 --abi Token.abi.json --fork-url $MAINNET --chain-id 1 --from $HOLDER
            """
    )

    @Argument(help: "The contract's address.") var address: String
    @Argument(help: "The function: a signature, or with --abi a name.") var signature: String
    @Argument(parsing: .allUnrecognized, help: "One argument per parameter.") var arguments: [String] = []

    @Option(help: ArgumentHelp("An ABI or artifact file: names functions, decodes events and custom errors.", valueName: "FILE"))
    var abi: String?
    @Option(help: ArgumentHelp("The contract in a combined ABI file.", valueName: "NAME"))
    var contractName: String?
    @Option(help: ArgumentHelp("Wei to send along, e.g. '0.5 ether' (\(AmountOption.text)).", valueName: "amount"))
    var value: String?
    @Option(help: ArgumentHelp("With --fork-url: the account the rehearsal sends as.", valueName: "address"))
    var from: String?

    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup(title: "Rehearsing on a fork") var fork: ForkOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if let value { _ = try AmountOption.parse(value, option: "--value") }
        if contractName != nil && abi == nil { throw ValidationError("--contract-name needs --abi") }
        if from != nil && !fork.isForking { throw ValidationError("--from is for --fork-url rehearsals; the signer options choose the sender") }
    }

    func run() async throws {
        try ContractInput.refuseCarChainContract(node)
        let contractAddress = try ContractInput.address(address, what: "ADDRESS")
        let artifact = try abi.map { try ContractInput.artifact($0, option: "--abi", name: contractName) }
        let function = try ContractInput.function(signature, abi: artifact?.abi, argumentCount: arguments.count)
        let values = try ContractInput.values(arguments, for: function.inputs, what: function.signature)
        let wei = try value.map { try TransactionOptions.amount($0, option: "--value") } ?? .zero
        if !wei.isZero && function.stateMutability != .payable && artifact != nil {
            throw CLIError("\(function.signature) is \(function.stateMutability.rawValue): it does not accept --value")
        }
        let settings = try transactions.settings()
        let backend: any ContractBackend
        let rehearsal: Bool
        if fork.isForking {
            guard let from else { throw CLIError("give --from ADDRESS: on a fork the transaction is rehearsed as that account") }
            let sender = try ContractInput.address(from, what: "--from")
            let session = try await ChainSession.reading(try fork.connection(node))
            backend = ImpersonatingBackend(client: session.client, sender: sender, settings: settings, chainID: session.chainID)
            rehearsal = true
        } else {
            let session = try await ChainSession.sending(try node.connection(), signer: try signer.source(), settings: settings)
            backend = session.backend
            rehearsal = false
        }
        var contractABI = artifact?.abi ?? ContractABI(items: [])
        if contractABI.function(selector: function.selector) == nil { contractABI.items.append(.function(function)) }
        let contract = Contract(address: contractAddress, abi: contractABI, backend: backend)
        let receipt = try await contract.send(try ContractCall(function, values), options: TransactOptions(value: wei, gasLimit: transactions.gasLimit))
        let outcome = receipt.outcome
        let events = receipt.decodedLogs
        if output.json {
            var members: [(key: String, value: JSONValue)] = [
                ("function", .string(function.signature)),
                ("transactionHash", .string(outcome.transactionHash.hexString)),
                ("blockNumber", .number(String(outcome.blockNumber))),
                ("gasUsed", .number(String(outcome.gasUsed))),
                ("effectiveGasPrice", .string(outcome.effectiveGasPrice.description)),
                ("fee", .string(outcome.fee.description)),
                ("status", .string("success")),
                ("events", .array(events.map { log in
                    .object([("event", .string(log.event.name)), ("signature", .string(log.event.signature)),
                             ("args", .object(zip(log.event.inputs.enumerated(), log.values).map { item, v in
                                 (item.element.name.isEmpty ? String(item.offset) : item.element.name,
                                  v.value?.jsonValue ?? .object([("hash", .string(v.description))]))
                             }))])
                })),
            ]
            if rehearsal { members.append(("rehearsal", .bool(true))) }
            print(JSONValue.object(members).description)
        } else {
            print("\(rehearsal ? "rehearsed on the fork (not sent)" : "sent") \(function.signature): transaction \(outcome.transactionHash)")
            print("block \(outcome.blockNumber), gas used \(outcome.gasUsed), fee \(Units.format(outcome.fee, as: .ether)) ETH")
            for event in events { print("event \(event)") }
            let others = outcome.logs.count - events.count
            if others > 0 { print("\(others) log\(others == 1 ? "" : "s") not decoded (other contracts, or events not in the ABI)") }
        }
    }
}
