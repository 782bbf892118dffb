/// Reads a fuzzer's bytes as a stream of small decisions, for the structured harnesses (the node and the
/// auth service): each read takes bytes from the front and never fails; once the bytes run out every read
/// answers zero, so any input, however short, describes one complete, deterministic sequence of calls.
public struct FuzzInput: Sendable {
    private let bytes: [UInt8]
    private var position = 0

    /// A reader over `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True once every byte has been read.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte (0 past the end).
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<count` (`count` ≥ 1), from one byte (two when `count` > 256).
    public mutating func index(_ count: Int) -> Int {
        precondition(count >= 1, "FuzzInput.index needs a non-empty range")
        if count <= 256 { return Int(byte()) % count }
        return (Int(byte()) << 8 | Int(byte())) % count
    }

    /// True with probability about `numerator`/256.
    public mutating func chance(_ numerator: UInt8) -> Bool { byte() < numerator }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ choices: [T]) -> T { choices[index(choices.count)] }

    /// A 64-bit number read big-endian from `width` bytes (1…8).
    public mutating func uint64(width: Int = 8) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<min(max(width, 1), 8) { value = value << 8 | UInt64(byte()) }
        return value
    }

    /// Up to `maxCount` bytes: a length byte, then that many bytes (fewer when the input ends).
    public mutating func bytes(maxCount: Int) -> [UInt8] {
        let count = index(maxCount + 1)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for _ in 0..<count where !isAtEnd { out.append(byte()) }
        return out
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        guard position < bytes.count else { return [] }
        defer { position = bytes.count }
        return Array(bytes[position...])
    }
}

/// An invariant a harness checks that did not hold: the fuzzer turns it into a crash (and saves the input),
/// the regression tests into a failed expectation.
public struct FuzzInvariantFailure: Error, Sendable, CustomStringConvertible {
    /// Which harness and what went wrong.
    public let description: String

    /// A failure of `harness`'s invariant.
    public init(_ harness: FuzzTarget, _ message: String) {
        description = "\(harness.rawValue): \(message)"
    }
}
