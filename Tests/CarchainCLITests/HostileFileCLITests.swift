import EthereumPrimitives
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 14, files: what the CLI reads — keystores, `--password-file`, ABI and JSON files, prestates, scenarios,
/// artifacts, standard input — made huge, endless, empty, binary, deeply nested, a directory or a loop of links.
/// Each row runs the built binary and expects exit status 1 and the one line given, within the time limit.
@Suite struct HostileFileCLITests {
    struct Sandbox {
        let root: String
        let carchain: URL

        init?() throws {
            guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
            self.carchain = carchain
            root = NSTemporaryDirectory() + "carchain-hostile-files-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            try Data(nested.utf8).write(to: URL(fileURLWithPath: root + "/nested.json"))
            try Data().write(to: URL(fileURLWithPath: root + "/empty.json"))
            try Data([0xff, 0xfe, 0x00, 0x01, 0x80]).write(to: URL(fileURLWithPath: root + "/binary.json"))
            try Data(repeating: 0x20, count: (16 << 20) + 1).write(to: URL(fileURLWithPath: root + "/big.json"))
            try Data("pw\n".utf8).write(to: URL(fileURLWithPath: root + "/password"))
            try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: root + "/loop-a", withDestinationPath: root + "/loop-b")
            try FileManager.default.createSymbolicLink(atPath: root + "/loop-b", withDestinationPath: root + "/loop-a")
            try FileManager.default.createSymbolicLink(atPath: root + "/zero", withDestinationPath: "/dev/zero")
            #expect(mkfifo(root + "/fifo", 0o600) == 0)
            // A real keystore (light scrypt: n = 4096, r = 8, p = 6), then made to ask 1 TiB of scrypt mixing
            // (n = 2^20, r = 8: 1 GiB, 1024 times) and 10^9 PBKDF2 rounds.
            let made = try TimedProcess.run(
                carchain, ["wallet", "new", "--kdf", "light", "--password-file", root + "/password", "--keystore-dir", root + "/ks", "--json"],
                timeout: 120)
            let file = try #require(try JSONValue(parsing: made.stdout)["file"]?.stringValue, "wallet new: \(made.stderr)")
            let json = try String(contentsOfFile: file, encoding: .utf8)
            #expect(json.contains(#""n":4096,"p":6,"r":8"#))
            let scrypt = json.replacingOccurrences(of: #""n":4096,"p":6,"r":8"#, with: #""n":1048576,"p":1024,"r":8"#)
            try Data(scrypt.utf8).write(to: URL(fileURLWithPath: root + "/hostile-kdf.json"))
            let pbkdf2 = json.replacingOccurrences(of: #""kdf":"scrypt""#, with: #""kdf":"pbkdf2""#)
                .replacingOccurrences(of: #""n":4096,"p":6,"r":8"#, with: #""c":1000000000,"prf":"hmac-sha256""#)
            try Data(pbkdf2.utf8).write(to: URL(fileURLWithPath: root + "/hostile-pbkdf2.json"))
        }

        func run(_ arguments: [String], stdinFrom: String? = nil) throws -> TimedProcess.Outcome {
            let environment = ["CARCHAIN_HOME": root + "/home", "CARCHAIN_RPC": "http://127.0.0.1:1"]
            guard let stdinFrom else { return try TimedProcess.run(carchain, arguments, environment: environment, timeout: 60) }
            // Standard input from a file or device: through the shell's redirection.
            let quoted = ([carchain.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            return try TimedProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "exec " + quoted.joined(separator: " ") + " < '\(stdinFrom)'"],
                environment: environment, timeout: 60)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func everyHostileFileIsOneLine() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        let r = box.root
        let pw = ["--password-file", r + "/password"]
        let sign = ["tx", "sign", "--nonce", "0", "--gas-limit", "21000", "--gas-price", "1"]
        let abiDecodeError = ["abi", "decode-error", "0x08c379a0"]
        let cases: [(arguments: [String], stdin: String?, message: String)] = [
            // Keystores.
            (sign + ["--keystore", "/dev/zero"] + pw, nil, "cannot read keystore /dev/zero: larger than 1 MiB, the limit for this kind of file"),
            (sign + ["--keystore", r + "/zero"] + pw, nil, "cannot read keystore \(r)/zero: larger than 1 MiB, the limit for this kind of file"),
            (sign + ["--keystore", r + "/dir"] + pw, nil, "cannot read keystore \(r)/dir: a directory, not a file"),
            (sign + ["--keystore", r + "/loop-a"] + pw, nil, "cannot read keystore \(r)/loop-a: Too many levels of symbolic links"),
            (sign + ["--keystore", r + "/fifo"] + pw, nil, "not a keystore v3 file: the file is not JSON"),
            (sign + ["--keystore", r + "/empty.json"] + pw, nil, "not a keystore v3 file: the file is not JSON"),
            (sign + ["--keystore", r + "/binary.json"] + pw, nil, "not a keystore v3 file: the file is not UTF-8 text"),
            (sign + ["--keystore", r + "/nested.json"] + pw, nil, "not a keystore v3 file: the file is not JSON"),
            (sign + ["--keystore", r + "/hostile-kdf.json"] + pw, nil,
             "invalid keystore parameter: scrypt n·r·p = 8589934592 is more work than 4 GiB of mixing (n·r·p at most 33554432)"),
            (sign + ["--keystore", r + "/hostile-pbkdf2.json"] + pw, nil, "invalid keystore parameter: pbkdf2 c must be 1…10000000, got 1000000000"),
            (["wallet", "address", "--keystore", "/dev/zero"], nil, "cannot read keystore /dev/zero: larger than 1 MiB, the limit for this kind of file"),
            // Password files and standard input.
            (["wallet", "new", "--password-file", "/dev/zero"], nil, "--password-file: /dev/zero is larger than 64 KiB, the limit for this kind of file"),
            (["wallet", "new", "--password-file", r + "/dir"], nil, "--password-file: \(r)/dir is a directory, not a file"),
            (["wallet", "new", "--password-file", r + "/none"], nil, "--password-file: cannot open \(r)/none: No such file or directory"),
            (["wallet", "new", "--password-stdin"], "/dev/zero", "--password-stdin: the first line is longer than 65536 bytes"),
            (["tx", "decode"], "/dev/zero", "standard input is larger than 16 MiB, the limit for this kind of file"),
            (["util", "keccak"], r + "/big.json", "standard input is larger than 16 MiB, the limit for this kind of file"),
            (["evm", "batch"], "/dev/zero", "standard input is larger than 256 MiB, the limit for this kind of file"),
            // ABI, typed data, prestates, scenarios, artifacts.
            (abiDecodeError + ["--abi", "/dev/zero"], nil, "--abi: /dev/zero is larger than 16 MiB, the limit for this kind of file"),
            (abiDecodeError + ["--abi", r + "/big.json"], nil, "--abi: \(r)/big.json is larger than 16 MiB, the limit for this kind of file"),
            (abiDecodeError + ["--abi", r + "/nested.json"], nil, "invalid JSON ABI at $: not valid JSON"),
            (["sign-message", "--typed-data", r + "/binary.json", "--private-key-env", "PK"], nil, "--typed-data: \(r)/binary.json is not UTF-8 text"),
            (["evm", "run", "--prestate", r + "/dir"], nil, "--prestate: \(r)/dir is a directory, not a file"),
            (["evm", "run", "--prestate", r + "/nested.json"], nil, "bad --prestate \(r)/nested.json: not valid JSON: nesting deeper than 64 levels at byte 64"),
            (["evm", "batch", "/dev/zero"], nil, "FILE: /dev/zero is larger than 256 MiB, the limit for this kind of file"),
            (["gas-report", "--scenario", "/dev/zero"], nil, "--scenario: /dev/zero is larger than 16 MiB, the limit for this kind of file"),
            (["gas-report", "--scenario", r + "/nested.json"], nil, "scenario nested.json is not valid JSON: too many nested arrays or dictionaries at line 1, column 514"),
            (["gas-report", "--compare", r + "/loop-a"], nil, "--compare: cannot open \(r)/loop-a: Too many levels of symbolic links"),
            (["deploy", "--artifact", "/dev/zero"], nil, "--artifact: /dev/zero is larger than 64 MiB, the limit for this kind of file"),
        ]
        for (arguments, stdin, message) in cases {
            let out = try box.run(arguments, stdinFrom: stdin)
            #expect(!out.timedOut, "\(arguments)")
            #expect(out.status == 1, "\(arguments): status \(out.status), stderr \(out.stderr)")
            #expect(out.stderr == "carchain: \(message)\n", "\(arguments) < \(stdin ?? "-")")
        }
    }
}
