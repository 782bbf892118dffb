import EthereumPrimitives

/// Contract code prepared for the interpreter: the bytes in a padded buffer, the bitmap of valid
/// jump destinations, and the ``Operation`` of every opcode, computed once per code (the interpreter
/// caches it by code hash). The loop dispatches on `operations[pc]`, one load, rather than on the
/// byte's entry in the fork's table, which would put a second load before every dispatch.
///
/// It also holds the cost of each basic block (``BlockCost``, `BasicBlocks.swift`) in one fork, filled in
/// the first time a block runs, so analysing a large contract costs nothing for the parts a call never
/// reaches. Not thread-safe, like the ``ExecutionBuffers`` that cache it.
///
/// The buffer has 32 zero bytes before the code and 33 after it, so reading an opcode at `pc ≤
/// count` never leaves the buffer (running off the end reads STOP), and PUSHn reads its immediate
/// with one 32-byte load ending at its last byte (bytes past the end of the code read as zero, as
/// the Yellow Paper specifies).
public final class AnalyzedCode: @unchecked Sendable {
    /// The code length in bytes.
    public let count: Int
    /// The padded buffer (32 leading zero bytes, the code, then at least 33 zero bytes).
    @usableFromInline let storage: UnsafeMutablePointer<UInt8>
    /// The first code byte inside `storage`.
    @usableFromInline let bytes: UnsafePointer<UInt8>
    /// Bit `i` is set when byte `i` is a JUMPDEST opcode (not PUSH data).
    @usableFromInline let jumpdests: UnsafeMutablePointer<UInt64>
    /// `operations[i]` is the operation of the opcode at `i` (``Operation/invalid`` for a byte no
    /// fork defines; the fork's table rejects operations it lacks); `.stop` from `count` on, so
    /// running off the end stops. Entries inside PUSH immediates are never read.
    @usableFromInline let operations: UnsafeMutablePointer<Operation>
    /// `blocks[pc]` is the cost of the basic block starting at `pc` (``BlockCost/unknown`` until it first
    /// runs; entries where no block starts are never read); `count + 1` entries.
    @usableFromInline let blocks: UnsafeMutablePointer<BlockCost>
    /// The fork whose static gas ``blocks`` holds.
    public let fork: Hardfork

    static let leadingPadding = 32
    static let trailingPadding = 33

    /// Copies and analyses `code` for running under `fork`'s rules.
    public init(_ code: [UInt8], fork: Hardfork) {
        let count = code.count
        self.count = count
        self.fork = fork
        let total = Self.leadingPadding + count + Self.trailingPadding
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: total)
        storage.initialize(repeating: 0, count: total)
        code.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { (storage + Self.leadingPadding).update(from: base, count: count) }
        }
        self.storage = storage
        let bytes = UnsafePointer(storage + Self.leadingPadding)
        self.bytes = bytes
        let words = (count + 63) / 64 + 1
        let jumpdests = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        jumpdests.initialize(repeating: 0, count: words)
        self.jumpdests = jumpdests
        let operations = UnsafeMutablePointer<Operation>.allocate(capacity: count + Self.trailingPadding)
        operations.initialize(repeating: .stop, count: count + Self.trailingPadding)
        self.operations = operations
        let blocks = UnsafeMutablePointer<BlockCost>.allocate(capacity: count + 1)
        blocks.initialize(repeating: .unknown, count: count + 1)
        self.blocks = blocks
        Opcodes.operationByByte.withUnsafeBufferPointer { byByte in
            var pc = 0
            while pc < count {
                let op = bytes[pc]
                operations[pc] = byByte[Int(op)]
                if op == 0x5b {
                    jumpdests[pc >> 6] |= 1 << UInt64(pc & 63)
                } else if op >= 0x60 && op <= 0x7f {
                    pc &+= Int(op) &- 0x5f  // skip PUSH1–PUSH32 immediates
                }
                pc &+= 1
            }
        }
    }

    deinit {
        storage.deallocate()
        jumpdests.deallocate()
        operations.deallocate()
        blocks.deallocate()
    }

    /// True when `destination` is a JUMPDEST opcode inside the code.
    @inlinable @inline(__always)
    public func isJumpDestination(_ destination: Int) -> Bool {
        destination < count && jumpdests[destination >> 6] & (1 << UInt64(destination & 63)) != 0
    }

    /// The code bytes.
    public var code: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: count)) }
}
