import EthereumPrimitives
import Foundation

/// A failure the probe reports on one line.
struct ProbeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// ABI-encodes a call with string arguments, optionally followed by one uint256.
func encodeCall(_ signature: String, _ strings: [String], uint: UInt256? = nil) -> [UInt8] {
    let words = strings.count + (uint == nil ? 0 : 1)
    var head: [UInt8] = []
    var tail: [UInt8] = []
    for s in strings {
        head += UInt256(UInt64(32 * words + tail.count)).bigEndianBytes
        let bytes = Array(s.utf8)
        tail += UInt256(UInt64(bytes.count)).bigEndianBytes + bytes
            + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
    }
    if let uint { head += uint.bigEndianBytes }
    return Array(Keccak256.hash(signature).bytes[0..<4]) + head + tail
}

/// contracts/CarChain.json's creation code, read from the source tree.
enum CarChainArtifact {
    static let bytecode: [UInt8] = {
        let artifact = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../contracts/CarChain.json")
        guard let json = try? JSONValue(parsing: [UInt8](Data(contentsOf: artifact))),
            let hex = json["bytecode"]?.stringValue, let code = try? Hex.decode(hex)
        else { return [] }
        return code
    }()
}
