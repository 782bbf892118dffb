import Dispatch
import Synchronization

/// The blocks of an import, decoded and given their ``BlockDigest`` on another thread one window ahead of the block
/// being executed: sender recovery (secp256k1) and the body's roots are about a seventh of an import's work and need
/// nothing from the blocks before, so on a machine with a second core they cost no time on the import's own thread.
/// Blocks are asked for in order; a block that does not decode is its error, at its index, as without the lookahead.
///
/// A window is decoded by whichever thread starts it first: the worker, or the import's own thread when it needs the
/// window before a worker has picked it up. An import's database writes run on the same pool of worker threads (one
/// per core), so on a two-core machine the window often waits behind a group's write; the import's thread then decodes
/// it instead of waiting idle for the write to finish.
struct BlockLookahead {
    typealias Decoded = Result<DecodedBlock, BlockValidationError>

    private let parts: [ArraySlice<UInt8>]
    private let window: Int
    private let prepare: @Sendable (DecodedBlock) -> DecodedBlock
    private var current: [Decoded] = []
    private var currentStart = 0
    private var next: Pending?

    /// A window to decode, by the worker thread or the import's thread, whichever claims it first. The claimer writes
    /// `blocks`; a worker that claimed it leaves `group` after writing, and the import's thread waits for `group` only
    /// when the worker claimed the window.
    private final class Pending: @unchecked Sendable {
        let group = DispatchGroup()
        let slice: ArraySlice<ArraySlice<UInt8>>
        private let claimed = Mutex(false)
        var blocks: [Decoded] = []

        init(slice: ArraySlice<ArraySlice<UInt8>>) { self.slice = slice }

        /// True for the first caller only.
        func claim() -> Bool {
            claimed.withLock { taken in
                defer { taken = true }
                return !taken
            }
        }
    }

    /// `prepare` runs on each decoded block off the import's thread (it computes the digest).
    init(parts: [ArraySlice<UInt8>], window: Int, prepare: @escaping @Sendable (DecodedBlock) -> DecodedBlock) {
        self.parts = parts
        self.window = max(1, window)
        self.prepare = prepare
    }

    /// Block `index` of the file; `index` must be the one after the last asked for (starting at 0).
    mutating func block(at index: Int) -> Decoded {
        if index >= currentStart + current.count {
            if let next {
                if next.claim() {
                    // No worker has started it: decode it here rather than wait for one to be free.
                    current = Self.decode(next.slice, prepare)
                } else {
                    next.group.wait()
                    current = next.blocks
                }
                self.next = nil
            } else {
                current = Self.decode(parts[index..<min(index + window, parts.count)], prepare)
            }
            currentStart = index
            let start = index + current.count
            if start < parts.count {
                let pending = Pending(slice: parts[start..<min(start + window, parts.count)])
                let prepare = self.prepare
                pending.group.enter()
                DispatchQueue.global().async {
                    if pending.claim() { pending.blocks = Self.decode(pending.slice, prepare) }
                    pending.group.leave()
                }
                next = pending
            }
        }
        return current[index - currentStart]
    }

    private static func decode(
        _ parts: ArraySlice<ArraySlice<UInt8>>, _ prepare: @Sendable (DecodedBlock) -> DecodedBlock
    ) -> [Decoded] {
        parts.map { part in
            Result { () throws(BlockValidationError) in prepare(try DecodedBlock(encoded: Array(part))) }
        }
    }
}
