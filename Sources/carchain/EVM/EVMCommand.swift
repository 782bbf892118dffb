import ArgumentParser
import EthereumPrimitives

/// `carchain evm …`: the in-process EVM: run bytecode, run the Ethereum state tests.
struct EVMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evm",
        abstract: "Run EVM bytecode, or check the interpreter against the Ethereum state tests.",
        discussion: """
            Examples:
              carchain evm run --code 0x6001600201600055 --trace
              carchain evm statetest ../shared/ethtests/Cancun/GeneralStateTests --fork Cancun
              carchain evm blocktest ../shared/ethtests/BlockchainTests-Prague
              carchain evm batch cases.jsonl
            """,
        subcommands: [EVMRunCommand.self, StateTestCommand.self, BlockTestCommand.self, EVMBatchCommand.self]
    )

    /// Parses a fork name (aliases accepted), or throws a one-line error listing the names.
    static func fork(_ name: String) throws -> Hardfork {
        guard let fork = Hardfork(name: name) else {
            throw CLIError(
                "unknown fork \(name) (known: \(Hardfork.allCases.map(\.name).joined(separator: ", ")); aliases EIP150, EIP158, ConstantinopleFix, Merge)"
            )
        }
        return fork
    }

    /// Decodes hex (0x optional; empty allowed) or throws a one-line error naming the option.
    static func hex(_ text: String, option: String) throws -> [UInt8] {
        do {
            return try Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw CLIError("bad hex for \(option): \(error)")
        }
    }
}
