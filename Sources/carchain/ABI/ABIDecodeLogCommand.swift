import ArgumentParser
import CarChain
import EthereumABI
import EthereumPrimitives

/// `carchain abi decode-log --abi FILE --topics … --data HEX`: an event log to JSON.
struct ABIDecodeLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-log",
        abstract: "Decode an event log with a contract ABI (default: the CarChain contract's).",
        discussion: """
            The event is found by topic 0 (or, for anonymous events, by trying those whose topic count fits). Indexed strings, bytes, arrays and tuples are only in the log as their hash, printed as {"hash": …}.

            Examples:
              carchain abi decode-log --topics 0xa3e6638ed5e0bfd18dff3554864d7686acf83a9408e7ef7c6c5bea09fe3b06e9 --data 0x…
              carchain abi decode-log --abi out/Token.json --topics 0xddf2… 0x…aa 0x…bb --data 0x…64
            """
    )

    @Option(help: "A JSON ABI, or an artifact with an \"abi\" field (default: the embedded CarChain ABI).")
    var abi: String?

    @Option(parsing: .upToNextOption, help: "The topics, in order (space- or comma-separated).")
    var topics: [String] = []

    @Option(help: "The log data as hex.")
    var data: String = "0x"

    @OptionGroup var output: JSONOption

    func run() throws {
        let contract = try abi.map(ABIFile.load) ?? CarChainArtifact.project.abi
        var topicValues: [Bytes32] = []
        for text in topics.flatMap({ $0.split(separator: ",").map(String.init) }) {
            do { topicValues.append(try Bytes32(hex: text.trimmingCharacters(in: .whitespaces))) } catch {
                throw CLIError("topic \(topicValues.count): \(error)")
            }
        }
        let bytes = try ABIHex.read(data, what: "log data")
        let log = try contract.decodeLog(topics: topicValues, data: bytes)
        let args: [(key: String, value: JSONValue)] = zip(log.event.inputs.enumerated(), log.values).map { p, v in
            let name = p.element.name.isEmpty ? "\(p.offset)" : p.element.name
            switch v {
            case .value(let value): return (name, value.jsonValue)
            case .hashed(let hash): return (name, .object([("hash", .string(hash.description))]))
            }
        }
        print(JSONValue.object([
            ("event", .string(log.event.name)), ("signature", .string(log.event.signature)), ("args", .object(args)),
        ]).description)
    }
}
