import EthereumABI
import EthereumPrimitives
import Foundation

/// Generating bindings for files: reading every input, one Swift file per contract, names checked for clashes.
/// Shared by `carchain bindgen` and the build plugin's tool.
public enum BindingFiles {
    /// Why inputs could not be turned into bindings.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The largest input read (64 MiB; Foundry artifacts with source maps run to a few MiB).
    public static let inputLimit = 64 << 20

    /// The bindings of every contract in `inputs` (file paths).
    public static func generate(
        inputs: [String], access: BindingGenerator.Options.Access, typeNames: [String: String] = [:], includeBytecode: Bool = true
    ) throws(Failure) -> [BindingGenerator.Output] {
        var outputs: [BindingGenerator.Output] = []
        var sources: [String: String] = [:]
        for path in inputs {
            let bytes: [UInt8]
            do { bytes = try InputFile.read(path, limit: inputLimit) } catch {
                throw Failure("cannot read \(path): \(error.reason)")
            }
            let artifacts: [ContractArtifact]
            do { artifacts = try ContractArtifact.read(json: bytes, fileName: path) } catch {
                throw Failure("\(error)")
            }
            for var artifact in artifacts {
                if !includeBytecode { artifact.bytecode = nil }
                let name = (URL(fileURLWithPath: path).lastPathComponent)
                let output = BindingGenerator.generate(
                    artifact, options: .init(access: access, typeName: typeNames[artifact.name], sourceName: name))
                if let earlier = sources[output.typeName] {
                    throw Failure("two contracts would both be \(output.typeName) (from \(earlier) and \(path)); rename one file")
                }
                sources[output.typeName] = path
                outputs.append(output)
            }
        }
        return outputs
    }

    /// One source holding every binding (one header and import, then each type).
    public static func combined(_ outputs: [BindingGenerator.Output]) -> String {
        var text = ""
        for (i, output) in outputs.enumerated() {
            if i == 0 {
                text = output.source
            } else if let range = output.source.range(of: BindingGenerator.importLine) {
                text += "\n" + output.source[range.upperBound...]
            } else {
                text += "\n" + output.source
            }
        }
        return text
    }

    /// Writes `source` to `path` unless the file already holds it.
    public static func write(_ source: String, toFile path: String) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw Failure("cannot create \(directory): \(error.localizedDescription)")
            }
        }
        let data = Data(source.utf8)
        if let existing = FileManager.default.contents(atPath: path), existing == data { return }
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw Failure("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Writes the files into `directory` (created if needed), leaving a file untouched when its text is unchanged
    /// (so builds that watch it do not redo work).
    public static func write(_ outputs: [BindingGenerator.Output], to directory: String) throws(Failure) {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw Failure("cannot create \(directory): \(error.localizedDescription)")
        }
        for output in outputs {
            let path = (directory as NSString).appendingPathComponent(output.fileName)
            let data = Data(output.source.utf8)
            if let existing = fm.contents(atPath: path), existing == data { continue }
            do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw Failure("cannot write \(path): \(error.localizedDescription)")
            }
        }
    }
}
