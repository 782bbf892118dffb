import EthereumContracts
import Foundation
import Testing

/// The contracts under test, compiled by the project's venv vyper (`make venv`: vyper 0.4.3 and snekmate 0.1.2, pinned
/// in tools/requirements.txt) once per test run, as `vyper -f combined_json` does for tools/contracts.mk:
/// snekmate's ERC-20 (through contracts/ERC20Token.vy, which only initialises and exports snekmate's modules), its
/// ERC-4626 as snekmate ships it, and contracts/FeeVault.vy, this package's own vault with a planted bug.
enum Compiled {
    /// The compiled artifacts by binding name; nil (after ``missing(_:)``) without the venv or snekmate.
    static func artifacts() async throws -> [String: ContractArtifact]? { try await cache.get() }

    /// One artifact's creation code.
    static func bytecode(_ name: String) async throws -> [UInt8]? {
        guard let artifacts = try await artifacts() else { return nil }
        return try #require(artifacts[name]?.bytecode, "no bytecode for \(name)")
    }

    /// Says that a prerequisite is missing: a test failure under `CARCHAIN_STRICT=1` (CI), else `SKIPPED: …`.
    static func missing(_ reason: String) {
        if ProcessInfo.processInfo.environment["CARCHAIN_STRICT"] == "1" {
            Issue.record("missing prerequisite (CARCHAIN_STRICT=1): \(reason)")
        } else {
            print("SKIPPED: \(reason)")
        }
    }

    /// This package's directory (Examples/ContractTests).
    static let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The project's venv: `$CARCHAIN_VENV` (the Makefile exports it), else the .venv of the package two levels up.
    static var venv: URL {
        if let path = ProcessInfo.processInfo.environment["CARCHAIN_VENV"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return packageDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".venv")
    }

    private static let cache = Cache()

    private actor Cache {
        var result: [String: ContractArtifact]?
        var failed = false

        func get() async throws -> [String: ContractArtifact]? {
            if let result { return result }
            if failed { return nil }
            let python = Compiled.venv.appendingPathComponent("bin/python").path
            let vyper = Compiled.venv.appendingPathComponent("bin/vyper").path
            guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.isExecutableFile(atPath: vyper) else {
                Compiled.missing("the contract tests need vyper and snekmate in \(Compiled.venv.path) (run make venv)")
                failed = true
                return nil
            }
            let located = try await Compiled.run(python, ["-c", "import os, snekmate; print(os.path.dirname(list(snekmate.__path__)[0]))"])
            let sitePackages = located.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard located.status == 0, !sitePackages.isEmpty else {
                Compiled.missing("snekmate is not installed in \(Compiled.venv.path) (run make venv)")
                failed = true
                return nil
            }
            let contracts = Compiled.packageDirectory.appendingPathComponent("contracts")
            let sources: [(name: String, path: String)] = [
                ("ERC20Token", contracts.appendingPathComponent("ERC20Token.vy").path),
                ("ERC4626Vault", URL(fileURLWithPath: sitePackages).appendingPathComponent("snekmate/extensions/erc4626.vy").path),
                ("FeeVault", contracts.appendingPathComponent("FeeVault.vy").path),
            ]
            // The three compilations run side by side (vyper takes a second or two each).
            var artifacts: [String: ContractArtifact] = [:]
            try await withThrowingTaskGroup(of: (String, ContractArtifact).self) { group in
                for source in sources {
                    group.addTask {
                        let out = try await Compiled.run(vyper, ["-p", sitePackages, source.path, "-f", "combined_json"])
                        guard out.status == 0 else { throw CompileError("vyper \(source.path) failed: \(out.stderr.suffix(1500))") }
                        guard var artifact = try ContractArtifact.read(json: Array(out.stdout.utf8), fileName: source.path).first else {
                            throw CompileError("vyper wrote no contract for \(source.path)")
                        }
                        artifact.name = source.name
                        return (source.name, artifact)
                    }
                }
                for try await (name, artifact) in group { artifacts[name] = artifact }
            }
            result = artifacts
            return artifacts
        }
    }

    struct CompileError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a program to its end (stderr goes to a temporary file, so no pipe can fill up while stdout is read).
    static func run(_ program: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await Task.detached {
            let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("contract-tests-\(UUID().uuidString).stderr")
            guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
                throw CompileError("cannot create \(errorFile.path)")
            }
            defer { try? FileManager.default.removeItem(at: errorFile) }
            let errors = try FileHandle(forWritingTo: errorFile)
            defer { try? errors.close() }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            let stdout = Pipe()
            process.standardOutput = stdout
            process.standardError = errors
            try process.run()
            let output = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let errorText = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            return (process.terminationStatus, String(decoding: output, as: UTF8.self), errorText)
        }.value
    }
}
