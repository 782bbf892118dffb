import ArgumentParser
import EthereumPrimitives

extension EtherUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `carchain util to-wei`: an amount in a unit, exactly, in wei.
struct ToWeiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "to-wei",
        abstract: "Convert an amount in a unit to wei, exactly (no floating point).",
        discussion: """
            Units: \(EtherUnit.allCases.map(\.rawValue).joined(separator: ", ")).
            Examples:
              carchain util to-wei 1.5 ether      # 1500000000000000000
              carchain util to-wei 30 gwei        # 30000000000
            """
    )

    @Argument(help: "The amount, e.g. 1.5")
    var amount: String

    @Argument(help: "The unit (default: ether).")
    var unit: EtherUnit = .ether

    @OptionGroup var output: JSONOption

    func run() throws {
        let wei = try Units.parse(amount, unit: unit)
        if output.json {
            Output.json(["wei": wei.description])
        } else {
            print(wei.description)
        }
    }
}

/// `carchain util from-wei`: wei as an exact decimal in a unit.
struct FromWeiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-wei",
        abstract: "Convert wei to a unit, exactly (default: ether).",
        discussion: """
            Examples:
              carchain util from-wei 1500000000000000000        # 1.5
              carchain util from-wei 30000000000 gwei           # 30
            """
    )

    @Argument(help: "An amount of wei (decimal, or hex with 0x).")
    var wei: String

    @Argument(help: "The unit (default: ether).")
    var unit: EtherUnit = .ether

    @OptionGroup var output: JSONOption

    func run() throws {
        let value: UInt256
        do { value = try UInt256(parsing: wei) } catch { throw CLIError("\(String(reflecting: wei)) is not an amount of wei: \(error)") }
        let text = Units.format(value, as: unit)
        if output.json {
            Output.json(["amount": text, "unit": unit.rawValue])
        } else {
            print(text)
        }
    }
}
