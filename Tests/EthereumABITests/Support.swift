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

