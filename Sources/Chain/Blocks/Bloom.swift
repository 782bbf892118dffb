import EVM
import EthereumPrimitives

/// A 2048-bit log bloom filter (Yellow Paper §4.3.1): for each log's address and topics, three bits
/// chosen by the low 11 bits of the first three byte pairs of their Keccak-256 hash.
public struct Bloom: Sendable, Hashable {
    /// The 256 bytes, big-endian (bit 0 is the last bit of the last byte).
    public private(set) var bytes: [UInt8]

    /// The empty filter.
    public static let empty = Bloom()

    /// An empty filter.
    public init() { bytes = [UInt8](repeating: 0, count: 256) }

    /// A filter from its 256 bytes; nil for another length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 256 else { return nil }
        self.bytes = bytes
    }

    /// The filter of a list of logs.
    public init(logs: some Sequence<Log>) {
        self.init()
        for log in logs { add(log) }
    }

    /// Adds a log's address and topics.
    public mutating func add(_ log: Log) {
        log.address.withUnsafeBytes { add(raw: $0) }
        for topic in log.topics { topic.withUnsafeBytes { add(raw: $0) } }
    }

    /// Adds one value (an address or a topic).
    public mutating func add(_ value: [UInt8]) {
        value.withUnsafeBytes { add(raw: $0) }
    }

    private mutating func add(raw value: UnsafeRawBufferPointer) {
        Keccak256.hash(value).withUnsafeBytes { hash in
            for i in stride(from: 0, to: 6, by: 2) {
                let bit = (Int(hash[i]) << 8 | Int(hash[i + 1])) & 2047
                bytes[255 - bit / 8] |= UInt8(1 << (bit % 8))
            }
        }
    }

    /// ORs another filter in.
    public mutating func formUnion(_ other: Bloom) {
        for i in 0..<256 { bytes[i] |= other.bytes[i] }
    }

    /// True when `value` may have been added (false means it certainly was not).
    public func mayContain(_ value: [UInt8]) -> Bool {
        let hash = Keccak256.hash(value).bytes
        for i in stride(from: 0, to: 6, by: 2) {
            let bit = (Int(hash[i]) << 8 | Int(hash[i + 1])) & 2047
            if bytes[255 - bit / 8] & UInt8(1 << (bit % 8)) == 0 { return false }
        }
        return true
    }

    /// 0x-prefixed hex of the 256 bytes.
    public var hexString: String { Hex.encode(bytes) }
}
