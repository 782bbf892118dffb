import EthereumPrimitives
import Foundation
import FuzzHarnesses
import Testing
import TestSupport

/// The fuzzing smoke run of `make test`: every harness body (the same functions the libFuzzer executables call)
/// runs its seed corpus and then a fixed number of mutants of it, made by a small deterministic mutator (bit and
/// byte flips, boundary bytes, inserted and deleted ranges, splices of two seeds, libFuzzer dictionary tokens).
///
/// This is not a replacement for `make fuzz`: there is no coverage guidance and no AddressSanitizer, whose build
/// would add a quarter of an hour to every CI run. It keeps the cheap promise that a change which makes a
/// harness trap on an input a step away from its seeds fails `make test`, on every run, with the input saved.
///
/// `CARCHAIN_FUZZ_SMOKE_MUTANTS` sets the number of mutants per harness (default 1,500; structured harnesses,
/// which run a whole chain or auth service per input, get a tenth). Each harness runs in a child process (an exit
/// test), which first writes each input to `.build/fuzz-smoke/<harness>.input`, so a crash leaves behind the
/// input that caused it and the failure message says where. While `Fuzz/regressions/KNOWN-OPEN` lists open crash
/// classes, the node harnesses avoid them (`CARCHAIN_FUZZ_AVOID_KNOWN=1`), as `make fuzz` does.
@Suite struct FuzzSmokeTests {
    @Test(arguments: FuzzTarget.allCases)
    func mutants(_ target: FuzzTarget) async throws {
        let name = target.rawValue
        let seeds = try RegressionInput.files(in: "Fuzz/corpus/\(name)").map { try [UInt8](Data(contentsOf: $0)) }
        #expect(!seeds.isEmpty, "no seed corpus for \(name): run tools/fuzz_corpus.py")
        let tokens = FuzzSmokeMutator.dictionary(for: target)
        let count = FuzzSmokeMutator.mutantCount(for: target)
        let saved = FuzzSmokeMutator.inputFile(for: name)
        await #expect(processExitsWith: .success, "a mutant of \(name)'s corpus fails; the input is \(saved.path)") {
            [name = name as String, seeds = seeds as [[UInt8]], tokens = tokens as [[UInt8]], count = count as Int] in
            await FuzzSmokeMutator.runInChild(target: name, seeds: seeds, tokens: tokens, mutants: count)
        }
    }
}

/// The deterministic mutator and the child-process loop of ``FuzzSmokeTests``.
enum FuzzSmokeMutator {
    static func mutantCount(for target: FuzzTarget) -> Int {
        let environment = ProcessInfo.processInfo.environment["CARCHAIN_FUZZ_SMOKE_MUTANTS"]
        let base = environment.flatMap { Int($0) }.map { min(max($0, 0), 10_000_000) } ?? 1_500
        switch target {
        case .node, .auth: return max(base / 10, 1)
        case .rlp, .transaction, .abi, .keystore, .jsonrpc: return base
        }
    }

    static func inputFile(for name: String) -> URL {
        TestPaths.packageRoot.appendingPathComponent(".build/fuzz-smoke/\(name).input")
    }

    /// The quoted tokens of `Fuzz/dictionaries/<harness>.dict` (libFuzzer's format: `"text"` with `\"`, `\\`
    /// and `\xNN` escapes), or none when the harness has no dictionary.
    static func dictionary(for target: FuzzTarget) -> [[UInt8]] {
        let url = TestPaths.packageRoot.appendingPathComponent("Fuzz/dictionaries/\(target.rawValue).dict")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> [UInt8]? in
            guard let open = line.firstIndex(of: "\""), line.last == "\"", open < line.index(before: line.endIndex)
            else { return nil }
            let body = Array(line[line.index(after: open)..<line.index(before: line.endIndex)].utf8)
            var bytes: [UInt8] = []
            var index = 0
            while index < body.count {
                if body[index] == UInt8(ascii: "\\"), index + 1 < body.count {
                    if body[index + 1] == UInt8(ascii: "x"), index + 3 < body.count,
                        let value = UInt8(String(decoding: body[(index + 2)...(index + 3)], as: UTF8.self), radix: 16)
                    {
                        bytes.append(value)
                        index += 4
                        continue
                    }
                    bytes.append(body[index + 1])
                    index += 2
                    continue
                }
                bytes.append(body[index])
                index += 1
            }
            return bytes.isEmpty ? nil : bytes
        }
    }

    /// Runs in the exit test's child: the seeds, then the mutants, each saved to the input file first.
    static func runInChild(target name: String, seeds: [[UInt8]], tokens: [[UInt8]], mutants: Int) async {
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("unknown harness \(name)\n".utf8))
            exit(2)
        }
        // While crash classes are listed open (Fuzz/regressions/KNOWN-OPEN, replayed as known issues by
        // FuzzRegressionTests), the node harnesses keep to small numbers for their methods, as `make fuzz` does.
        if !RegressionInput.knownOpen.isEmpty { setenv("CARCHAIN_FUZZ_AVOID_KNOWN", "1", 1) }
        let file = inputFile(for: name)
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var generator = SplitMix64(seed: name.utf8.reduce(0x9E37_79B9_7F4A_7C15) { ($0 &* 31) &+ UInt64($1) })
        var inputs = seeds[...].makeIterator()
        var made = 0
        while true {
            let bytes: [UInt8]
            if let seed = inputs.next() {
                bytes = seed
            } else if made < mutants {
                made += 1
                bytes = mutate(seeds, tokens: tokens, using: &generator)
            } else {
                break
            }
            do { try Data(bytes).write(to: file) } catch {
                FileHandle.standardError.write(Data("\(name): cannot save the input to \(file.path): \(error)\n".utf8))
                exit(2)
            }
            do { try await FuzzHarness.run(target, bytes) } catch {
                FileHandle.standardError.write(Data("\(name): \(error) (input saved in \(file.path))\n".utf8))
                exit(1)
            }
        }
        try? FileManager.default.removeItem(at: file)
    }

    /// One mutant: a random seed with one to four mutations stacked, at most 64 KiB long.
    static func mutate(_ seeds: [[UInt8]], tokens: [[UInt8]], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = seeds[generator.below(seeds.count)]
        for _ in 0...generator.below(4) {
            switch generator.below(tokens.isEmpty ? 7 : 8) {
            case 0 where !bytes.isEmpty:  // flip one bit
                let index = generator.below(bytes.count)
                bytes[index] ^= 1 << UInt8(generator.below(8))
            case 1 where !bytes.isEmpty:  // a boundary byte
                bytes[generator.below(bytes.count)] = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x22, 0x5c, 0x30][generator.below(8)]
            case 2:  // insert random bytes
                let at = generator.below(bytes.count + 1)
                let run = (0..<(1 + generator.below(8))).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                bytes.insert(contentsOf: run, at: at)
            case 3 where !bytes.isEmpty:  // delete a range
                let start = generator.below(bytes.count)
                bytes.removeSubrange(start..<min(bytes.count, start + 1 + generator.below(16)))
            case 4 where !bytes.isEmpty:  // duplicate a range
                let start = generator.below(bytes.count)
                let end = min(bytes.count, start + 1 + generator.below(32))
                bytes.insert(contentsOf: bytes[start..<end], at: generator.below(bytes.count + 1))
            case 5:  // splice with another seed
                let other = seeds[generator.below(seeds.count)]
                let cut = generator.below(bytes.count + 1)
                let from = generator.below(other.count + 1)
                bytes = Array(bytes[..<cut]) + other[from...]
            case 6 where !bytes.isEmpty:  // truncate
                bytes.removeLast(generator.below(bytes.count) + 1)
            case 7:  // a dictionary token
                bytes.insert(contentsOf: tokens[generator.below(tokens.count)], at: generator.below(bytes.count + 1))
            default:
                bytes.append(UInt8(truncatingIfNeeded: generator.next()))
            }
        }
        return bytes.count > 65_536 ? Array(bytes.prefix(65_536)) : bytes
    }
}

extension SplitMix64 {
    /// A value in `0..<bound` (bound > 0); the modulo bias does not matter for choosing mutations.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
