import ArgumentParser
import AuthEmulator
import CarChain
import Chain
import Foundation

/// Where the auth service is and how the password is given: the embedded service on the data dir by default,
/// a served emulator or real Firebase with `--auth-url` (and `--api-key`).
struct AuthOptions: ParsableArguments {
    @Option(name: .customLong("auth-url"), help: ArgumentHelp("A served auth emulator (e.g. http://127.0.0.1:8545) or https://identitytoolkit.googleapis.com (default: the embedded service on the data dir).", valueName: "url"))
    var authURL: String?

    @Option(name: .customLong("api-key"), help: ArgumentHelp("The Firebase web API key (needed for real Firebase).", valueName: "key"))
    var apiKey: String?

    @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input instead of a no-echo prompt.")
    var passwordStdin = false

    /// The client these options describe: `--auth-url`, else `url` (a saved session's service), else the
    /// `carchain node` serving the data dir (its auth emulator, over HTTP), else the service in-process on the
    /// data dir's `auth/`.
    func client(paths: AppPaths, url: String? = nil) async throws -> AuthClient {
        let served = ChainLock.owner(of: paths.dataDirectory)?.url
        return try await AuthClient.resolve(authURL: authURL ?? url ?? served, apiKey: apiKey) {
            try await AuthEmulator.open(dataDirectory: paths.authDirectory.path)
        }
    }

    /// The password: stdin's first line with `--password-stdin`, else `passwordFile`'s first line, else a
    /// no-echo prompt (typed twice when `confirm`).
    func password(prompt: String, confirm: Bool = false, passwordFile: String? = nil) throws -> String {
        if passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CLIError("--password-stdin: no password on standard input")
            }
            return line.hasSuffix("\r") ? String(line.dropLast()) : line
        }
        if let passwordFile {
            guard let data = FileManager.default.contents(atPath: passwordFile) else {
                throw CLIError("cannot read password file \(passwordFile)")
            }
            let text = String(decoding: data, as: UTF8.self)
            return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        }
        let first: String
        do {
            first = try Secrets.promptWithoutEcho(prompt)
        } catch {
            // Without a terminal (a script, a pipe), the password has to come from standard input.
            throw CLIError("no terminal to ask for the password: pass --password-stdin")
        }
        if confirm {
            let second = try Secrets.promptWithoutEcho("Repeat password: ")
            guard first == second else { throw CLIError("the passwords do not match") }
        }
        return first
    }
}
