import ArgumentParser
import CarChainKit
import EthereumCrypto
import EthereumPrimitives
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a signing key comes from: an environment variable holding hex, or a keystore file and its password.
struct SignerOptions: ParsableArguments {
    @Option(name: .customLong("private-key-env"), help: ArgumentHelp("Read the private key (hex) from this environment variable.", valueName: "VAR"))
    var privateKeyEnv: String?

    @Option(help: ArgumentHelp("Sign with the key in this keystore v3 file (password from a prompt, --password-file or --password-stdin).", valueName: "FILE"))
    var keystore: String?

    @OptionGroup var password: PasswordOptions

    func validate() throws {
        if (privateKeyEnv == nil) == (keystore == nil) {
            throw ValidationError("give exactly one of --private-key-env VAR and --keystore FILE")
        }
    }

    /// Loads the key. Errors never contain the key or the password.
    func loadKey() throws -> PrivateKey {
        if let privateKeyEnv { return try Secrets.privateKey(fromEnvironment: privateKeyEnv) }
        let url = URL(fileURLWithPath: keystore ?? "")
        let file = try KeystoreDirectory.load(url)
        let pass = try password.read(prompt: "Password for \(url.lastPathComponent): ")
        return try file.decrypt(password: pass)
    }
}

/// How every command that needs a secret (a keystore or account password) gets it: a no-echo prompt on the
/// terminal by default, the first line of a file with `--password-file`, or the first line of standard input
/// with `--password-stdin` (for scripts). The one option group for passwords.
struct PasswordOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read the password from the first line of this file.", valueName: "FILE"))
    var passwordFile: String?

    @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input instead of a no-echo prompt.")
    var passwordStdin = false

    func validate() throws {
        if passwordFile != nil && passwordStdin { throw ValidationError("give --password-file or --password-stdin, not both") }
    }

    /// The password: stdin's first line with `--password-stdin`, the file's first line with `--password-file`,
    /// else typed on the terminal without echo (twice when `confirm`).
    func read(prompt: String, confirm: Bool = false) throws -> String {
        try Secrets.password(file: passwordFile, fileOption: "--password-file", stdin: passwordStdin, prompt: prompt, confirm: confirm)
    }

    /// ``read(prompt:confirm:)`` as a function the libraries call when they need the password (and only then).
    func reader() -> @Sendable (String) throws -> String {
        let options = self
        return { prompt in try options.read(prompt: prompt) }
    }
}

/// Reading secrets without leaking them.
enum Secrets {
    /// A password: standard input's first line when `stdin`, else the first line of `file`, else typed on the
    /// terminal without echo (twice when `confirm`).
    static func password(file: String?, fileOption: String, stdin: Bool, prompt: String, confirm: Bool) throws -> String {
        if stdin {
            let line = try Secrets.firstLine(of: STDIN_FILENO, limit: InputFile.secretLimit, what: "--password-stdin")
            guard !line.isEmpty else { throw CLIError("--password-stdin: no password on standard input") }
            return line
        }
        if let file {
            let data = try CLIInput.file(file, option: fileOption, limit: InputFile.secretLimit)
            let text = String(decoding: data, as: UTF8.self)
            return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        }
        let first = try Secrets.promptWithoutEcho(prompt)
        if confirm {
            let second = try Secrets.promptWithoutEcho("Repeat password: ")
            guard first == second else { throw CLIError("the passwords do not match") }
        }
        return first
    }

    /// A private key from an environment variable; the error names the variable, never its value.
    static func privateKey(fromEnvironment name: String) throws -> PrivateKey {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw CLIError("environment variable \(name) is not set")
        }
        do {
            return try PrivateKey(hex: value.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw CLIError("environment variable \(name) does not hold a private key: \(error)")
        }
    }

    /// A secret text (mnemonic, passphrase) from an environment variable.
    static func text(fromEnvironment name: String, what: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw CLIError("environment variable \(name) (\(what)) is not set")
        }
        return value
    }

    /// The first line of `descriptor` without its line end, read a byte at a time (nothing after the newline is
    /// consumed), at most `limit` bytes: an endless stream without a newline is an error, not all of memory.
    static func firstLine(of descriptor: Int32, limit: Int, what: String) throws(CLIError) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count != 1 || byte == UInt8(ascii: "\n") { break }
            guard bytes.count < limit else { throw CLIError("\(what): the first line is longer than \(limit) bytes") }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a line from the controlling terminal with echo turned off (termios). The terminal's settings come
    /// back however the read ends: normally, or by Ctrl-C / SIGTERM / SIGHUP, whose handler restores them
    /// and then lets the signal take its usual course.
    static func promptWithoutEcho(_ prompt: String) throws -> String {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError("no terminal to ask for the password: pass --password-file FILE or --password-stdin")
        }
        defer { close(fd) }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { throw CLIError("cannot read terminal settings for the password prompt") }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        TerminalRestore.arm(fd: fd, settings: original)
        defer { TerminalRestore.disarm() }
        // Echo goes off before the prompt shows, so nothing typed after it can appear.
        guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { throw CLIError("cannot turn off terminal echo") }
        defer { _ = tcsetattr(fd, TCSAFLUSH, &original) }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        return try firstLine(of: fd, limit: InputFile.secretLimit, what: "the password")
    }
}

/// Puts the terminal's settings back when a signal ends the process during a no-echo prompt, so Ctrl-C never
/// leaves the shell without echo. The handler only calls async-signal-safe functions (tcsetattr, signal,
/// raise) on state written before it is installed.
enum TerminalRestore {
    nonisolated(unsafe) private static var descriptor: Int32 = -1
    nonisolated(unsafe) private static var settings = termios()
    nonisolated(unsafe) private static var previous: [(@convention(c) (Int32) -> Void)?] = []
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func arm(fd: Int32, settings saved: termios) {
        settings = saved
        descriptor = fd
        previous = signals.map { signal($0, restoreAndReraise) }
    }

    /// Puts back the handlers that were there before ``arm(fd:settings:)``.
    static func disarm() {
        for (number, handler) in zip(signals, previous) { _ = signal(number, handler) }
        descriptor = -1
    }

    private static let restoreAndReraise: @convention(c) (Int32) -> Void = { number in
        if TerminalRestore.descriptor >= 0 { _ = tcsetattr(TerminalRestore.descriptor, TCSAFLUSH, &TerminalRestore.settings) }
        _ = signal(number, SIG_DFL)
        _ = raise(number)
    }
}

/// `--keystore-dir`, default `$CARCHAIN_HOME/keystore` (or `~/.carchain/keystore`).
struct KeystoreDirectoryOption: ParsableArguments {
    @Option(help: ArgumentHelp("The keystore directory (default: $CARCHAIN_HOME/keystore, or ~/.carchain/keystore).", valueName: "DIR"))
    var keystoreDir: String?

    var directory: KeystoreDirectory {
        keystoreDir.map { KeystoreDirectory(url: URL(fileURLWithPath: $0)) } ?? CarchainHome.current().keystores
    }
}
