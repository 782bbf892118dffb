import EthereumABI
import EthereumPrimitives
import Foundation

/// A failure the probe reports on one line.
struct ProbeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// ABI-encodes a call with string arguments, optionally followed by one uint256 (EthereumABI's encoder; the
/// arguments are the probe's own, so an encoding failure is a bug in the probe).
func encodeCall(_ signature: String, _ strings: [String], uint: UInt256? = nil) -> [UInt8] {
    var values = strings.map(ABIValue.string)
    var types = [ABIType](repeating: .string, count: strings.count)
    if let uint {
        values.append(.uint(uint))
        types.append(.uint(256))
    }
    do {
        return try ABIEncoder.encodeCall(selector: Array(Keccak256.hash(signature).bytes[0..<4]), values, as: types)
    } catch {
        fatalError("ChainPerfProbe: cannot encode \(signature): \(error)")
    }
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
