import Foundation
import Testing
import TestSupport

/// Issue 14, the CLI's half: every numeric option of every command (but `carchain node`'s, tested with the node)
/// has a documented range checked at parse time. Each row runs the built binary with exactly that input and
/// expects exit status 1 and exactly one line on stderr — the one given — before any node is contacted or any file
/// is read. Before the ranges, `--timeout 1e10`, `--receipt-timeout 1e16`, `map --radius 1e20 --json` and
/// `--confirmations 18446744073709551615` passed validation and then trapped.
@Suite struct HostileOptionCLITests {
    static let u256Plus1 = "115792089237316195423570985008687907853269984665640564039457584007913129639936"
    static let tail = " (see --help)"
    static let seconds = "0.001 to 86400 seconds"
    static let amount = "0 to 2^256-1 wei; a number with a unit (20gwei, 1.5ether) or wei"
    static let childIndex = "0 to 2147483647 (2^31-1)"
    static let sign = ["tx", "sign", "--private-key-env", "PK", "--gas-price", "1"]
    static let signOK = sign + ["--nonce", "0", "--gas-limit", "21000"]

    /// (arguments, the whole stderr line after `carchain: `).
    static let cases: [(arguments: [String], message: String)] = [
        // Time limits.
        (["stats", "--timeout", "1e10"], "--timeout must be \(seconds), got 10000000000.0"),
        (["stats", "--timeout", "1e308"], "--timeout must be \(seconds), got 1e+308"),
        (["stats", "--timeout", "nan"], "--timeout must be \(seconds), got nan"),
        (["stats", "--timeout", "inf"], "--timeout must be \(seconds), got inf"),
        (["stats", "--timeout=-1"], "--timeout must be \(seconds), got -1.0"),
        (["stats", "--timeout", "0"], "--timeout must be \(seconds), got 0.0"),
        (["rent", "1234BCD", "--receipt-timeout", "1e16"], "--receipt-timeout must be \(seconds), got 1e+16"),
        (["rent", "1234BCD", "--receipt-timeout", "nan"], "--receipt-timeout must be \(seconds), got nan"),
        (["deploy", "--receipt-timeout=-inf"], "--receipt-timeout must be \(seconds), got -inf"),
        // Block counts, chain ids, gas, nonces.
        (["rent", "1234BCD", "--confirmations", "18446744073709551615"], "--confirmations must be 1 to 10000 blocks, got 18446744073709551615"),
        (["return", "--confirmations", "0"], "--confirmations must be 1 to 10000 blocks, got 0"),
        (["cars", "--chain-id", "18446744073709551615"], "--chain-id must be 1 to 9223372036854775771 (EIP-2294), got 18446744073709551615"),
        (["stats", "--chain-id", "0"], "--chain-id must be 1 to 9223372036854775771 (EIP-2294), got 0"),
        (["user", "register", "u", "--gas-limit", "18446744073709551615"], "--gas-limit must be 21000 to 2^63-1, got 18446744073709551615"),
        (["credit", "add", "5", "--gas-limit", "20999"], "--gas-limit must be 21000 to 2^63-1, got 20999"),
        (["car", "register", "1234BCD", "--dev-account", "2147483648"], "--dev-account must be \(childIndex), got 2147483648"),
        (["deploy", "--dev-account", "4294967295"], "--dev-account must be \(childIndex), got 4294967295"),
        // Amounts.
        (["rent", "1234BCD", "--gas-price", u256Plus1], #"--gas-price must be \#(amount): amount "\#(u256Plus1)" is larger than 2^256 - 1 wei"#),
        (["rent", "1234BCD", "--max-fee", "1e9gwei"], #"--max-fee must be \#(amount): invalid character "9" at offset 2 in "1e9gwei""#),
        (["rent", "1234BCD", "--priority-fee=-1gwei"], #"--priority-fee must be \#(amount): negative amount "-1gwei": amounts cannot be negative"#),
        (["rent", "1234BCD", "--priority-fee", "nan"], #"--priority-fee must be \#(amount): unknown unit "nan" (expected one of wei, kwei, mwei, gwei, szabo, finney, ether)"#),
        (["signup", "a@example.com", "--fund", "1000000000000000000000000000000000000000000000000000000000000 ether"],
         #"--fund must be \#(amount): amount "1000000000000000000000000000000000000000000000000000000000000 ether" is larger than 2^256 - 1 wei"#),
        // tx sign / tx decode.
        (sign + ["--nonce", "18446744073709551615", "--gas-limit", "21000"], "--nonce must be 0 to 2^64-2 (EIP-2681), got 18446744073709551615"),
        (sign + ["--nonce", "0", "--gas-limit", "0"], "--gas-limit must be 21000 to 2^63-1, got 0"),
        (signOK + ["--chain-id", "18446744073709551615"], "--chain-id must be 1 to 9223372036854775771 (EIP-2294), got 18446744073709551615"),
        (signOK + ["--value", u256Plus1], #"--value must be \#(amount): amount "\#(u256Plus1)" is larger than 2^256 - 1 wei"#),
        (signOK + ["--value", "0x1" + String(repeating: "0", count: 64)], "--value must be \(amount): number does not fit in 256 bits (maximum is 2^256 - 1)"),
        (["tx", "sign", "--private-key-env", "PK", "--nonce", "0", "--gas-limit", "21000", "--gas-price=-5"], "--gas-price must be \(amount): negative amount \"-5\": amounts cannot be negative"),
        (["tx", "decode", "0x00", "--chain-id", "0"], "--chain-id must be 1 to 9223372036854775771 (EIP-2294), got 0"),
        // Indices.
        (["wallet", "derive", "--mnemonic-env", "M", "--index", "2147483648"], "--index must be \(childIndex), got 2147483648"),
        (["wallet", "derive", "--mnemonic-env", "M", "--account", "4294967295"], "--account must be \(childIndex), got 4294967295"),
        // The EVM tools.
        (["evm", "run", "--code", "0x00", "--gas", "9223372036854775808"], "--gas must be 0 to 2^63-1, got 9223372036854775808"),
        (["evm", "run", "--code", "0x00", "--bench", "0"], "--bench must be 1 to 1000000 runs, got 0"),
        (["evm", "run", "--code", "0x00", "--bench", "9223372036854775807"], "--bench must be 1 to 1000000 runs, got 9223372036854775807"),
        (["evm", "run", "--code", "0x00", "--value", u256Plus1], "--value must be 0 to 2^256-1 wei: number does not fit in 256 bits (maximum is 2^256 - 1)"),
        (["evm", "statetest", "x.json", "--jobs", "0"], "--jobs must be 1 to 256, got 0"),
        (["evm", "statetest", "x.json", "--jobs", "9223372036854775807"], "--jobs must be 1 to 256, got 9223372036854775807"),
        (["evm", "statetest", "x.json", "--min-pass-rate", "nan"], "--min-pass-rate must be 0 to 100 (percent), got nan"),
        (["evm", "statetest", "x.json", "--min-pass-rate", "1e308"], "--min-pass-rate must be 0 to 100 (percent), got 1e+308"),
        // Simulation and gas reports.
        (["simulate", "--seed", "1", "--users", "0"], "--users must be 1 to 1000, got 0"),
        (["simulate", "--seed", "1", "--cars", "9223372036854775807"], "--cars must be 1 to 1000, got 9223372036854775807"),
        (["simulate", "--seed", "1", "--steps=-1"], "--steps must be 0 to 1000000, got -1"),
        (["simulate", "--seed", "1", "--gas-price", u256Plus1], #"invalid gas price "\#(u256Plus1)": amount "\#(u256Plus1)" is larger than 2^256 - 1 wei"#),
        (["gas-report", "--eth-price", "nan"], #"invalid ETH price "nan": expected a decimal number such as 3500 or 3500.25 (at most 6 decimals)"#),
        (["gas-report", "--eth-price", "1e308"], #"invalid ETH price "1e308": expected a decimal number such as 3500 or 3500.25 (at most 6 decimals)"#),
        // Distances and positions.
        (["map", "--radius", "1e20", "--json", "--out", "/nonexistent/map.svg"], #"invalid distance "1e20": expected 1m to 20000km, a number with m or km, e.g. 500m or 2km"#),
        (["map", "--radius", "1e308km", "--out", "/nonexistent/map.svg"], #"invalid distance "1e308km": expected 1m to 20000km, a number with m or km, e.g. 500m or 2km"#),
        (["cars", "--radius", "20001km"], #"invalid distance "20001km": expected 1m to 20000km, a number with m or km, e.g. 500m or 2km"#),
        (["cars", "--radius", "0.5m"], #"invalid distance "0.5m": expected 1m to 20000km, a number with m or km, e.g. 500m or 2km"#),
        (["cars", "--radius", "nan"], #"invalid distance "nan": expected 1m to 20000km, a number with m or km, e.g. 500m or 2km"#),
        (["cars", "--near", "nan,inf"], #"invalid position "nan,inf": expected LAT,LON in degrees, e.g. 40.4168,-3.7038 (latitude -85…85, longitude -180…180)"#),
        (["car", "move", "1234BCD", "--at", "1e308,0"], #"invalid position "1e308,0": expected LAT,LON in degrees, e.g. 40.4168,-3.7038 (latitude -85…85, longitude -180…180)"#),
    ]

    /// Values past the option's type are ArgumentParser's one-line error.
    static let unparsable: [(arguments: [String], message: String)] = [
        (sign + ["--nonce", "18446744073709551616", "--gas-limit", "21000"], "The value '18446744073709551616' is invalid for '--nonce <nonce>'"),
        (["stats", "--chain-id=-1"], "The value '-1' is invalid for '--chain-id <chain-id>'"),
        (["wallet", "derive", "--mnemonic-env", "M", "--index", "4294967296"], "The value '4294967296' is invalid for '--index <index>'"),
    ]

    @Test func everyHostileOptionIsOneLineAndExitOne() throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        // No node anywhere: the checks must come before any connection (an unreachable RPC URL proves it).
        let environment = ["CARCHAIN_HOME": home.path, "CARCHAIN_RPC": "http://127.0.0.1:1", "PK": "0x" + String(repeating: "46", count: 32), "M": "test"]
        for (arguments, message) in Self.cases + Self.unparsable {
            let out = try TimedProcess.run(carchain, arguments, environment: environment, timeout: 60)
            #expect(!out.timedOut, "\(arguments)")
            #expect(out.status == 1, "\(arguments): status \(out.status), stderr \(out.stderr)")
            #expect(out.stderr == "carchain: \(message)\(Self.tail)\n", "\(arguments)")
            #expect(out.stdout.isEmpty, "\(arguments)")
        }
        // Nothing was created in the data directory: no command got as far as opening it.
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test func helpTextStatesEachRange() throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let expectations: [(command: [String], needles: [String])] = [
            (["rent"], ["(\(Self.seconds))", "(1 to 10000 blocks)", "21000 to 2^63-1", "1 to 9223372036854775771 (EIP-2294)", "\(Self.amount)", Self.childIndex]),
            (["tx", "sign"], ["0 to 2^64-2 (EIP-2681)", "21000 to 2^63-1", "EIP-2294", "0 to 2^256-1 wei"]),
            (["tx", "decode"], ["EIP-2294"]),
            (["wallet", "derive"], [Self.childIndex]),
            (["evm", "run"], ["0 to 2^63-1", "1 to 1000000 runs", "0 to 2^256-1"]),
            (["evm", "statetest"], ["1 to 256", "0 to 100 (percent)"]),
            (["simulate"], ["1 to 1000", "0 to 1000000", "0 to 18446744073709551615"]),
            (["gas-report"], ["0 to 2^256-1 wei", "at most 6 decimals"]),
            (["signup"], [Self.amount]),
        ]
        for (command, needles) in expectations {
            let out = try TimedProcess.run(carchain, command + ["--help"], timeout: 60)
            #expect(out.status == 0)
            // ArgumentParser wraps help lines: compare with the whitespace collapsed.
            let text = out.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for needle in needles {
                #expect(text.contains(needle.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(command) --help lacks \(needle)")
            }
        }
    }
}
