import CarChain
import EthereumABI
import EthereumPrimitives
import Foundation
import TestSupport

/// Keys and addresses shared by the CarChain tests: key i is 32 bytes of i+1; key 0 deploys (the manager).
enum Keys {
    static let hex: [String] = (1...5).map { i in "0x" + String(repeating: String(format: "%02x", i), count: 32) }
    /// The addresses of the keys above (secp256k1 of 0x01…01 … 0x05…05), as py-evm computes them.
    static let addresses: [Address] = [
        "0x1a642f0e3c3af545e7acbd38b07251b3990914f1", "0x5050a4f4b3f9338c3472dcc01a87c76a144b3c9c",
        "0x3325a78425f17a7e487eb5666b2bfd93abb06c70", "0xc48b812bb43401392c037381aca934f4069c0517",
        "0xd09ad14080d4b257a819a4f579b8485be88f086c",
    ].compactMap { try? Address($0) }
    static var manager: Address { addresses[0] }
}

extension JSONValue {
    /// The members of an object as a dictionary.
    var dictionary: [String: JSONValue] {
        Dictionary((objectValue ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }
}

/// Bytes from a 0x-hex JSON string (empty on anything else).
func bytes(_ value: JSONValue?) -> [UInt8] {
    guard let s = value?.stringValue, let b = try? Hex.decode(s) else { return [] }
    return b
}

