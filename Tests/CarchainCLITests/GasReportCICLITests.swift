import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// Issue 23, run as the built binary: snapshots and the CI check, diffs as Markdown, the JSON document
/// against its schema, forks side by side, the chart rendered by rsvg-convert, the replay against another
/// node, and the option combinations refused with one line.
@Suite struct GasReportCICLITests {
    static func run(_ arguments: [String], timeout: Double = 300) throws -> TimedProcess.Outcome? {
        try AnalysisCLITests.run(["gas-report"] + arguments, timeout: timeout)
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-gas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs tools/gas_report_checks.py in the venv; nil when the venv is missing.
    static func check(_ arguments: [String], input: String = "", what: String) throws -> JSONValue? {
        guard let data = try PythonVenv.run(script: "gas_report_checks.py", input: Data(input.utf8), arguments: arguments, what: what)
        else { return nil }
        return try JSONValue(parsing: Array(data))
    }

    static var schema: String { TestPaths.packageRoot.appendingPathComponent("docs/gas-report.schema.json").path }
    static var seedArtifact: URL? { TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact") }

    /// The project's snapshot, then the seed's contract (dearer nearly everywhere) checked against it: exit 1,
    /// one line naming the functions. The other way round (cheaper) passes, and --diff shows the drops.
    @Test func snapshotThenCheckAndDiff() throws {
        guard let seed = Self.seedArtifact else { return }
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let projectSnapshot = dir.appendingPathComponent(".gas-snapshot").path
        let seedSnapshot = dir.appendingPathComponent("seed.gas-snapshot").path
        guard let written = try Self.run(["--snapshot", projectSnapshot]) else { return }
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: projectSnapshot, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines == lines.sorted() && lines.count == 6)
        #expect(lines.contains("CarChain:rentCar@Cancun (calls: 5, min: 27346, mean: 36459, median: 40962, max: 40988)"))
        #expect(lines.contains { $0.hasPrefix("CarChain:(deployment)@Cancun (gas: 1111249, size: ") })
        // Written twice, byte for byte the same.
        guard let again = try Self.run(["--snapshot", seedSnapshot]) else { return }
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: seedSnapshot, encoding: .utf8) == text)

        // Dearer: the check fails, naming rentCar (max 40988 → 82453).
        guard let failed = try Self.run(["--artifact", seed.path, "--check", projectSnapshot]) else { return }
        #expect(failed.status == 1)
        let line = failed.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("carchain: gas check failed against \(projectSnapshot): "))
        #expect(line.contains("CarChain:rentCar@Cancun max +101.2%"))
        #expect(failed.stdout.contains("✗"))
        // Tolerance: every rise is below 200%.
        guard let tolerated = try Self.run(["--artifact", seed.path, "--check", projectSnapshot, "--tolerance", "200"]) else { return }
        #expect(tolerated.status == 0, "\(tolerated.stderr)")

        // Cheaper: the seed's snapshot, the project's contract checked against it passes; --diff lists the drops.
        guard let seedWritten = try Self.run(["--artifact", seed.path, "--snapshot", seedSnapshot]) else { return }
        #expect(seedWritten.status == 0)
        guard let passed = try Self.run(["--check", seedSnapshot]) else { return }
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stderr.isEmpty)
        guard let diff = try Self.run(["--diff", seedSnapshot]) else { return }
        #expect(diff.status == 0)
        #expect(diff.stdout.contains("CarChain:rentCar@Cancun") && diff.stdout.contains("-50.3%"))
        #expect(diff.stdout.contains("0 up"))
        guard let json = try Self.run(["--diff", seedSnapshot, "--format", "json"]) else { return }
        let changes = try JSONValue(parsing: json.stdout)["changes"]?.arrayValue ?? []
        let rentMax = changes.first { $0["key"] == .string("CarChain:rentCar@Cancun") && $0["metric"] == .string("max") }
        #expect(rentMax?["before"] == .number("82453") && rentMax?["after"] == .number("40988"))
    }

    /// `--diff --format markdown` renders as one table in Python-Markdown, and each line is a well-formed row.
    @Test func markdownDiffIsATable() throws {
        guard let seed = Self.seedArtifact else { return }
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshot = dir.appendingPathComponent("seed.gas-snapshot").path
        guard let written = try Self.run(["--artifact", seed.path, "--snapshot", snapshot]) else { return }
        #expect(written.status == 0)
        guard let out = try Self.run(["--diff", snapshot, "--format", "markdown"]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        let rows = out.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("|") }
        #expect(rows.count >= 3)
        let columns = rows.map { $0.hasSuffix("|") ? $0.split(separator: "|", omittingEmptySubsequences: false).count : -1 }
        #expect(Set(columns) == [7], "every row has 5 cells between pipes")
        #expect(rows[1] == "|---|---|---:|---:|---:|")
        guard let parsed = try Self.check(["markdown"], input: out.stdout, what: "Markdown table of gas-report --diff") else { return }
        let tables = parsed["tables"]?.arrayValue ?? []
        #expect(tables.count == 1)
        #expect(tables.first?["header"] == .array(["Function", "Metric", "Before", "After", "Change"].map(JSONValue.string)))
        #expect(tables.first?["rows"]?.arrayValue?.count == rows.count - 2)
        let rentMax = tables.first?["rows"]?.arrayValue?.first { $0.arrayValue.map { Array($0.prefix(2)) } == [.string("CarChain:rentCar@Cancun"), .string("max")] }
        #expect(rentMax?.arrayValue?.last == .string("-50.3%"))
    }

    /// `--json FILE` validates against docs/gas-report.schema.json: one fork; and forks with L2 fees and a fiat price.
    @Test func jsonValidatesAgainstTheSchema() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let runs: [[String]] = [[], ["--forks", "cancun,prague,osaka", "--l2", "blob", "--blob-base-fee", "2gwei", "--eth-price", "3000.5"]]
        for (i, extra) in runs.enumerated() {
            let file = dir.appendingPathComponent("report-\(i).json").path
            guard let out = try Self.run(["--json", file] + extra) else { return }
            #expect(out.status == 0, "\(out.stderr)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let document = try JSONValue(parsing: text)
            #expect(document["schemaVersion"] == .number("1"))
            #expect(document["forks"]?.arrayValue?.count == (i == 0 ? 1 : 3))
            guard let result = try Self.check(["schema", Self.schema], input: text, what: "JSON Schema check of gas-report --json") else { return }
            #expect(result["valid"] == .bool(true), "\(result["errors"]?.description ?? "")")
        }
        // The schema is not a rubber stamp: a document missing a required field fails it.
        let broken = #"{"schemaVersion": 1, "generator": "carchain gas-report"}"#
        guard let result = try Self.check(["schema", Self.schema], input: broken, what: "JSON Schema check") else { return }
        #expect(result["valid"] == .bool(false))
    }

    /// The seed's artifact under the seed README's forks: the JSON's per-fork figures match the README's
    /// per-step table grouped by function, and each change names its EIP.
    @Test func seedForksMatchTheSeedReadme() throws {
        guard let seed = Self.seedArtifact, let readmeURL = TestPaths.shared("seed-carchain/README.md", what: "seed README") else { return }
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("forks.json").path
        let columns = ["Byzantium", "Petersburg", "Istanbul", "Berlin", "London", "Shanghai", "Cancun", "Prague"]
        guard let out = try Self.run(["--artifact", seed.path, "--forks", columns.joined(separator: ",").lowercased(), "--json", file]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("EIP-2929") && out.stdout.contains("EIP-3529"))
        let document = try JSONValue(parsing: try String(contentsOfFile: file, encoding: .utf8))
        try Self.expectSeedReadmeFigures(forks: document["forks"], changes: document["forkChanges"], readme: readme, columns: columns)
    }

    /// The seed's replay under each of `columns`: every fork's deployment gas, and each function's median, max and
    /// number of calls, equal the seed README's per-step table (measured on py-evm) grouped by function; rentCar's
    /// change into London names EIP-3529.
    static func expectSeedReadmeFigures(forks: JSONValue?, changes: JSONValue?, readme: String, columns: [String]) throws {
        let functions = ["registerNewUser"] + Array(repeating: "registerNewUser", count: 2) + Array(repeating: "registerNewCar", count: 3)
            + Array(repeating: "addCredit", count: 3) + ["rentCar", "rentCar", "rentCar", "returnCar", "returnCar", "rentCar", "returnCar", "rentCar", "returnCar"]
        for column in columns {
            let figures = try ScenarioGasTestsTable.column(readme, column)
            let fork = forks?.arrayValue?.first { $0["fork"] == .string(column) }
            #expect(fork?["deployment"]?["gas"] == .number(String(figures[0])), "\(column) deployment")
            var byFunction: [String: [UInt64]] = [:]
            for (name, gas) in zip(functions, figures.dropFirst()) { byFunction[name, default: []].append(gas) }
            for (name, gas) in byFunction {
                let sorted = gas.sorted()
                let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
                let got = fork?["functions"]?[name]
                #expect(got?["median"] == .number(String(median)) && got?["max"] == .number(String(sorted.last ?? 0)), "\(column) \(name)")
                #expect(got?["calls"] == .number(String(gas.count)))
            }
        }
        let london = changes?.arrayValue?.first { $0["function"] == .string("rentCar") && $0["to"] == .string("London") }
        #expect(london?["eips"]?.arrayValue?.map { $0["eip"] } == [.number("3529")])
    }

    /// The seed's replay written as a scenario of any contract (docs/SCENARIOS.md: the seed's artifact deployed, its
    /// functions called by signature) under the same forks, with the L2 fee, the chart and a snapshot: the per-contract
    /// figures equal the seed README's too, the document passes the schema, the snapshot has a line per function and
    /// fork, and the chart a bar per contract function and fork.
    @Test func anyContractScenarioUnderSeveralForks() throws {
        guard let seed = Self.seedArtifact, let readmeURL = TestPaths.shared("seed-carchain/README.md", what: "seed README") else { return }
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // seed-replay.json's operations as calls by signature; the seed gives no revert reasons, so "revert" alone.
        let replay = try JSONValue(parsing: try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("testdata/scenarios/seed-replay.json"), encoding: .utf8))
        func text(_ value: JSONValue?) -> String {
            switch value {
            case .string(let s)?: return s
            case .number(let n)?: return n
            default: return ""
            }
        }
        var steps = [#"{"deploy": "CarChain", "artifact": \#(JSONValue.string(seed.path).description)}"#]
        for step in replay["steps"]?.arrayValue ?? [] {
            let op = text(step["op"])
            let args: [JSONValue]
            switch op {
            case "registerNewUser": args = [.string(text(step["userId"]))]
            case "registerNewCar": args = [.string(text(step["plate"]))]
            case "addCredit": args = [.string(text(step["userId"])), .number(text(step["credit"]))]
            default: args = [.string(text(step["plate"])), .string(text(step["user"] ?? step["userId"]))]
            }
            let expect = step["expect"] == .string("success") ? "success" : "revert"
            steps.append(#"{"call": "CarChain.\#(op)", "args": \#(JSONValue.array(args).description), "expect": "\#(expect)"}"#)
        }
        #expect(steps.count == 19)
        let scenario = """
            {"name": "seed-any", "accounts": \(replay["accounts"]?.description ?? ""), "deployer": "manager",
             "gasLimits": {"deploy": 6700000, "call": 210000}, "steps": [\(steps.joined(separator: ",\n"))]}
            """
        let file = dir.appendingPathComponent("seed-any.json")
        try Data(scenario.utf8).write(to: file)
        let json = dir.appendingPathComponent("forks.json").path
        let svg = dir.appendingPathComponent("gas.svg").path
        let snapshot = dir.appendingPathComponent(".gas-snapshot").path
        let columns = ["Byzantium", "Istanbul", "Berlin", "London", "Cancun", "Prague"]
        guard let out = try Self.run([
            "--scenario", file.path, "--forks", columns.joined(separator: ",").lowercased(), "--l2", "calldata", "--json", json,
            "--chart", svg, "--snapshot", snapshot,
        ]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("EIP-2929") && out.stdout.contains("EIP-3529") && out.stdout.contains("L2 data (calldata"))
        let documentText = try String(contentsOfFile: json, encoding: .utf8)
        let document = try JSONValue(parsing: documentText)
        let contract = document["contracts"]?.arrayValue?.first
        #expect(document["contracts"]?.arrayValue?.count == 1 && contract?["name"] == .string("CarChain"))
        try Self.expectSeedReadmeFigures(forks: contract?["forks"], changes: contract?["forkChanges"], readme: readme, columns: columns)
        // The L2 figures are there, for every function of every fork; the deployment's is that of its signed transaction,
        // so at least the creation code's (16 gas per non-zero byte, 4 per zero, at 1 gwei) and at most 160 bytes more.
        #expect(document["l2"]?["mode"] == .string("calldata"))
        let functions = contract?["forks"]?.arrayValue?.compactMap { $0["functions"]?.objectValue } ?? []
        #expect(functions.count == columns.count && functions.allSatisfy { $0.count == 5 && $0.allSatisfy { $0.value["meanL2DataFeeWei"] != nil } })
        let artifact = try JSONValue(parsing: try String(contentsOf: seed, encoding: .utf8))
        let code = try [UInt8](hex: text(artifact["bytecode"]))
        let zeros = UInt64(code.filter { $0 == 0 }.count)
        let floor = (zeros * 4 + (UInt64(code.count) - zeros) * 16) * 1_000_000_000
        for fork in contract?["forks"]?.arrayValue ?? [] {
            let fee = UInt64(text(fork["deployment"]?["l2DataFeeWei"])) ?? 0
            #expect(fee >= floor && fee <= floor + 160 * 16 * 1_000_000_000, "deployment L2 fee \(fee), code floor \(floor)")
        }
        if let result = try Self.check(["schema", Self.schema], input: documentText, what: "JSON Schema check of gas-report --json") {
            #expect(result["valid"] == .bool(true), "\(result["errors"]?.description ?? "")")
        }
        let lines = try String(contentsOfFile: snapshot, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == columns.count * 6)  // the deployment and five functions
        #expect(lines.contains { $0.hasPrefix("CarChain:rentCar@London (calls: 5, ") })
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(chart.contains("CarChain.rentCar") && columns.allSatisfy { chart.contains(">\($0)<") })
        // Another CarChain artifact stays CarChain's: one line, exit 1.
        guard let refused = try Self.run(["--scenario", file.path, "--compare", seed.path]) else { return }
        #expect(refused.status == 1)
        #expect(refused.stderr == "carchain: --compare applies to CarChain scenarios; seed-any deploys its own contracts (docs/SCENARIOS.md)\n")
    }

    /// The chart rendered by rsvg-convert: a PNG of the SVG's size with bars of several colours.
    @Test func chartRendersWithRsvgConvert() throws {
        guard let rsvg = Prerequisite.tool("rsvg-convert", install: "librsvg2-bin", for: "gas-report --chart rendering") else { return }
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("gas.svg")
        let png = dir.appendingPathComponent("gas.png")
        guard let out = try Self.run(["--chart", svg.path, "--forks", "cancun,prague,osaka"]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        let rendered = try TimedProcess.run(rsvg, [svg.path, "-o", png.path], timeout: 60)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        guard let stats = try Self.check(["png", png.path], what: "PNG check of gas-report --chart") else { return }
        func int(_ value: JSONValue?) -> Int {
            if case .number(let text)? = value { return Int(text) ?? 0 }
            return 0
        }
        let width = int(stats["width"])
        let height = int(stats["height"])
        let nonWhite = int(stats["nonWhite"])
        let colours = int(stats["colours"])
        #expect(width >= 600 && height >= 300, "\(width)×\(height)")
        #expect(nonWhite > width * height / 20, "a readable chart is not blank: \(nonWhite) non-white pixels")
        #expect(colours >= 4, "three fork colours and the text")
    }

    /// `--rpc` replays the scenario against py-evm (tools/pyevm-node.py, Prague rules): every figure matches
    /// the in-process chain's under Prague, and the JSON says where it came from.
    @Test func rpcReplayMatchesTheInProcessChain() throws {
        guard let node = try ProcessPyEVMNode.start(for: "gas-report --rpc against py-evm") else { return }
        defer { node.stop() }
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("rpc.json").path
        guard let remote = try Self.run(["--rpc", node.url, "--chain-id", "4", "--format", "json", "--json", file, "--l2", "calldata"], timeout: 600),
            let local = try Self.run(["--hardfork", "prague", "--format", "json"])
        else { return }
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(local.status == 0, "\(local.stderr)")
        let r = try JSONValue(parsing: remote.stdout)
        let l = try JSONValue(parsing: local.stdout)
        #expect(r["hardfork"] == .null)
        for field in ["gas", "size", "runtimeSize"] { #expect(r["deployment"]?[field] == l["deployment"]?[field], "deployment \(field)") }
        for name in ["addCredit", "registerNewCar", "registerNewUser", "rentCar", "returnCar"] {
            for metric in ["calls", "reverted", "min", "median", "max", "total"] {
                #expect(r["functions"]?[name]?[metric] == l["functions"]?[name]?[metric], "\(name) \(metric)")
            }
            #expect(r["functions"]?[name]?["meanL2DataFeeWei"] != nil)
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let document = try JSONValue(parsing: text)
        #expect(document["source"]?["kind"] == .string("rpc"))
        #expect(document["source"]?["chainId"] == .number("4"))
        guard let result = try Self.check(["schema", Self.schema], input: text, what: "JSON Schema check of gas-report --rpc --json") else { return }
        #expect(result["valid"] == .bool(true), "\(result["errors"]?.description ?? "")")
        // The wrong chain id is refused before anything is sent.
        guard let wrong = try Self.run(["--rpc", node.url, "--chain-id", "5"]) else { return }
        #expect(wrong.status == 1)
        #expect(!wrong.stderr.trimmingCharacters(in: .whitespacesAndNewlines).contains("\n"))
    }

    /// Combinations that make no sense: one line on stderr, exit 1, nothing on stdout.
    @Test func invalidCombinationsFailWithOneLine() throws {
        let cases: [([String], String)] = [
            (["--forks", "cancun,prague", "--hardfork", "prague"], "give either --hardfork or --forks, not both"),
            (["--forks", "cancun,cancun"], "--forks names Cancun twice"),
            (["--forks", "cancun,,prague"], "--forks takes fork names separated by commas, e.g. cancun,prague,osaka"),
            (["--forks", "cancun,atlantis"], #"--forks: unknown hardfork "atlantis" (e.g. byzantium, london, shanghai, cancun, prague, osaka)"#),
            (["--tolerance", "5"], "--tolerance applies to --check only"),
            (["--check", "s", "--tolerance", "nan"], "--tolerance must be 0 to 1000 percent, got nan"),
            (["--check", "s", "--tolerance=-1"], "--tolerance must be 0 to 1000 percent, got -1.0"),
            (["--l1-base-fee", "1gwei"], "--l1-base-fee and --blob-base-fee need --l2 calldata or --l2 blob"),
            (["--l2", "blob", "--l1-base-fee", "1gwei"], "--l1-base-fee applies to --l2 calldata, not --l2 blob"),
            (["--l2", "calldata", "--blob-base-fee", "1gwei"], "--blob-base-fee applies to --l2 blob, not --l2 calldata"),
            (["--rpc", "http://127.0.0.1:9", "--forks", "cancun,prague"], "--rpc reports the node's own fork: drop --hardfork/--forks (run without --rpc to choose forks)"),
            (["--chain-id", "4"], "--chain-id applies to --rpc only"),
            (["--compare", "x.json", "--snapshot", "s"], "--compare prints two artifacts side by side: it cannot be combined with --snapshot"),
            (["--chart", "gas.png"], "--chart writes SVG: give a file name ending in .svg"),
            (["--snapshot", "a", "--json", "a"], "--snapshot, --json and --chart must name different files"),
            (["--check", "a", "--snapshot", "a"], "a is both read (--check/--diff) and written: name another file"),
            (["--steps", "--forks", "cancun,prague"], "--steps lists one run's steps: it cannot be combined with --forks"),
        ]
        for (arguments, message) in cases {
            guard let out = try Self.run(arguments) else { return }
            #expect(out.status == 1, "\(arguments)")
            #expect(out.stderr == "carchain: \(message) (see --help)\n", "\(arguments)")
            #expect(out.stdout.isEmpty)
        }
        // Found when the run starts: one line, exit 1.
        let runtime: [([String], String)] = [
            (["--forks", "london,cancun"], "carchain: the project's contract needs cancun or later (its bytecode uses PUSH0 and MCOPY); got London"),
            (["--check", "/nonexistent/snap"], "carchain: --check: cannot open /nonexistent/snap"),
        ]
        for (arguments, prefix) in runtime {
            guard let out = try Self.run(arguments) else { return }
            #expect(out.status == 1, "\(arguments)")
            let line = out.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!line.contains("\n") && line.hasPrefix(prefix), "\(arguments): \(line)")
        }
    }

    @Test func helpShowsEveryOptionWithAnExample() throws {
        guard let out = try Self.run(["--help"]) else { return }
        #expect(out.status == 0)
        for option in ["--snapshot", "--json", "--check", "--tolerance", "--diff", "--forks", "--artifact", "--l2", "--l1-base-fee", "--blob-base-fee", "--chart", "--rpc"] {
            #expect(out.stdout.contains(option), "--help lacks \(option)")
            #expect(out.stdout.contains("carchain gas-report") && out.stdout.split(separator: "\n").contains { $0.contains("carchain gas-report") && $0.contains(option) },
                "--help has no example with \(option)")
        }
        #expect(out.stdout.contains("Deployment Size") && out.stdout.contains("Runtime Size"))
        #expect(out.stdout.contains("16 x non-zero bytes + 4 x zero bytes"))
    }
}

/// The seed README's per-step gas column (deployment first).
enum ScenarioGasTestsTable {
    static func column(_ readme: String, _ name: String) throws -> [UInt64] {
        let lines = readme.split(separator: "\n").map(String.init).filter { $0.hasPrefix("|") }
        func cells(_ line: String) -> [String] {
            Array(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) })
        }
        guard let header = lines.first, let index = cells(header).firstIndex(of: name) else { throw CocoaError(.coderValueNotFound) }
        return lines.dropFirst(2).compactMap { UInt64(cells($0)[index]) }
    }
}
