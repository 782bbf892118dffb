import EthereumABI
import EthereumPrimitives
import Foundation
import TestSupport

/// Bytes from hex written across several string pieces (whitespace ignored), for readable word layouts.
func hexBytes(_ pieces: String...) -> [UInt8] {
    let text = pieces.joined().filter { !$0.isWhitespace }
    do { return try Hex.decode(text) } catch { return [] }
}

/// A 32-byte big-endian word holding `value`.
func word(_ value: UInt64) -> [UInt8] { UInt256(value).bigEndianBytes }

/// The message of an error thrown by `body`, or nil when it does not throw.
func errorMessage<T>(_ body: () throws -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return String(describing: error)
    }
}

/// Runs `tools/xcheck/<script>` in the project venv with `input` on stdin and returns its stdout; nil
/// (after printing SKIPPED) when there is no venv.
func runXcheck(_ script: String, input: Data, what: String) throws -> Data? {
    guard let python = PythonVenv.python(for: what) else { return nil }
    let path = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/\(script)").path
    let out = try ProcessRunner.run(python, [path], stdin: input)
    guard out.status == 0 else {
        throw XcheckFailure(description: "\(script) exited \(out.status): \(out.stderr.suffix(2000))")
    }
    return Data(out.stdout.utf8)
}

/// A cross-check script that failed.
struct XcheckFailure: Error, CustomStringConvertible {
    let description: String
}
