// carchain-bindgen: the generator as a small executable, for the ContractBindings build plugin (which cannot link a
// library) and for build systems without the full `carchain` CLI. `carchain bindgen` does the same with its options.
//
//   carchain-bindgen [--access public|internal] [--name TYPE] [--without-bytecode] (--out DIR | --output FILE) INPUT…
//
// Each input (a JSON ABI, a Foundry/Hardhat artifact, vyper combined_json, solc combined-json) gives one Swift file
// per contract in DIR, named <Type>.swift; with --output, every contract goes into FILE (what the build plugin
// uses: its outputs must be known before the inputs are read). Errors: one line on stderr, exit 1.

import ContractBindingsGenerator
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("carchain-bindgen: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var access = BindingGenerator.Options.Access.public
var outDirectory: String?
var outFile: String?
var typeName: String?
var includeBytecode = true
var inputs: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--access":
        guard let value = arguments.first, let parsed = BindingGenerator.Options.Access(rawValue: value) else {
            fail("--access needs public or internal")
        }
        arguments.removeFirst()
        access = parsed
    case "--out":
        guard let value = arguments.first else { fail("--out needs a directory") }
        arguments.removeFirst()
        outDirectory = value
    case "--output":
        guard let value = arguments.first else { fail("--output needs a file") }
        arguments.removeFirst()
        outFile = value
    case "--name":
        guard let value = arguments.first else { fail("--name needs a type name") }
        arguments.removeFirst()
        typeName = value
    case "--without-bytecode":
        includeBytecode = false
    case "-h", "--help":
        print("usage: carchain-bindgen [--access public|internal] [--name TYPE] [--without-bytecode] (--out DIR | --output FILE) INPUT...")
        exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument) (see --help)") }
        inputs.append(argument)
    }
}
guard (outDirectory == nil) != (outFile == nil) else { fail("give --out DIR or --output FILE") }
guard !inputs.isEmpty else { fail("no input files") }

do {
    var names: [String: String] = [:]
    if let typeName {
        let all = try BindingFiles.generate(inputs: inputs, access: access, includeBytecode: includeBytecode)
        guard all.count == 1, let only = all.first else { fail("--name renames one contract; the inputs hold \(all.count)") }
        names[only.contractName] = typeName
    }
    let files = try BindingFiles.generate(inputs: inputs, access: access, typeNames: names, includeBytecode: includeBytecode)
    if let outDirectory {
        try BindingFiles.write(files, to: outDirectory)
    } else if let outFile {
        try BindingFiles.write(BindingFiles.combined(files), toFile: outFile)
    }
} catch {
    fail("\(error)")
}
