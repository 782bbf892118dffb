import ArgumentParser
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

    @Option(help: ArgumentHelp("Sign with the key in this keystore v3 file (password from --password-file or a prompt).", valueName: "FILE"))
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

/// `--password-file`: the password is the file's first line; otherwise a no-echo prompt on the terminal.
struct PasswordOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read the keystore password from the first line of this file.", valueName: "FILE"))
    var passwordFile: String?

    /// The password from the file or, on a terminal, typed without echo (twice when `confirm`).
    func read(prompt: String, confirm: Bool = false) throws -> String {
        if let passwordFile {
            guard let data = FileManager.default.contents(atPath: passwordFile) else {
                throw CLIError("cannot read password file \(passwordFile)")
            }
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
}

/// Reading secrets without leaking them.
enum Secrets {
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

    /// Reads a line from the controlling terminal with echo turned off (termios), restoring the terminal after.
    static func promptWithoutEcho(_ prompt: String) throws -> String {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError("no terminal to ask for a password: pass --password-file FILE")
        }
        defer { close(fd) }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { throw CLIError("cannot read terminal settings for the password prompt") }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { throw CLIError("cannot turn off terminal echo") }
        defer { _ = tcsetattr(fd, TCSAFLUSH, &original) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { bytes.append(byte) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// `--keystore-dir`, default `$CARCHAIN_HOME/keystore` (or `~/.carchain/keystore`).
struct KeystoreDirectoryOption: ParsableArguments {
    @Option(help: ArgumentHelp("The keystore directory (default: $CARCHAIN_HOME/keystore, or ~/.carchain/keystore).", valueName: "DIR"))
    var keystoreDir: String?

    var directory: KeystoreDirectory {
        keystoreDir.map { KeystoreDirectory(url: URL(fileURLWithPath: $0)) } ?? .defaultDirectory()
    }
}
