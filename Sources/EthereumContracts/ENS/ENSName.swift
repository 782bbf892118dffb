import EthereumPrimitives

/// ENS names: normalisation (ENSIP-15), the node hash of a name (EIP-137 `namehash`), the hash of a label, the DNS
/// wire form resolvers take (ENSIP-10), and the reverse name of an address (`<hex>.addr.reverse`).
public enum ENSName {
    /// The name normalised under ENSIP-15 (`Nick.ETH` → `nick.eth`, emoji without FE0F), or the error naming its first
    /// invalid label and the rule it breaks. The empty name (the root) stays empty.
    public static func normalize(_ name: String) throws(ENSNameError) -> String {
        try ENSIP15.shared.normalize(name)
    }

    /// The normalised name as it should be displayed: emoji fully qualified, `ξ` as `Ξ` outside Greek labels.
    public static func beautify(_ name: String) throws(ENSNameError) -> String {
        try ENSIP15.shared.beautify(name)
    }

    /// True when the name is already in normal form (normalising it changes nothing).
    public static func isNormalized(_ name: String) -> Bool {
        (try? normalize(name)).map { $0.unicodeScalars.elementsEqual(name.unicodeScalars) } ?? false
    }

    /// `keccak256(label)` of one label as given (normalise the name first).
    public static func labelhash(_ label: some StringProtocol) -> Bytes32 {
        Keccak256.hash(Array(label.utf8))
    }

    /// EIP-137's node hash of a name as given (normalise it first; ``node(_:)`` does both): the root is 32 zero
    /// bytes, and `namehash(label.rest) = keccak256(namehash(rest) ‖ keccak256(label))`.
    public static func namehash(_ name: String) -> Bytes32 {
        var node = Bytes32.zero
        guard !name.isEmpty else { return node }
        for label in name.split(separator: ".", omittingEmptySubsequences: false).reversed() {
            node = Keccak256.hash(node.bytes + labelhash(label).bytes)
        }
        return node
    }

    /// The node of a name after normalising it.
    public static func node(_ name: String) throws(ENSNameError) -> Bytes32 {
        namehash(try normalize(name))
    }

    /// Why a name has no DNS wire form.
    public struct EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
        public let name: String
        public let reason: String
        public var description: String { "cannot DNS-encode \(JSONValue.quote(name)): \(reason)" }
    }

    /// The DNS wire form of a name as given (ENSIP-10's `resolve(bytes name, …)`): each label as its length byte and
    /// its UTF-8 bytes, then a zero byte. A label longer than 255 bytes, or an empty one, has no such form.
    public static func dnsEncode(_ name: String) throws(EncodingError) -> [UInt8] {
        guard !name.isEmpty else { return [0] }
        var out: [UInt8] = []
        for (i, label) in name.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            let bytes = Array(label.utf8)
            guard !bytes.isEmpty else { throw EncodingError(name: name, reason: "label \(i + 1) is empty") }
            guard bytes.count <= 255 else { throw EncodingError(name: name, reason: "label \(i + 1) is \(bytes.count) bytes (at most 255)") }
            out.append(UInt8(bytes.count))
            out += bytes
        }
        out.append(0)
        return out
    }

    /// The name of the DNS wire form `bytes`, or nil when the bytes are not one (lengths past the end, no final zero).
    public static func dnsDecode(_ bytes: [UInt8]) -> String? {
        var labels: [String] = []
        var i = 0
        while i < bytes.count {
            let n = Int(bytes[i])
            if n == 0 { return i == bytes.count - 1 ? labels.joined(separator: ".") : nil }
            guard bytes.count - i - 1 >= n else { return nil }
            labels.append(String(decoding: bytes[(i + 1)...(i + n)], as: UTF8.self))
            i += n + 1
        }
        return nil
    }

    /// The reverse name of an address: its lowercase hex without `0x`, then `.addr.reverse`.
    public static func reverseName(of address: Address) -> String {
        String(address.lowercasedHex.dropFirst(2)) + ".addr.reverse"
    }
}
