import ArgumentParser
import CarChain
import CarChainKit

extension PlateFormat: ExpressibleByArgument {}

/// `--plate-format spanish|any`.
struct PlateFormatOption: ParsableArguments {
    @Option(name: .customLong("plate-format"), help: ArgumentHelp("spanish (four digits and three capital letters, as the seed app) or any (what the contract accepts).", valueName: "format"))
    var format: PlateFormat = .spanish
}

/// Runs a check in `validate()`, turning a fleet error into a usage error (one line, exit 1).
func validating(_ body: () throws(FleetError) -> Void) throws {
    do { try body() } catch { throw ValidationError(error.description) }
}
