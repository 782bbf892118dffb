import EthereumPrimitives

/// A call frame's memory: a contiguous, zero-filled, growable byte buffer whose size is always a
/// multiple of 32. Buffers come from and return to the interpreter's pool, so a frame does not
/// allocate unless it needs more memory than any earlier frame at its depth.
///
/// Zeroing runs ahead of the active size: the bytes from ``size`` up to ``zeroed`` are known to be zero,
/// and growing past ``zeroed`` zeroes ahead as much again as is zeroed (256 bytes to 4 KiB, within the
/// capacity). A contract that grows its
/// memory a word at a time (an allocator bumping the free-memory pointer) then pays no zero-filling and
/// no call on most expansions, and the loop expands inline up to ``zeroed`` (``Frame/inlineOffset``).
/// Every byte is zeroed once per use of the buffer, as before; a buffer goes back to the pool as it is.
@usableFromInline
struct Memory {
    /// The buffer; `capacity` bytes, of which `size` are in use.
    @usableFromInline var base: UnsafeMutableRawPointer
    /// The active size in bytes (MSIZE), a multiple of 32.
    @usableFromInline var size: Int
    /// The allocated bytes.
    @usableFromInline var capacity: Int
    /// The bytes from `size` up to here are zero (`size ≤ zeroed ≤ capacity`, a multiple of 32).
    @usableFromInline var zeroed: Int

    /// The largest memory a frame may have. Expanding to 4 GiB costs more than 3·10^13 gas, far
    /// beyond any real gas limit, so refusing larger sizes as out of gas changes no outcome.
    @usableFromInline static let maxSize = 1 << 32

    @usableFromInline
    init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.size = 0
        self.capacity = capacity
        self.zeroed = 0
    }

    /// The most zeroing runs ahead of an expansion that passes ``zeroed``.
    @usableFromInline static let zeroingStep = 4_096

    /// Total gas for `words` words of memory: 3·w + w²/512 (Yellow Paper, C_mem).
    @inlinable @inline(__always)
    static func cost(words: Int) -> Int64 {
        let w = Int64(words)
        return 3 &* w &+ (w &* w) / 512
    }

    /// Grows the active size to cover `end` bytes (rounded up to a word), zero-filling and charging
    /// the expansion to `gas`; false when the gas does not suffice or `end` is too large. Always
    /// inlined: `gas` is the interpreter loop's register (the reallocation is out of line).
    @inlinable @inline(__always)
    mutating func grow(toCover end: Int, gas: inout Int64) -> Bool {
        guard end <= Memory.maxSize else { return false }
        let newSize = (end &+ 31) & ~31
        let charge = Memory.cost(words: newSize >> 5) &- Memory.cost(words: size >> 5)
        gas &-= charge
        if gas < 0 { return false }
        if newSize > zeroed { prepare(newSize) }
        size = newSize
        return true
    }

    /// Makes the bytes up to `newSize` available and zero (reallocating when the capacity is short),
    /// zeroing ahead (see the type's comment).
    @usableFromInline @inline(never)
    mutating func prepare(_ newSize: Int) {
        if newSize > capacity {
            let newCapacity = Swift.max(newSize, capacity &* 2)
            let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 32)
            newBase.copyMemory(from: base, byteCount: size)
            base.deallocate()
            base = newBase
            capacity = newCapacity
            zeroed = size
        }
        // The step grows with the zeroed part (at least 256 bytes, at most zeroingStep), so a frame that
        // uses little memory does not pay for zeroing 4 KiB.
        let step = Swift.min(Swift.max(zeroed, 256), Memory.zeroingStep)
        let target = Swift.min(capacity, Swift.max(newSize, zeroed &+ step))
        (base + zeroed).initializeMemory(as: UInt8.self, repeating: 0, count: target &- zeroed)
        zeroed = target
    }

    /// The active memory as bytes.
    @usableFromInline
    var activeBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: size) }

    /// Copies `count` bytes from `source` (starting at `sourceOffset`, zero-padded past its end)
    /// to memory at `offset`; the range must already be active.
    @inlinable
    func copy(from source: UnsafeRawBufferPointer, sourceOffset: UInt256, count: Int, to offset: Int) {
        if count == 0 { return }
        let destination = base + offset
        let available: Int
        let start: Int
        if sourceOffset.fitsInUInt64 && sourceOffset.low64 < UInt64(source.count) {
            start = Int(sourceOffset.low64)
            available = Swift.min(count, source.count &- start)
        } else {
            start = 0
            available = 0
        }
        if available > 0, let sourceBase = source.baseAddress {
            destination.copyMemory(from: sourceBase + start, byteCount: available)
        }
        if available < count {
            (destination + available).initializeMemory(as: UInt8.self, repeating: 0, count: count &- available)
        }
    }
}
