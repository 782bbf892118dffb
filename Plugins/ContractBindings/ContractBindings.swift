import Foundation
import PackagePlugin

/// Generates typed contract bindings at build time from the ABI files of a target: every file named `*.abi.json`,
/// and every `.json` file under a folder named `ABIs` (a plain JSON ABI, a Foundry or Hardhat artifact, vyper's
/// `-f combined_json`, solc's `--combined-json`). Each input becomes one generated Swift file holding a type per
/// contract in it (docs/CONTRACTS.md). The declarations are `public`; a `contract-bindings.json` file in the target
/// with `{"access": "internal"}` makes them internal.
///
/// The target needs the `EthereumContracts` product (the runtime the bindings use).
@main
struct ContractBindings: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "carchain-bindgen")
        let files = target.sourceFiles.map(\.url)
        let access = try Self.access(files)
        var used: Set<String> = []
        var commands: [Command] = []
        for input in files.filter(Self.isInput).sorted(by: { $0.path < $1.path }) {
            var stem = input.deletingPathExtension().lastPathComponent
            if stem.hasSuffix(".abi") { stem = String(stem.dropLast(4)) }
            stem = String(stem.map { $0.isLetter || $0.isNumber ? $0 : "_" })
            var name = stem + "Bindings"
            var n = 2
            while used.contains(name) {
                name = "\(stem)\(n)Bindings"
                n += 1
            }
            used.insert(name)
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(name + ".swift")
            commands.append(
                .buildCommand(
                    displayName: "Generating contract bindings from \(input.lastPathComponent)",
                    executable: tool.url,
                    arguments: ["--access", access, "--output", output.path, input.path],
                    inputFiles: [input],
                    outputFiles: [output]))
        }
        return commands
    }

    static func isInput(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        guard name.hasSuffix(".json"), name != "contract-bindings.json" else { return false }
        return name.hasSuffix(".abi.json") || url.pathComponents.dropLast().contains("ABIs")
    }

    /// `public`, or what `contract-bindings.json` says.
    static func access(_ files: [URL]) throws -> String {
        guard let config = files.first(where: { $0.lastPathComponent == "contract-bindings.json" }) else { return "public" }
        let data = try Data(contentsOf: config)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let access = object["access"] as? String,
            access == "public" || access == "internal"
        else {
            throw PluginError("\(config.path): expected {\"access\": \"public\"} or {\"access\": \"internal\"}")
        }
        return access
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
