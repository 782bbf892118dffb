/// Ethereum's Keccak-256: the Keccak sponge with a 512-bit capacity and Keccak's original padding
/// (domain byte `0x01`). FIPS 202 SHA3-256 differs only in that byte (`0x06`), so the two give
/// different digests for every input.
///
/// Hash in one call with `Keccak256.hash(_:)`, or incrementally: create a value, call `update(_:)`
/// any number of times, then `finalize()`. The state (a 200-byte sponge and a position) is stored
/// inline, and hashing never allocates.
public struct Keccak256: Sendable {
    /// Bytes absorbed per permutation: (1600 − 2 × 256) / 8 = 136.
    public static var rate: Int { 136 }

    @usableFromInline
    var sponge = KeccakF1600()
    /// How many bytes of the current block are already XORed into the sponge (always < 136).
    @usableFromInline
    var position = 0

    /// Creates a hasher that has absorbed nothing.
    @inlinable
    public init() {}

    /// Absorbs `bytes`.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var p = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        if position > 0 {
            let n = min(remaining, Self.rate - position)
            sponge.xorBytes(UnsafeRawBufferPointer(start: p, count: n), at: position)
            position += n
            p += n
            remaining -= n
            guard position == Self.rate else { return }
            sponge.permute()
            position = 0
        }
        let blocks = remaining / Self.rate
        if blocks > 0 {
            // Whole blocks go straight from the caller's buffer into the state.
            sponge.absorb(blocks: p, count: blocks)
            p += blocks * Self.rate
            remaining -= blocks * Self.rate
        }
        if remaining > 0 {
            sponge.xorBytes(UnsafeRawBufferPointer(start: p, count: remaining), at: 0)
            position = remaining
        }
    }

    /// Absorbs the bytes of a collection, in place when its storage is contiguous.
    @inlinable
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { updateByChunks(bytes) }
    }

    /// Absorbs a collection without contiguous storage by copying it through a stack buffer.
    @usableFromInline
    mutating func updateByChunks<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        var chunk = KeccakF1600.Block()
        withUnsafeMutableBytes(of: &chunk.words) { buffer in
            var n = 0
            for byte in bytes {
                buffer[n] = byte
                n += 1
                if n == buffer.count {
                    update(UnsafeRawBufferPointer(buffer))
                    n = 0
                }
            }
            update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Pads the message, returns its 32-byte digest, and resets the hasher to absorb a new message.
    public mutating func finalize() -> Bytes32 {
        // pad10*1 with Keccak's domain byte; when position is 135 both bytes land in the same place.
        sponge.xorByte(0x01, at: position)
        sponge.xorByte(0x80, at: Self.rate - 1)
        sponge.permute()
        let digest = sponge.digest256()
        self = Keccak256()
        return digest
    }

    /// The Keccak-256 digest of the bytes in `raw`.
    public static func hash(_ raw: UnsafeRawBufferPointer) -> Bytes32 {
        digest(raw, domain: 0x01)
    }

    /// The 256-bit digest of the capacity-512 Keccak sponge with the given domain byte: `0x01` for
    /// Keccak-256, `0x06` for FIPS 202 SHA3-256 (used by the tests to check against FIPS vectors).
    package static func digest(_ raw: UnsafeRawBufferPointer, domain: UInt8) -> Bytes32 {
        var sponge = KeccakF1600()
        let blocks = raw.count / rate
        if blocks > 0, let base = raw.baseAddress {
            sponge.absorb(blocks: base, count: blocks)
        }
        sponge.absorbLast(UnsafeRawBufferPointer(rebasing: raw[(blocks * rate)...]), domain: domain)
        return sponge.digest256()
    }

    /// The Keccak-256 digest of a collection of bytes (without copying when it is contiguous).
    @inlinable
    public static func hash(_ bytes: some Collection<UInt8>) -> Bytes32 {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        var hasher = Keccak256()
        hasher.updateByChunks(bytes)
        return hasher.finalize()
    }

    /// The Keccak-256 digest of the UTF-8 encoding of `string`.
    public static func hash(_ string: String) -> Bytes32 {
        var string = string
        return string.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }
}
