// Standard-library integer protocols for UInt256. The arithmetic requirements are met by the explicit
// implementations in the other UInt256 files; this file adds conversions, words and byte order.

extension UInt256: FixedWidthInteger, UnsignedInteger {
    /// An unsigned type is its own magnitude.
    public typealias Magnitude = UInt256

    /// The value itself (it is unsigned).
    public var magnitude: UInt256 {
        @inlinable @inline(__always) get { self }
    }

    // MARK: Conversions from other integers

    /// The low 256 bits of `source` in two's complement (negative values sign-extend).
    @inlinable
    public init<T: BinaryInteger>(truncatingIfNeeded source: T) {
        if let v = source as? UInt256 {
            self = v
            return
        }
        let fill: UInt64 = source < (0 as T) ? .max : 0
        var l = UInt256(limbs: (fill, fill, fill, fill))
        var bit = 0
        for word in source.words {
            guard bit < 256 else { break }
            let limb = bit &>> 6
            let shift = UInt64(truncatingIfNeeded: bit & 63)
            let mask = UInt64(truncatingIfNeeded: UInt.max) &<< shift
            l[limb: limb] = (l[limb: limb] & ~mask) | (UInt64(truncatingIfNeeded: word) &<< shift)
            bit += UInt.bitWidth
        }
        self = l
    }

    /// `source`, which must be non-negative and less than 2^256 (traps otherwise).
    @inlinable
    public init<T: BinaryInteger>(_ source: T) {
        guard let v = UInt256(exactly: source) else {
            preconditionFailure("\(source) is not representable as UInt256")
        }
        self = v
    }

    /// `source` if it is non-negative and less than 2^256, else nil.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        if source < (0 as T) { return nil }
        if source.bitWidth > 256 && source.words.count * UInt.bitWidth > 256 {
            // Any non-zero word beyond bit 256 means the value is too large.
            var bit = 0
            for word in source.words {
                if bit >= 256 && word != 0 { return nil }
                bit += UInt.bitWidth
            }
        }
        self.init(truncatingIfNeeded: source)
    }

    /// `source` limited to `0...2^256 − 1`.
    @inlinable
    public init<T: BinaryInteger>(clamping source: T) {
        if source < (0 as T) {
            self = .zero
        } else if let v = UInt256(exactly: source) {
            self = v
        } else {
            self = .max
        }
    }

    /// The low bits of a machine word (a standard-library requirement).
    @inlinable @inline(__always)
    public init(_truncatingBits bits: UInt) {
        self.init(UInt64(truncatingIfNeeded: bits))
    }

    // MARK: Words

    /// The value as machine words, least significant first.
    public struct Words: RandomAccessCollection, Sendable {
        @usableFromInline
        internal let value: UInt256

        @inlinable
        internal init(_ value: UInt256) { self.value = value }

        /// Always 0.
        public var startIndex: Int {
            @inlinable get { 0 }
        }

        /// The number of words: 4 on 64-bit platforms.
        public var endIndex: Int {
            @inlinable get { 256 / UInt.bitWidth }
        }

        /// Word `position`, least significant first.
        @inlinable
        public subscript(position: Int) -> UInt {
            precondition(position >= 0 && position < endIndex, "UInt256.Words index out of range")
            let bit = position &* UInt.bitWidth
            return UInt(truncatingIfNeeded: value[limb: bit &>> 6] &>> UInt64(truncatingIfNeeded: bit & 63))
        }
    }

    /// The value as machine words, least significant first.
    public var words: Words {
        @inlinable get { Words(self) }
    }

    // MARK: Byte order

    /// The value with its 32 bytes in reverse order.
    public var byteSwapped: UInt256 {
        @inlinable get {
            UInt256(limbs: (limbs.3.byteSwapped, limbs.2.byteSwapped, limbs.1.byteSwapped, limbs.0.byteSwapped))
        }
    }

    /// The big-endian representation of this value.
    public var bigEndian: UInt256 {
        @inlinable get {
            #if _endian(little)
            return byteSwapped
            #else
            return self
            #endif
        }
    }

    /// The little-endian representation of this value.
    public var littleEndian: UInt256 {
        @inlinable get {
            #if _endian(little)
            return self
            #else
            return byteSwapped
            #endif
        }
    }

    /// Creates a value from its big-endian representation.
    @inlinable
    public init(bigEndian value: UInt256) {
        self = value.bigEndian
    }

    /// Creates a value from its little-endian representation.
    @inlinable
    public init(littleEndian value: UInt256) {
        self = value.littleEndian
    }
}
