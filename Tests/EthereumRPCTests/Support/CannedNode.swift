import EthereumPrimitives
import Foundation
import NIOConcurrencyHelpers

/// A JSON-RPC node on loopback that answers each method with a canned result (JSON text), for feeding the client
/// hostile values: a nonce of 2^64 − 1, block numbers at the maximum, fees whose sums overflow, absurd receipts.
/// `eth_sendRawTransaction` answers the transaction's real hash, and `$HASH` in any canned answer is replaced by
/// the hash of the last transaction sent, so receipts can name it.
enum CannedNode {
    /// Plausible answers for a legacy send on chain 4; tests override the ones they make hostile.
    static let defaults: [String: String] = [
        "eth_chainId": #""0x4""#,
        "eth_getTransactionCount": #""0x0""#,
        "eth_estimateGas": #""0x5208""#,
        "eth_gasPrice": #""0x3b9aca00""#,
        "eth_maxPriorityFeePerGas": #""0x1""#,
        "eth_blockNumber": #""0x1""#,
        "eth_getBlockByNumber": block(baseFee: "0x7"),
        "eth_getTransactionReceipt": receipt(),
    ]

    /// A block object with `baseFee` as its base fee.
    static func block(baseFee: String) -> String {
        let zero = "0x" + String(repeating: "0", count: 64)
        return #"{"number":"0x1","hash":"\#(zero)","parentHash":"\#(zero)","timestamp":"0x1","gasLimit":"0x1c9c380","#
            + #""gasUsed":"0x0","baseFeePerGas":"\#(baseFee)","stateRoot":"\#(zero)","transactionsRoot":"\#(zero)","#
            + #""receiptsRoot":"\#(zero)","transactions":[]}"#
    }

    /// A receipt for the last transaction sent, with the given fields' values (quantities as JSON strings; `nil`
    /// leaves a field out).
    static func receipt(
        hash: String = "$HASH", blockNumber: String = "0x1", gasUsed: String = "0x5208", cumulativeGasUsed: String = "0x5208",
        effectiveGasPrice: String? = "0x3b9aca00", status: String = "0x1", logs: String = "[]"
    ) -> String {
        let zero = "0x" + String(repeating: "0", count: 64)
        let price = effectiveGasPrice.map { #","effectiveGasPrice":"\#($0)""# } ?? ""
        return #"{"transactionHash":"\#(hash)","transactionIndex":"0x0","blockHash":"\#(zero)","blockNumber":"\#(blockNumber)","#
            + #""from":"0x0000000000000000000000000000000000000001","to":"0x0000000000000000000000000000000000000002","#
            + #""cumulativeGasUsed":"\#(cumulativeGasUsed)","gasUsed":"\#(gasUsed)"\#(price),"status":"\#(status)","#
            + #""type":"0x0","logs":\#(logs)}"#
    }

    /// Starts a node answering `answers` (over ``defaults``); a method in neither is "method not found".
    static func start(_ answers: [String: String]) async throws -> ScriptedHTTPServer {
        let table = defaults.merging(answers) { _, new in new }
        let lastHash = NIOLockedValueBox("0x" + String(repeating: "0", count: 64))
        return try await ScriptedHTTPServer.start { _, body in
            let request = Wire.parse(body)
            let method = request["method"]?.stringValue ?? ""
            let id = Int(request["id"]?.description ?? "") ?? 1
            if method == "eth_sendRawTransaction", let raw = request["params"]?.arrayValue?.first?.stringValue, let bytes = try? Hex.decode(raw) {
                let hash = Keccak256.hash(bytes).hexString
                lastHash.withLockedValue { $0 = hash }
                return .json(Wire.result(id: id, #""\#(hash)""#))
            }
            guard let answer = table[method] else {
                return .json(Wire.error(id: id, code: -32601, message: "the method \(method) does not exist"))
            }
            let hash = lastHash.withLockedValue { $0 }
            return .json(Wire.result(id: id, answer.replacingOccurrences(of: "$HASH", with: hash)))
        }
    }
}
