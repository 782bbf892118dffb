import CarChainKit
import EthereumPrimitives
import EthereumTesting
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `carchain simulate --spec FILE` (docs/SCENARIOS.md, "Simulating any contract"): the spec's set-up on a test bench,
/// then random sequences of its actions from its actors through EthereumTesting's `InvariantTest` (seeded, shrunk on
/// failure), or one replay file's steps.
struct SpecSimulation {
    let command: SimulateCommand
    let path: String

    /// The spec at `path`; its errors name the file and the field.
    static func load(_ path: String) throws -> SimulationSpec {
        let bytes = try CLIInput.file(path, option: "--spec")
        let url = URL(fileURLWithPath: path)
        let document: JSONValue
        do { document = try JSONValue(parsing: bytes) } catch {
            throw CLIError("--spec \(url.lastPathComponent): not JSON: \(error.message) at byte \(error.offset)")
        }
        do {
            return try SimulationSpec(
                document: document, source: url.lastPathComponent, defaultName: url.deletingPathExtension().lastPathComponent,
                directory: url.deletingLastPathComponent())
        } catch { throw CLIError("simulation spec \(error.description.dropFirst("scenario ".count))") }
    }

    func execute() async throws {
        let spec = try Self.load(path)
        let fork = try ScenarioReporting.hardfork(command.hardfork)
        // The replay file is read before anything runs, so a bad one costs no set-up.
        var replayDocument: JSONValue?
        if let replay = command.replay {
            let bytes = try CLIInput.file(replay, option: "--replay")
            do { replayDocument = try JSONValue(parsing: bytes) } catch {
                throw CLIError("--replay \(URL(fileURLWithPath: replay).lastPathComponent): not JSON: \(error.message) at byte \(error.offset)")
            }
        }
        let bench: SimulationBench
        do { bench = try await spec.prepare(hardfork: fork) } catch let error as ContractScenarioError {
            throw CLIError("simulation \(spec.name): set-up: \(error.description)")
        } catch {
            throw CLIError("simulation \(spec.name): set-up: \(error)")
        }
        do {
            if let replayDocument, let replay = command.replay {
                try await self.replay(bench, document: replayDocument, source: URL(fileURLWithPath: replay).lastPathComponent)
            } else {
                try await explore(bench)
            }
        } catch {
            await bench.close()
            throw error
        }
        await bench.close()
    }

    func explore(_ bench: SimulationBench) async throws {
        let spec = bench.spec
        let runs = command.runs ?? spec.runs ?? 100
        let depth = command.depth ?? spec.depth ?? 50
        var random = SystemRandomNumberGenerator()
        let seed = command.seed ?? random.next()
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1, unit: "sequences")
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: InvariantTest.Outcome
        do {
            outcome = try await bench.explore(runs: runs, depth: depth, seed: seed) { done, total in bar.update(done, total) }
        } catch {
            bar.clear()
            throw CLIError("simulation \(spec.name) (seed \(seed)): \(error)")
        }
        bar.clear()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let fork = bench.chain.hardfork.name
        if command.output.json {
            var members: [(key: String, value: JSONValue)] = [
                ("spec", .string(spec.name)), ("seed", .number(String(seed))), ("runs", .number(String(runs))),
                ("depth", .number(String(depth))), ("hardfork", .string(fork)), ("sequences", .number(String(outcome.sequences))),
                ("calls", .number(String(outcome.calls))), ("reverts", .number(String(outcome.reverts))),
                ("elapsedSeconds", .number(String(format: "%.3f", seconds))), ("held", .bool(outcome.failure == nil)),
                ("invariants", .array(spec.invariants.map { .string($0.name) })),
            ]
            if let failure = outcome.failure {
                members.append(("failure", failureJSON(bench, failure.steps, message: failure.message, seed: seed, outcome: outcome)))
            }
            print(JSONValue.object(members).description)
        } else if let failure = outcome.failure {
            let before = outcome.unshrunk?.count ?? failure.steps.count
            print(
                "Simulated \(spec.name) on \(fork) (seed \(seed)): an invariant broke in sequence \(outcome.sequences) of \(runs); "
                    + "shrunk from \(before) to \(failure.steps.count) step\(failure.steps.count == 1 ? "" : "s") "
                    + "(\(outcome.shrinks) shrinks, \(outcome.calls) calls in all, " + String(format: "%.2f s", seconds) + ").")
            printFailure(bench, failure.steps, message: failure.message, seed: seed)
        } else {
            let rate = seconds > 0 ? Double(outcome.calls) / seconds : 0
            print(
                "Simulated \(spec.name) on \(fork) (seed \(seed)): \(outcome.sequences) sequences of up to \(depth) steps, "
                    + "\(outcome.calls) calls (\(outcome.reverts) reverted, skipped) in " + String(format: "%.2f s (%.0f calls/s)", seconds, rate)
                    + ".")
            print("Every invariant held before the first call and after every call:")
            for invariant in spec.invariants { print("  \(invariant.name)") }
        }
        if let failure = outcome.failure {
            throw CLIError(
                "simulation \(spec.name): \(firstLine(failure.message)) after \(failure.steps.count) step\(failure.steps.count == 1 ? "" : "s") "
                    + "(seed \(seed); the replay is printed above)")
        }
    }

    func replay(_ bench: SimulationBench, document: JSONValue, source: String) async throws {
        let steps: [InvariantTest.Step]
        do { steps = try bench.replaySteps(document, source: source) } catch let error as ContractScenarioError {
            throw CLIError("--replay \(error.description.dropFirst("scenario ".count))")
        }
        let execution: InvariantTest.Execution
        do { execution = try await bench.test.execute(steps) } catch {
            throw CLIError("simulation \(bench.spec.name): replay \(source): \(error)")
        }
        let spec = bench.spec
        if let violation = execution.violation {
            let prefix = Array(steps.prefix(violation.afterStep))
            if command.output.json {
                print(
                    JSONValue.object([
                        ("spec", .string(spec.name)), ("replay", .string(source)), ("held", .bool(false)),
                        ("calls", .number(String(execution.calls))), ("reverts", .number(String(execution.reverts))),
                        ("failure", failureJSON(bench, prefix, message: violation.message, seed: nil, outcome: nil)),
                    ]).description)
            } else {
                print("Replayed \(source) on \(spec.name): an invariant broke after step \(violation.afterStep) of \(steps.count).")
                printFailure(bench, prefix, message: violation.message, seed: nil)
            }
            throw CLIError("simulation \(spec.name): replay \(source): \(firstLine(violation.message)) after \(violation.afterStep) step\(violation.afterStep == 1 ? "" : "s")")
        }
        if command.output.json {
            print(
                JSONValue.object([
                    ("spec", .string(spec.name)), ("replay", .string(source)), ("held", .bool(true)),
                    ("calls", .number(String(execution.calls))), ("reverts", .number(String(execution.reverts))),
                ]).description)
        } else {
            print(
                "Replayed \(source) on \(spec.name): \(steps.count) step\(steps.count == 1 ? "" : "s") (\(execution.reverts) reverted, skipped); "
                    + "every invariant held.")
        }
    }

    func firstLine(_ text: String) -> String { text.split(separator: "\n").first.map(String.init) ?? text }

    /// The broken invariant, the steps as people read them, the replay file and the Swift replay.
    func printFailure(_ bench: SimulationBench, _ steps: [InvariantTest.Step], message: String, seed: UInt64?) {
        print(message)
        print("Steps (from the set-up):")
        for (index, step) in steps.enumerated() { print("  \(index + 1). \(bench.describe(step))") }
        print("")
        print("Replay file (save it as replay.json, then: carchain simulate --spec \(path) --replay replay.json):")
        print(bench.replayDocument(steps, seed: seed).description)
        print("")
        print("In Swift (EthereumTesting):")
        print(swift(steps))
    }

    func swift(_ steps: [InvariantTest.Step]) -> String {
        "let bench = try await SimulationSpec(contentsOf: URL(fileURLWithPath: \(String(reflecting: path)))).prepare()\n"
            + "let invariants = bench.test\n" + InvariantTest.swift(steps)
    }

    func failureJSON(_ bench: SimulationBench, _ steps: [InvariantTest.Step], message: String, seed: UInt64?, outcome: InvariantTest.Outcome?)
        -> JSONValue
    {
        var members: [(key: String, value: JSONValue)] = [("message", .string(message))]
        if let outcome {
            members.append(("sequence", .number(String(outcome.sequences))))
            members.append(("unshrunkSteps", .number(String(outcome.unshrunk?.count ?? steps.count))))
            members.append(("shrinks", .number(String(outcome.shrinks))))
        }
        members.append(("replay", bench.replayDocument(steps, seed: seed)))
        members.append(("swift", .string(swift(steps))))
        return .object(members)
    }
}
