import EthereumPrimitives
import Foundation

/// Helpers for scripting answers: reading the request (method, id) and writing JSON-RPC answers.
enum Wire {
    /// The parsed request body (an object, or an array for a batch).
    static func parse(_ body: [UInt8]) -> JSONValue {
        (try? JSONValue(parsing: body)) ?? .null
    }

    static func method(_ body: [UInt8]) -> String { parse(body)["method"]?.stringValue ?? "" }

    static func result(id: Int, _ result: String) -> String { #"{"jsonrpc":"2.0","id":\#(id),"result":\#(result)}"# }

    static func error(id: Int, code: Int, message: String, data: String? = nil) -> String {
        let dataPart = data.map { #","data":\#($0)"# } ?? ""
        return #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":\#(code),"message":\#(JSONValue.quote(message))\#(dataPart)}}"#
    }

    /// ABI revert data for Error(message).
    static func errorStringData(_ message: String) -> String {
        let bytes = Array(message.utf8)
        var data: [UInt8] = [0x08, 0xc3, 0x79, 0xa0]
        data += UInt256(32).bigEndianBytes
        data += UInt256(UInt64(bytes.count)).bigEndianBytes
        data += bytes + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
        return Hex.encode(data)
    }
}
