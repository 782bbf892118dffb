import Foundation
import Testing
import TestSupport

/// `carchain node`'s limit options: each range-checked with one `carchain: …` line and exit 1, each in
/// `--help` with an example, and the warning when the node listens beyond loopback.
@Suite struct NodeOptionTests {
    static let refused: [(arguments: [String], message: String)] = [
        (["--rpc-gas-cap", "5"], "--rpc-gas-cap must be 21000 to 2^63-1, got 5"),
        (["--rpc-gas-cap", "18446744073709551615"], "--rpc-gas-cap must be 21000 to 2^63-1"),
        (["--rpc-evm-timeout", "nan"], "--rpc-evm-timeout must be 0.001 to 86400 seconds"),
        (["--rpc-evm-timeout", "1e16"], "--rpc-evm-timeout must be 0.001 to 86400 seconds"),
        (["--rpc-evm-timeout=-1"], "--rpc-evm-timeout must be 0.001 to 86400 seconds"),
        (["--block-time", "1e16"], "--block-time must be 0.001 to 31536000 seconds"),
        (["--block-time", "0"], "--block-time must be 0.001 to 31536000 seconds"),
        (["--http-timeout", "0"], "--http-timeout must be 0.1 to 3600 seconds"),
        (["--http-timeout", "inf"], "--http-timeout must be 0.1 to 3600 seconds"),
        (["--allow-origin", "localhost:3000"], "--allow-origin must be an origin such as http://localhost:3000"),
        (["--allow-origin", "http://a.example/path"], "--allow-origin must be an origin"),
        (["--allow-host", "a b"], "--allow-host must be a host name or address"),
        (["--allow-host", ""], "--allow-host must be a host name or address"),
        (["--chain-id", "0"], "--chain-id must be 1 to"),
        (["--gas-limit", "18446744073709551615"], "--gas-limit must be 21000 to 2^63-1"),
        (["--hardfork", "frontier"], "unknown --hardfork frontier (one of byzantium, constantinople"),
        (["--hardfork", "amsterdam"], "unknown --hardfork amsterdam (one of byzantium"),
        // Issue 18's account, fee and state-file options.
        (["--accounts", "0"], "--accounts must be 1 to 1000, got 0"),
        (["--accounts", "1001"], "--accounts must be 1 to 1000"),
        (["--balance=-1"], "--balance must be an amount of ether"),
        (["--balance", "1e3"], "--balance must be an amount of ether"),
        (["--balance", "1" + String(repeating: "0", count: 80)], "--balance must be an amount of ether"),
        (["--base-fee", "1.5"], "--base-fee must be a whole number of wei"),
        (["--base-fee", "0x" + String(repeating: "f", count: 65)], "--base-fee must be a whole number of wei"),
        (["--derivation-path", "m/44'/60'/0'/0"], "--derivation-path must be a BIP-32 path ending in /"),
        (["--derivation-path", "m/x/"], "--derivation-path must be a BIP-32 path ending in /"),
        (["--mnemonic", "alpha bravo charlie secretword"], "--mnemonic is not a valid BIP-39 mnemonic"),
        (["--load-state", "/nonexistent/state.bin"], "--load-state /nonexistent/state.bin: no such file"),
        (["--dump-state", "/nonexistent/dir/state.bin"], "--dump-state /nonexistent/dir/state.bin: the directory"),
        (["--verbose", "--silent"], "give --verbose or --silent, not both"),
    ]

    @Test func outOfRangeOptionsAreOneLine() async throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        for (arguments, message) in Self.refused {
            let run = try await ProcessRunner.run(carchain, ["node", "--ephemeral", "--port", "0"] + arguments)
            #expect(run.status == 1, "\(arguments)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("carchain: " + message), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("secretword"), "the mnemonic was echoed: \(run.stderr)")
        }
    }

    @Test func helpShowsTheLimitsWithExamples() async throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let help = try await ProcessRunner.run(carchain, ["node", "--help"]).stdout
        for flag in [
            "--rpc-gas-cap", "--rpc-evm-timeout", "--allow-origin", "--allow-host", "--http-timeout", "--block-time",
            "--accounts", "--balance", "--mnemonic", "--derivation-path", "--base-fee", "--no-carchain", "--silent",
            "--dump-state", "--load-state",
        ] {
            #expect(help.contains(flag), "\(flag) missing from --help")
        }
        #expect(help.contains("carchain node --rpc-gas-cap 100000000 --rpc-evm-timeout 10"))
        #expect(help.contains("carchain node --allow-origin http://localhost:3000 --allow-host devbox.local"))
        #expect(help.contains("21000 to 2^63-1"))
        // Every fork a dev chain runs, named in --help, and the default.
        let forks = [
            "byzantium", "constantinople", "petersburg", "istanbul", "muirglacier", "berlin", "london", "arrowglacier",
            "grayglacier", "paris", "shanghai", "cancun", "prague", "osaka", "bpo1", "bpo2",
        ]
        for fork in forks { #expect(help.contains(fork), "--hardfork help does not name \(fork)") }
        // ArgumentParser wraps the help text: compare with the line breaks and indentation folded to spaces.
        let folded = help.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(folded.contains("(default: osaka for a new chain"))
        #expect(folded.contains("carchain node --ephemeral --load-state state.bin --dump-state state.bin --silent"))
        #expect(folded.contains("carchain node --ephemeral --no-carchain --accounts 3 --balance 100 --chain-id 31337"))
    }

    @Test func listeningBeyondLoopbackWarns() throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let process = Process()
        process.executableURL = carchain
        process.arguments = ["node", "--ephemeral", "--port", "0", "--host", "0.0.0.0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        defer {
            process.end(signal: SIGINT)
        }
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\n") && Date() < deadline && process.exitIfEnded() == nil {
            text += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        }
        #expect(text.hasPrefix("carchain node: warning: --host 0.0.0.0 is not a loopback address"))
        #expect(text.contains("--allow-host"))
    }
}
