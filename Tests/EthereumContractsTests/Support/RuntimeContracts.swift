import EthereumContracts
import Foundation
import TestSupport

/// This project's small Vyper contracts for the runtime's own tests (testdata/contracts), compiled by the venv's vyper
/// once per run: `Multicall3` (Multicall3's `aggregate3` ABI and semantics; no published Multicall3 bytecode is in
/// the venv, and none is committed).
enum RuntimeContracts {
    private static let cache = Cache()

    /// The artifact of testdata/contracts/multicall/Multicall3.vy (nil, after `Prerequisite.missing`, without the venv).
    static func multicall3() async throws -> ContractArtifact? { try await cache.get() }

    private actor Cache {
        var result: ContractArtifact?
        var missing = false

        func get() throws -> ContractArtifact? {
            if let result { return result }
            if missing { return nil }
            guard PythonVenv.python(for: "Multicall3 tests (vyper)") != nil else {
                missing = true
                return nil
            }
            let path = TestPaths.packageRoot.appendingPathComponent("testdata/contracts/multicall/Multicall3.vy").path
            let json = try PythonVenv.vyper(path)
            guard var artifact = try ContractArtifact.read(json: Array(json.utf8), fileName: path).first else {
                throw PythonVenv.PythonError(description: "vyper wrote no contract for \(path)")
            }
            artifact.name = "Multicall3"
            result = artifact
            return artifact
        }
    }
}
