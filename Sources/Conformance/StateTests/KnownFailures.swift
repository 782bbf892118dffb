import EthereumPrimitives
import Foundation

/// Accepted failures of a state-test run (docs/EVM-known-failures.txt): case labels `name[fork][index]`
/// (index `*` for all), each with a category and reason after it on the line; `#` starts a comment.
public struct KnownFailures: Sendable {
    /// One accepted label.
    public struct Entry: Sendable {
        /// The label as written (`name[fork][index]`).
        public let pattern: String
        let name: String
        let fork: String
        let index: Int?
    }

    /// The accepted labels, in file order.
    public let entries: [Entry]

    /// Reads a known-failures file.
    public static func load(_ path: String) throws(StateTestFormatError) -> KnownFailures {
        let text: String
        do {
            text = String(decoding: try InputFile.read(path, limit: InputFile.documentLimit), as: UTF8.self)
        } catch {
            throw StateTestFormatError("cannot read known failures file \(path): \(error.reason)")
        }
        var entries: [Entry] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let label = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { continue }
            guard let entry = parse(String(label)) else {
                throw StateTestFormatError("\(path):\(number + 1): expected a case label name[fork][index], got \(label)")
            }
            entries.append(entry)
        }
        return KnownFailures(entries: entries)
    }

    /// Splits `name[fork][index]` from the right (test names may contain brackets themselves).
    static func parse(_ label: String) -> Entry? {
        guard label.hasSuffix("]"), let indexOpen = label.lastIndex(of: "[") else { return nil }
        let indexText = label[label.index(after: indexOpen)..<label.index(before: label.endIndex)]
        let head = label[..<indexOpen]
        guard head.hasSuffix("]"), let forkOpen = head.lastIndex(of: "[") else { return nil }
        let fork = String(head[head.index(after: forkOpen)..<head.index(before: head.endIndex)])
        let name = String(head[..<forkOpen])
        if indexText == "*" { return Entry(pattern: label, name: name, fork: fork, index: nil) }
        guard let index = Int(indexText), !name.isEmpty, !fork.isEmpty else { return nil }
        return Entry(pattern: label, name: name, fork: fork, index: index)
    }

    /// The pattern of the entry matching `result`, if any.
    public func match(_ result: StateTestCaseResult) -> String? {
        entries.first { $0.name == result.name && $0.fork == result.fork && ($0.index == nil || $0.index == result.index) }?
            .pattern
    }
}
