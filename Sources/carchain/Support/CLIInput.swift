import EthereumPrimitives

/// The CLI's reading of files named by options and of standard input: through ``InputFile``, so every input has a
/// size cap (a huge file, `/dev/zero`, a directory or a dangling link is one `carchain: …` line), with the option
/// that named the file in the message.
enum CLIInput {
    /// The bytes of `path`, named by `option` (e.g. `--abi`), at most `limit` of them.
    static func file(_ path: String, option: String, limit: Int = InputFile.documentLimit) throws(CLIError) -> [UInt8] {
        do { return try InputFile.read(path, limit: limit) } catch { throw CLIError("\(option): \(error)") }
    }

    /// `file(_:option:limit:)` as UTF-8 text; bytes that are not UTF-8 are an error, not silently replaced.
    static func text(_ path: String, option: String, limit: Int = InputFile.documentLimit) throws(CLIError) -> String {
        let bytes = try file(path, option: option, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIError("\(option): \(path) is not UTF-8 text") }
        return text
    }

    /// Standard input, at most `limit` bytes.
    static func standardInput(limit: Int = InputFile.documentLimit) throws(CLIError) -> [UInt8] {
        do { return try InputFile.readStandardInput(limit: limit) } catch { throw CLIError("\(error)") }
    }
}
