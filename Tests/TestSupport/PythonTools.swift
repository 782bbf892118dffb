import Foundation

// h-abi's `PythonTools` (its tests call it), kept apart from main's ProcessRunner so both branches' tests
// compile together; it runs scripts through main's `ProcessRunner`. Merge note for the lead: this file is
// the only change made to reconcile the two TestSupport versions.

/// The project's Python venv (vyper, py-evm, eth-abi, …) and its cross-implementation scripts.
public enum PythonTools {
    /// `CARCHAIN_VENV`, or `<package root>/.venv` when unset.
    public static var venv: URL {
        if let dir = ProcessInfo.processInfo.environment["CARCHAIN_VENV"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return TestPaths.packageRoot.appendingPathComponent(".venv")
    }

    /// The venv's interpreter, or nil after printing `SKIPPED: <what> (no Python venv; run make venv)`.
    public static func python(for what: String) -> URL? {
        let python = venv.appendingPathComponent("bin/python")
        if FileManager.default.isExecutableFile(atPath: python.path) { return python }
        print("SKIPPED: \(what) (no Python venv at \(venv.path); run make venv)")
        return nil
    }

    /// Runs `tools/<script>` with `input` on stdin and returns its stdout; nil (after printing SKIPPED)
    /// when there is no venv. A non-zero exit throws with the script's stderr.
    public static func run(script: String, input: Data, arguments: [String] = [], what: String) throws -> Data? {
        guard let python = python(for: what) else { return nil }
        let path = TestPaths.packageRoot.appendingPathComponent("tools").appendingPathComponent(script).path
        let out = try ProcessRunner.run(python, [path] + arguments, stdin: input)
        guard out.status == 0 else {
            throw PythonVenv.PythonError(description: "\(script) exited with \(out.status): \(out.stderr.suffix(2000))")
        }
        return Data(out.stdout.utf8)
    }
}
