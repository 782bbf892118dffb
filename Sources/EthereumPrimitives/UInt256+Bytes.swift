// Big-endian byte conversions of UInt256: the EVM's memory, calldata and storage layout.

extension UInt256 {
    /// The value of a 32-byte word read as a big-endian number.
    @inlinable @inline(__always)
    public init(_ bytes: Bytes32) {
        limbs = (bytes.words.3, bytes.words.2, bytes.words.1, bytes.words.0)
    }

    /// The value as a 32-byte big-endian word.
    public var bytes32: Bytes32 {
        @inlinable @inline(__always) get { Bytes32(words: (limbs.3, limbs.2, limbs.1, limbs.0)) }
    }

    /// Reads a big-endian number of at most 32 bytes (shorter input is left-padded with zeros);
    /// nil if there are more than 32 bytes.
    @inlinable
    public init?(bigEndianBytes bytes: some Collection<UInt8>) {
        guard bytes.count <= 32 else { return nil }
        self.init(rightAlignedBigEndian: bytes, count: bytes.count)
    }

    /// Reads a big-endian number from the last 32 bytes of `bytes` (all of them if fewer, left-padded
    /// with zeros), ignoring any bytes before those.
    @inlinable
    public init(truncatingBigEndian bytes: some Collection<UInt8>) {
        let count = bytes.count
        if count > 32 {
            self.init(rightAlignedBigEndian: bytes.dropFirst(count - 32), count: 32)
        } else {
            self.init(rightAlignedBigEndian: bytes, count: count)
        }
    }

    /// `bytes` (`count` ≤ 32 of them) as the low end of a big-endian number.
    @inlinable
    internal init(rightAlignedBigEndian bytes: some Collection<UInt8>, count: Int) {
        if count == 32,
            let v = bytes.withContiguousStorageIfAvailable({ buffer in
                buffer.baseAddress.map { UInt256(bigEndianAt: UnsafeRawPointer($0)) }
            }) ?? nil
        {
            self = v
            return
        }
        var l: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var position = count  // bytes remaining, including this one: its weight is 256^(position−1)
        for b in bytes {
            position -= 1
            let v = UInt64(b) &<< UInt64(truncatingIfNeeded: (position & 7) &* 8)
            switch position &>> 3 {
            case 0: l.0 |= v
            case 1: l.1 |= v
            case 2: l.2 |= v
            default: l.3 |= v
            }
        }
        limbs = l
    }

    /// Reads 32 bytes at `pointer` as a big-endian number (no alignment needed): the EVM's MLOAD.
    @inlinable @inline(__always)
    public init(bigEndianAt pointer: UnsafeRawPointer) {
        limbs = (
            UInt64(bigEndian: pointer.loadUnaligned(fromByteOffset: 24, as: UInt64.self)),
            UInt64(bigEndian: pointer.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
            UInt64(bigEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(bigEndian: pointer.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        )
    }

    /// Writes the value as 32 big-endian bytes at `pointer` (no alignment needed): the EVM's MSTORE.
    @inlinable @inline(__always)
    public func storeBigEndian(to pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: limbs.3.bigEndian, toByteOffset: 0, as: UInt64.self)
        pointer.storeBytes(of: limbs.2.bigEndian, toByteOffset: 8, as: UInt64.self)
        pointer.storeBytes(of: limbs.1.bigEndian, toByteOffset: 16, as: UInt64.self)
        pointer.storeBytes(of: limbs.0.bigEndian, toByteOffset: 24, as: UInt64.self)
    }

    /// Calls `body` with the 32 big-endian bytes, without allocating.
    @inlinable
    public func withBigEndianBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var be = (limbs.3.bigEndian, limbs.2.bigEndian, limbs.1.bigEndian, limbs.0.bigEndian)
        return try Swift.withUnsafeBytes(of: &be, body)
    }

    /// The 32 big-endian bytes.
    public var bigEndianBytes: [UInt8] {
        withBigEndianBytes { Array($0) }
    }

    /// The big-endian bytes without leading zeros (empty for zero): the form RLP encodes integers in.
    public var minimalBigEndianBytes: [UInt8] {
        withBigEndianBytes { Array($0.dropFirst(32 - byteWidth)) }
    }

    /// Calls `body` with the big-endian bytes without leading zeros (none for zero), without allocating.
    @inlinable
    public func withMinimalBigEndianBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let skip = 32 - byteWidth
        return try withBigEndianBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[skip...])) }
    }
}

extension UInt64 {
    /// The 8 big-endian bytes.
    public var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: bigEndian) { Array($0) }
    }

    /// Calls `body` with the big-endian bytes without leading zeros (none for zero), without allocating.
    @inlinable
    public func withMinimalBigEndianBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: bigEndian) { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[(leadingZeroBitCount / 8)...]))
        }
    }
}
