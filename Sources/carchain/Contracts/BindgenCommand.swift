import ArgumentParser
import ContractBindingsGenerator
import EthereumContracts
import Foundation

/// `carchain bindgen INPUT… --out DIR`: typed Swift bindings for contracts.
struct BindgenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bindgen",
        abstract: "Generate typed Swift bindings (one file per contract) from ABI and artifact files.",
        discussion: """
            Each INPUT is a plain JSON ABI, a Foundry artifact (out/<File>.sol/<Name>.json), a Hardhat artifact, vyper's `-f combined_json` output or solc's `--combined-json`; every contract in it gets <Type>.swift in DIR: a struct with a method per function (view and pure ones call, the others send), a struct per tuple and per event (with a filter of its indexed parameters), an enum of its custom errors, deploy(…) (with the creation code embedded when the input has bytecode), receive/fallback, and the NatSpec as doc comments. The code needs the EthereumContracts product; docs/CONTRACTS.md describes it. The ContractBindings build plugin does the same at build time.

            Examples:
              carchain bindgen out/Token.sol/Token.json --out Sources/App/Contracts
              carchain bindgen build/erc20.json build/vault.json --out Generated --access internal
              carchain bindgen Pool.abi.json --out Generated --name UniswapV3Pool --json
              carchain bindgen contracts/CarChain.json --out Sources/CarChain/Generated --name CarChainBinding --without-bytecode
            """
    )

    @Argument(help: "ABI or artifact files.") var inputs: [String]
    @Option(help: ArgumentHelp("The directory to write the Swift files into (created if needed).", valueName: "DIR")) var out: String
    @Option(help: "The declarations' access level: public or internal.") var access: String = "public"
    @Option(help: ArgumentHelp("The Swift type's name (one contract only; default: from the contract's name).", valueName: "TYPE")) var name: String?
    @Flag(help: "Leave the creation code out of the binding (only deploy(bytecode:…) then), e.g. when the app embeds it elsewhere.")
    var withoutBytecode = false
    @OptionGroup var output: JSONOption

    func validate() throws {
        if BindingGenerator.Options.Access(rawValue: access) == nil { throw ValidationError("--access must be public or internal") }
        if inputs.isEmpty { throw ValidationError("give at least one INPUT file") }
    }

    func run() throws {
        let level = BindingGenerator.Options.Access(rawValue: access) ?? .public
        var files = try BindingFiles.generate(inputs: inputs, access: level, includeBytecode: !withoutBytecode)
        if let name {
            guard files.count == 1, let only = files.first else { throw CLIError("--name renames one contract; the inputs hold \(files.count)") }
            guard BindingGenerator.typeName(for: name) == name else { throw CLIError("--name: \(String(reflecting: name)) is not a Swift type name") }
            files = try BindingFiles.generate(inputs: inputs, access: level, typeNames: [only.contractName: name], includeBytecode: !withoutBytecode)
        }
        try BindingFiles.write(files, to: out)
        let paths = files.map { (out as NSString).appendingPathComponent($0.fileName) }
        if output.json {
            print(JSONValue.object([("files", .array(paths.map { .string($0) })), ("types", .array(files.map { .string($0.typeName) }))]).description)
        } else {
            for (file, path) in zip(files, paths) { print("\(file.typeName): \(path)") }
        }
    }
}
