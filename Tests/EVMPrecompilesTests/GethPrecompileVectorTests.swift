import EVM
import EthereumPrimitives
import Foundation
import TestSupport
import Testing

/// go-ethereum's precompile vectors (`core/vm/testdata/precompiles`, in `$ETHTESTS_DIR/precompiles`, see
/// its PROVENANCE.md): every success vector's output and gas (and that one gas less fails), and every
/// `fail-*` vector refused — for the BLS12-381 ones with the reason geth gives.
@Suite struct GethPrecompileVectorTests {
    /// One vector: `[{"Input","Expected","Name","Gas"}]`, or `ExpectedError` in the fail files.
    struct Vector: Decodable {
        let Input: String
        let Expected: String?
        let ExpectedError: String?
        let Name: String
        let Gas: UInt64?
    }

    static func load(_ file: String) throws -> [Vector]? {
        guard let url = TestPaths.ethTest("precompiles/\(file)", suite: "geth precompile vectors \(file)") else {
            return nil
        }
        return try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
    }

    /// Success vectors: output, gas, and failure with one gas less.
    static func runValid(_ file: String, address: UInt16, fork: Hardfork) throws {
        guard let vectors = try load(file) else { return }
        var tally = ConformanceTally(suite: file)
        for vector in vectors {
            let input = hex(vector.Input)
            let result = Precompiles.run(precompile(address), input: input, gasLimit: 100_000_000, fork: fork)
            guard case .success(let gas, let output) = result else {
                tally.record(.fail("got \(result)"), case: vector.Name)
                continue
            }
            let expected = hex(vector.Expected ?? "")
            if output != expected {
                tally.record(.fail("output \(Hex.encode(output)) ≠ \(vector.Expected ?? "")"), case: vector.Name)
            } else if gas != vector.Gas {
                tally.record(.fail("gas \(gas), expected \(vector.Gas ?? 0)"), case: vector.Name)
            } else if gas > 0,
                Precompiles.run(precompile(address), input: input, gasLimit: gas - 1, fork: fork) != .failure
            {
                tally.record(.fail("did not fail with gas \(gas - 1)"), case: vector.Name)
            } else {
                tally.record(.pass, case: vector.Name)
            }
        }
        tally.report()
        #expect(tally.passed == vectors.count && !vectors.isEmpty)
    }

    /// geth's error text for each refusal reason.
    static func gethReason(_ error: BLSEncoding.DecodingError) -> String {
        switch error {
        case .invalidLength: return "invalid input length"
        case .nonZeroPadding: return "invalid field element top bytes"
        case .notInField: return "invalid fp.Element encoding"
        case .notOnCurve: return "invalid point: not on curve"
        case .notInG1: return "g1 point is not on correct subgroup"
        case .notInG2: return "g2 point is not on correct subgroup"
        }
    }

    /// Fail vectors: the precompile fails (all gas consumed) for the reason geth names.
    static func runFailing(_ file: String, address: UInt16, operation: BLS12381Precompiles.Operation) throws {
        guard let vectors = try load(file) else { return }
        var tally = ConformanceTally(suite: file)
        for vector in vectors {
            let input = hex(vector.Input)
            let result = Precompiles.run(precompile(address), input: input, gasLimit: 100_000_000, fork: .prague)
            guard result == .failure else {
                tally.record(.fail("accepted: \(result)"), case: vector.Name)
                continue
            }
            do {
                _ = try BLS12381Precompiles.evaluate(operation, input: input)
                tally.record(.fail("evaluate accepted it"), case: vector.Name)
            } catch {
                let expected = vector.ExpectedError ?? ""
                tally.check(
                    Self.gethReason(error) == expected, vector.Name, "refused as \"\(error)\", geth says \"\(expected)\"")
            }
        }
        tally.report()
        #expect(tally.passed == vectors.count && !vectors.isEmpty)
    }

    @Test func g1Add() throws { try Self.runValid("blsG1Add.json", address: 0x0B, fork: .prague) }
    @Test func g1Mul() throws { try Self.runValid("blsG1Mul.json", address: 0x0C, fork: .prague) }
    @Test func g1MultiExp() throws { try Self.runValid("blsG1MultiExp.json", address: 0x0C, fork: .prague) }
    @Test func g2Add() throws { try Self.runValid("blsG2Add.json", address: 0x0D, fork: .prague) }
    @Test func g2Mul() throws { try Self.runValid("blsG2Mul.json", address: 0x0E, fork: .prague) }
    @Test func g2MultiExp() throws { try Self.runValid("blsG2MultiExp.json", address: 0x0E, fork: .prague) }
    @Test func pairing() throws { try Self.runValid("blsPairing.json", address: 0x0F, fork: .prague) }
    @Test func mapG1() throws { try Self.runValid("blsMapG1.json", address: 0x10, fork: .prague) }
    @Test func mapG2() throws { try Self.runValid("blsMapG2.json", address: 0x11, fork: .prague) }

    @Test func failingG1Add() throws { try Self.runFailing("fail-blsG1Add.json", address: 0x0B, operation: .g1Add) }
    @Test func failingG1Mul() throws { try Self.runFailing("fail-blsG1Mul.json", address: 0x0C, operation: .g1MSM) }
    @Test func failingG1MultiExp() throws {
        try Self.runFailing("fail-blsG1MultiExp.json", address: 0x0C, operation: .g1MSM)
    }
    @Test func failingG2Add() throws { try Self.runFailing("fail-blsG2Add.json", address: 0x0D, operation: .g2Add) }
    @Test func failingG2Mul() throws { try Self.runFailing("fail-blsG2Mul.json", address: 0x0E, operation: .g2MSM) }
    @Test func failingG2MultiExp() throws {
        try Self.runFailing("fail-blsG2MultiExp.json", address: 0x0E, operation: .g2MSM)
    }
    @Test func failingPairing() throws {
        try Self.runFailing("fail-blsPairing.json", address: 0x0F, operation: .pairingCheck)
    }
    @Test func failingMapG1() throws { try Self.runFailing("fail-blsMapG1.json", address: 0x10, operation: .mapFpToG1) }
    @Test func failingMapG2() throws { try Self.runFailing("fail-blsMapG2.json", address: 0x11, operation: .mapFp2ToG2) }

    /// EIP-7951 (Osaka): valid signatures return 1, every other input empty output, all at 6900 gas.
    @Test func p256Verify() throws { try Self.runValid("p256Verify.json", address: 0x100, fork: .osaka) }

    /// EIP-7883 pricing with EIP-7823's bounds (Osaka).
    @Test func modexpOsaka() throws { try Self.runValid("modexp_eip7883.json", address: 0x05, fork: .osaka) }

    @Test func pointEvaluation() throws { try Self.runValid("pointEvaluation.json", address: 0x0A, fork: .cancun) }
}
