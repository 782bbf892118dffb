import ArgumentParser
import Foundation

/// Printing for commands: plain lines, JSON for `--json`, and the single-line error form.
enum Output {
    /// Prints an `Encodable` as one JSON document (sorted keys, pretty when on a terminal is not needed: one line
    /// per document keeps `--json` output easy to pipe).
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(value)
            print(String(decoding: data, as: UTF8.self))
        } catch {
            fail(CLIError("could not encode JSON output: \(error)"))
        }
    }

    /// Writes `carchain: <message>` to stderr (one line) and exits with status 1.
    static func fail(_ error: Error) -> Never {
        let usage = Carchain.exitCode(for: error) == .validationFailure
        var message: String
        if !usage {
            message = String(describing: error)
        } else {
            message = Carchain.message(for: error)
        }
        if message.isEmpty { message = String(describing: error) }
        // ArgumentParser's usage errors span lines ("Error: …\nUsage: …"); keep the first meaningful line.
        var line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? message
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        if usage { line += " (see --help)" }
        FileHandle.standardError.write(Data(("carchain: " + line + "\n").utf8))
        exit(1)
    }
}

/// A plain error with a message for the user.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

