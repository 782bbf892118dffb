import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain chain import` and `carchain chain export` as a user runs them: the rpc-compat chain (geth's genesis
/// format, 54 blocks from Homestead to BPO2) imported into a data directory, imported again (nothing to do),
/// exported byte for byte, and the bad inputs each answered with one line on stderr and exit 1.
@Suite struct ChainImportCLITests {
    struct Setup {
        let carchain: URL
        let genesis: URL
        let chain: URL
        let temp: URL
    }

    static func setUp() throws -> Setup? {
        guard let carchain = ProcessRunner.carchainExecutable(),
            let genesis = TestPaths.shared("rpc-compat/genesis.json", what: "the rpc-compat genesis"),
            let chain = TestPaths.shared("rpc-compat/chain.rlp", what: "the rpc-compat chain")
        else { return nil }
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("chain-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        return Setup(carchain: carchain, genesis: genesis, chain: chain, temp: temp)
    }

    func run(_ setup: Setup, _ arguments: [String]) throws -> TimedProcess.Outcome {
        let outcome = try TimedProcess.run(
            setup.carchain, arguments, environment: ["CARCHAIN_HOME": setup.temp.appendingPathComponent("home").path],
            timeout: 120)
        #expect(!outcome.timedOut)
        return outcome
    }

    @Test func importReimportAndExport() throws {
        guard let setup = try Self.setUp() else { return }
        defer { try? FileManager.default.removeItem(at: setup.temp) }
        let data = setup.temp.appendingPathComponent("data").path
        let first = try run(setup, ["chain", "import", setup.chain.path, "--genesis", setup.genesis.path, "--data-dir", data, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try JSONValue(parsing: first.stdout)
        #expect(summary["imported"] == .number("54"))
        #expect(summary["head"] == .number("54"))
        #expect(summary["headHash"]?.stringValue == "0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7")
        #expect(first.stderr.contains("imported 54/54 blocks"))

        // Again, without --genesis: the directory remembers it; every block is already there.
        let again = try run(setup, ["chain", "import", setup.chain.path, "--data-dir", data, "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("imported 0 blocks (54 already known"))

        let out = setup.temp.appendingPathComponent("out.rlp")
        let export = try run(setup, ["chain", "export", out.path, "--data-dir", data])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Data(contentsOf: out) == Data(contentsOf: setup.chain))
        let part = try run(setup, ["chain", "export", out.path, "--from", "40", "--to", "45", "--data-dir", data, "--json"])
        #expect(try JSONValue(parsing: part.stdout)["blocks"] == .number("6"))
        #expect(try JSONValue(parsing: part.stdout)["minedOnDevChanges"] == .array([]))  // imported blocks have none
    }

    @Test func badInputsAreOneLineAndExit1() throws {
        guard let setup = try Self.setUp() else { return }
        defer { try? FileManager.default.removeItem(at: setup.temp) }
        func fails(_ arguments: [String], saying text: String) throws {
            let outcome = try run(setup, arguments)
            #expect(outcome.status == 1, "carchain \(arguments.joined(separator: " ")) exited \(outcome.status)")
            let line = outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!line.contains("\n"), "\(line)")
            #expect(line.contains(text), "\(line)")
        }
        let badGenesis = setup.temp.appendingPathComponent("bad-genesis.json")
        try Data(#"{"config":{"chainId":1,"berlinBlock":"later"}}"#.utf8).write(to: badGenesis)
        try fails(["chain", "import", setup.chain.path, "--genesis", badGenesis.path, "--data-dir", setup.temp.appendingPathComponent("a").path],
            saying: "config.berlinBlock")
        let truncated = setup.temp.appendingPathComponent("truncated.rlp")
        try Data(try Data(contentsOf: setup.chain).prefix(5000)).write(to: truncated)
        try fails(["chain", "import", truncated.path, "--genesis", setup.genesis.path, "--data-dir", setup.temp.appendingPathComponent("b").path],
            saying: "runs past the end of the file")
        try fails(["chain", "export", setup.temp.appendingPathComponent("x.rlp").path, "--data-dir", setup.temp.appendingPathComponent("none").path],
            saying: "no chain at")
        try fails(["node", "--genesis", setup.genesis.path, "--hardfork", "cancun"], saying: "not both")
        try fails(["chain", "import", setup.chain.path, "--finalized", "soon"], saying: "--finalized")
    }
}
