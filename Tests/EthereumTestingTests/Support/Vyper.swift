import EthereumContracts
import Foundation
import TestSupport

/// The tests' own contracts (testdata/contracts/testing), compiled by the venv's vyper once per run.
enum TestContracts {
    private static let cache = Cache()

    /// `Bank.vy`'s artifact (nil, after `Prerequisite.missing`, without the venv).
    static func bank() async throws -> ContractArtifact? { try await cache.get("Bank") }

    private actor Cache {
        var compiled: [String: ContractArtifact] = [:]

        func get(_ name: String) throws -> ContractArtifact? {
            if let artifact = compiled[name] { return artifact }
            guard PythonVenv.python(for: "EthereumTesting's contract tests") != nil else { return nil }
            let path = TestPaths.packageRoot.appendingPathComponent("testdata/contracts/testing/\(name).vy").path
            let json = try PythonVenv.vyper(path)
            guard var artifact = try ContractArtifact.read(json: Array(json.utf8), fileName: path).first else {
                throw PythonVenv.PythonError(description: "vyper wrote no contract for \(path)")
            }
            artifact.name = name
            compiled[name] = artifact
            return artifact
        }
    }
}
