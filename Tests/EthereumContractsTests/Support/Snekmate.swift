import EthereumContracts
import Foundation
import TestSupport

/// snekmate's contracts (PyPI `snekmate`, pinned in tools/requirements.txt), compiled by the venv's vyper once per
/// test run: the ERC-20, ERC-721 and ERC-1155 through the small wrappers in testdata/contracts/snekmate, the ERC-4626
/// and access control as snekmate ships them.
enum Snekmate {
    struct Compiled: Sendable {
        var artifacts: [String: ContractArtifact]
    }

    /// The sources: binding name → the .vy file (relative to the package root or to snekmate's package).
    static let sources: [(name: String, wrapper: String?, module: String?)] = [
        ("ERC20Token", "testdata/contracts/snekmate/ERC20Token.vy", nil),
        ("ERC721Token", "testdata/contracts/snekmate/ERC721Token.vy", nil),
        ("ERC1155Token", "testdata/contracts/snekmate/ERC1155Token.vy", nil),
        ("ERC4626Vault", nil, "snekmate/extensions/erc4626.vy"),
        ("AccessControl", nil, "snekmate/auth/access_control.vy"),
    ]

    private static let cache = Cache()

    /// Compiles every contract (or gives nil, after `Prerequisite.missing`, without the venv or snekmate).
    static func compiled() async throws -> Compiled? {
        try await cache.get()
    }

    private actor Cache {
        var result: Compiled?
        var missing = false

        func get() throws -> Compiled? {
            if let result { return result }
            if missing { return nil }
            guard let python = PythonVenv.python(for: "snekmate contract tests") else {
                missing = true
                return nil
            }
            let located = try ProcessRunner.run(python, ["-c", "import os, snekmate; print(os.path.dirname(list(snekmate.__path__)[0]))"])
            let sitePackages = located.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard located.status == 0, !sitePackages.isEmpty else {
                Prerequisite.missing("snekmate contract tests (snekmate is not installed in the venv; run make venv)")
                missing = true
                return nil
            }
            var artifacts: [String: ContractArtifact] = [:]
            for source in Snekmate.sources {
                let path = source.wrapper.map { TestPaths.packageRoot.appendingPathComponent($0).path }
                    ?? URL(fileURLWithPath: sitePackages).appendingPathComponent(source.module ?? "").path
                let json = try PythonVenv.vyper(path, sitePackages: sitePackages)
                let all = try ContractArtifact.read(json: Array(json.utf8), fileName: path)
                guard var artifact = all.first else { throw PythonVenv.PythonError(description: "vyper wrote no contract for \(path)") }
                artifact.name = source.name
                artifacts[source.name] = artifact
            }
            let compiled = Compiled(artifacts: artifacts)
            result = compiled
            return compiled
        }
    }
}
