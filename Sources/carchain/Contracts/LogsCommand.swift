import ArgumentParser
import CarChainKit
import EthereumContracts
import Foundation

/// `carchain logs ADDRESS --abi FILE [--event E]`: any contract's logs, decoded.
struct LogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "Print any contract's logs (eth_getLogs), decoded with its ABI.",
        discussion: """
            Without --event every log of the contract in the range is printed, decoded with the ABI when an event of it matches. --event picks one event by name or signature (with --abi), or gives its human-readable signature ('Transfer(address indexed from, address indexed to, uint256 value)') without an ABI; --topic VALUE (repeatable, in order) then filters its indexed parameters, '*' for any value.

            Examples:
              carchain logs $TOKEN --abi Token.abi.json
              carchain logs $TOKEN --abi Token.abi.json --event Transfer --topic '*' --topic 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 --json
              carchain logs $TOKEN --event 'Transfer(address indexed from, address indexed to, uint256 value)' --from-block 100 --to-block 200 --rpc http://127.0.0.1:8545
            """
    )

    @Argument(help: "The contract's address.") var address: String
    @Option(help: ArgumentHelp("An ABI or artifact file to decode the logs with.", valueName: "FILE"))
    var abi: String?
    @Option(help: ArgumentHelp("The contract in a combined ABI file.", valueName: "NAME"))
    var contractName: String?
    @Option(help: ArgumentHelp("Only this event: a name or signature (with --abi), or a human-readable signature.", valueName: "E"))
    var event: String?
    @Option(name: .customLong("topic"), help: ArgumentHelp("A value of the event's next indexed parameter ('*': any); repeat in order.", valueName: "VALUE"))
    var topics: [String] = []
    @Option(help: ArgumentHelp("First block (a number or tag; default earliest).", valueName: "tag")) var fromBlock: String = "earliest"
    @Option(help: ArgumentHelp("Last block (default latest).", valueName: "tag")) var toBlock: String = "latest"

    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Reading a fork") var fork: ForkOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if abi == nil && event == nil { throw ValidationError("give --abi FILE, or --event with the event's signature") }
        if !topics.isEmpty && event == nil { throw ValidationError("--topic filters an event's indexed parameters: give --event") }
        if contractName != nil && abi == nil { throw ValidationError("--contract-name needs --abi") }
        for (option, tag) in [("--from-block", fromBlock), ("--to-block", toBlock)] where BlockTag(parsing: tag) == nil {
            throw ValidationError("\(option) must be latest, pending, earliest, safe, finalized or a block number")
        }
    }

    func run() async throws {
        try ContractInput.refuseCarChainContract(node)
        let contractAddress = try ContractInput.address(address, what: "ADDRESS")
        var contractABI = try abi.map { try ContractInput.artifact($0, option: "--abi", name: contractName).abi } ?? ContractABI(items: [])
        var eventName = event
        if let event, event.contains("("), (try? contractABI.resolveEvent(event)) == nil {
            // A signature the ABI does not have (or no ABI): the event is declared by it.
            let parsed: ABIEvent
            do { parsed = try ABIEvent(signature: event.hasPrefix("event ") ? event : "event " + event) } catch { throw CLIError("--event: \(error)") }
            contractABI.items.append(.event(parsed))
            eventName = parsed.signature
        }
        var indexed: [[ABIValue]?] = []
        if let eventName, !topics.isEmpty {
            let chosen = try contractABI.resolveEvent(eventName)
            let parameters = chosen.inputs.filter(\.indexed)
            guard topics.count <= parameters.count else {
                throw CLIError("--topic: \(chosen.signature) has \(parameters.count) indexed parameter\(parameters.count == 1 ? "" : "s"), got \(topics.count) values")
            }
            for (i, (text, parameter)) in zip(topics, parameters).enumerated() {
                if text == "*" { indexed.append(nil); continue }
                do { indexed.append([try ABIValue(parsing: text, as: parameter.type)]) } catch {
                    throw CLIError("--topic \(i + 1) (\(parameter.type) \(parameter.name)): \(error)")
                }
            }
        }
        let session = try await ChainSession.reading(try fork.connection(node))
        let contract = Contract(address: contractAddress, abi: contractABI, backend: RPCContractBackend(client: session.client, sender: nil))
        let logs = try await contract.logs(
            event: eventName, indexed: indexed, fromBlock: BlockTag(parsing: fromBlock) ?? .earliest, toBlock: BlockTag(parsing: toBlock) ?? .latest)
        if output.json {
            print(JSONValue.array(logs.map(ContractInput.json)).description)
        } else {
            if logs.isEmpty { print("no logs") }
            for log in logs { print(ContractInput.describe(log)) }
        }
    }
}
