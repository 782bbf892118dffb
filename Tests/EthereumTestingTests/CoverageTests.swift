import EthereumContracts
import EthereumTesting
import Foundation
import Testing
import TestSupport

/// Coverage of contracts/CarChain.vy from a small run on the bench, as lcov, with line numbers checked against the
/// source text: what the run must have executed is hit, what it cannot have reached is not.
@Suite(.serialized) struct CoverageTests {
    /// The line (1-based) of the first line of `source` that, trimmed, starts with `text` after line `after`.
    static func line(_ text: String, in source: [Substring], after: Int = 0) throws -> Int {
        let index = try #require(source.indices.first { $0 >= after && source[$0].trimmingCharacters(in: .whitespaces).hasPrefix(text) }, "no line \(text)")
        return index + 1
    }

    @Test func carChainCoverageAsLcovMatchesTheSource() async throws {
        guard PythonVenv.python(for: "coverage of CarChain.vy") != nil else { return }
        let sourcePath = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.vy").path
        // The bytecode and its source map from one compiler, with the same settings (a failed compile throws).
        let compiled = try PythonVenv.vyper(sourcePath)
        let mapped = try PythonVenv.vyper(sourcePath, format: "source_map")
        let artifact = try #require(try ContractArtifact.read(json: Array(compiled.utf8), fileName: sourcePath).first)
        let sourceMap = try SourceMap(vyper: try JSONValue(parsing: mapped))
        let source = try String(contentsOfFile: sourcePath, encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)

        let t = try await TestChain()
        defer { Task { await t.close() } }
        let (carchain, _) = try await Contract.deploy(artifact, backend: t)
        let stranger = t.makeAddress("stranger")
        try await carchain.send("registerNewCar", [.string("CAR-1")])
        try await t.expectRevert("car already registered") { _ = try await carchain.send("registerNewCar", [.string("CAR-1")]) }
        try await t.expectRevert("caller is not the manager") {
            try await t.prank(stranger) { _ = try await carchain.send("registerNewCar", [.string("CAR-2")]) }
        }
        try await carchain.send("registerNewUser", [.string("alice")])
        _ = try await carchain.call("registeredCars")  // a call is no transaction: not in the coverage

        let report = try #require(try await t.coverage(of: [.init(path: "contracts/CarChain.vy", source: source, address: carchain.address, sourceMap: sourceMap)]).first)
        let lcov = report.lcov
        print(lcov.split(separator: "\n").prefix(12).joined(separator: "\n"))

        // Every executable line lcov lists is a line of code: not blank, not a comment, within the file.
        for line in report.lines.keys {
            #expect((1...lines.count).contains(line), "DA line \(line) is outside the file")
            let text = lines[line - 1].trimmingCharacters(in: .whitespaces)
            #expect(!text.isEmpty && !text.hasPrefix("#"), "DA line \(line) is \"\(text)\"")
        }
        // Functions: registerNewCar ran three times (two refusals), registerNewUser once, returnCar never.
        let registerNewCar = try Self.line("def registerNewCar(", in: lines)
        let returnCar = try Self.line("def returnCar(", in: lines)
        #expect(report.function("registerNewCar")?.line == registerNewCar)
        #expect(report.function("registerNewCar")?.hits == 3, "\(String(describing: report.function("registerNewCar")))")
        #expect(report.function("registerNewUser")?.hits == 1)
        #expect(report.function("returnCar")?.hits == 0)
        #expect(report.function("returnCar")?.line == returnCar)
        #expect(lcov.contains("FN:\(registerNewCar),registerNewCar\n") && lcov.contains("FNDA:0,returnCar\n"))

        // Lines inside registerNewCar, found by their text: the manager check's refusal ran (the stranger), the
        // duplicate's refusal ran, the event ran once (refusals log nothing). (The optimizer shares the refusals' revert
        // code, which vyper's map attributes to one of the lines sharing it, so their counts are not compared exactly.)
        let notManager = try Self.line("self._fail(E_NOT_MANAGER)", in: lines, after: registerNewCar)
        let duplicate = try Self.line("self._fail(E_CAR_ALREADY_REGISTERED)", in: lines, after: registerNewCar)
        let logged = try Self.line("log CarRegistered", in: lines, after: registerNewCar)
        #expect((report.hits(line: notManager) ?? 0) >= 1, "line \(notManager)")
        #expect((report.hits(line: duplicate) ?? 0) >= 1, "line \(duplicate)")
        #expect(report.hits(line: logged) == 1, "line \(logged)")
        #expect(lcov.contains("DA:\(logged),1\n"))
        // Functions never called: every line of returnCar and addCredit that has code is listed with 0.
        for name in ["returnCar", "addCredit"] {
            let function = try #require(report.function(name))
            let listed = report.lines.filter { (function.line...function.lastLine).contains($0.key) }
            #expect(!listed.isEmpty && listed.values.allSatisfy { $0 == 0 }, "\(name): \(listed)")
            if name == "addCredit" {
                let credit = try Self.line("balance += _credit", in: lines, after: function.line)
                #expect(lcov.contains("DA:\(credit),0\n"))
            }
        }

        // Branches: registerNewCar's JUMPIs went both ways (accepted and refused calls); returnCar's never ran.
        let carBranches = report.branches.filter { (registerNewCar...(report.function("registerNewCar")?.lastLine ?? 0)).contains($0.line) }
        #expect(carBranches.contains { $0.jumped > 0 } && carBranches.contains { $0.fellThrough > 0 }, "\(carBranches)")
        #expect(report.branches.filter { $0.line > returnCar && $0.line <= (report.function("returnCar")?.lastLine ?? 0) }.allSatisfy {
            $0.jumped == 0 && $0.fellThrough == 0
        })
        #expect(lcov.hasPrefix("TN:\nSF:contracts/CarChain.vy\n") && lcov.hasSuffix("end_of_record\n"))
        #expect(lcov.contains("LH:") && lcov.contains("BRH:"))
    }
}
