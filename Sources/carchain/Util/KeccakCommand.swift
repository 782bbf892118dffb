import ArgumentParser
import EthereumPrimitives
import Foundation

/// `carchain util keccak`: Keccak-256 of hex bytes, text or a file.
struct KeccakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keccak",
        abstract: "Keccak-256 digest of hex bytes (default: read from stdin), --text or --file.",
        discussion: """
            Examples:
              carchain util keccak 0x68656c6c6f
              carchain util keccak --text 'rentCar(string,string)'
              carchain util keccak --file contracts/CarChain.vy
              echo 0x68656c6c6f | carchain util keccak
            """
    )

    @Argument(help: "Bytes as hex (0x optional). Read from stdin when omitted.")
    var hex: String?

    @Option(help: "Hash this text's UTF-8 bytes instead.")
    var text: String?

    @Option(help: "Hash the contents of this file instead.")
    var file: String?

    @OptionGroup var output: JSONOption

    func validate() throws {
        let sources = [hex != nil, text != nil, file != nil].filter { $0 }.count
        if sources > 1 { throw ValidationError("give only one of HEX, --text and --file") }
    }

    func run() throws {
        let digest: Bytes32
        if let text {
            digest = Keccak256.hash(text)
        } else if let file {
            digest = try Self.hashFile(atPath: file)
        } else {
            let input = try hex ?? Self.readStdinText(what: "hex bytes")
            do {
                digest = Keccak256.hash(try Hex.decode(input.trimmingCharacters(in: .whitespacesAndNewlines)))
            } catch {
                throw CLIError("bad hex input: \(error)")
            }
        }
        if output.json {
            Output.json(["hash": digest.hexString])
        } else {
            print(digest.hexString)
        }
    }

    /// Streams the file through the hasher in 64 KiB chunks.
    static func hashFile(atPath path: String) throws -> Bytes32 {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError("cannot read file \(path)")
        }
        defer { try? handle.close() }
        var hasher = Keccak256()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 16) ?? Data() } catch { throw CLIError("cannot read file \(path): \(error.localizedDescription)") }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { hasher.update($0) }
        }
        return hasher.finalize()
    }

    static func readStdinText(what: String) throws -> String {
        let data = try CLIInput.standardInput()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { throw CLIError("no \(what) given (pass an argument or pipe it on stdin)") }
        return text
    }
}
