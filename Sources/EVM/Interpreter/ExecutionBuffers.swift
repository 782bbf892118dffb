import EthereumPrimitives

/// The memory an interpreter reuses between frames and transactions: one 1024-slot stack per call
/// depth, a pool of memory buffers, and analysed code keyed by code hash.
///
/// Not thread-safe: one instance belongs to one interpreter at a time (pass the same instance to
/// successive interpreters to keep the code cache warm across transactions).
public final class ExecutionBuffers {
    /// Stacks by depth, allocated on first use.
    @usableFromInline var stacks: [UnsafeMutablePointer<UInt256>] = []
    /// Memory buffers not in use: (base, capacity).
    @usableFromInline var freeMemory: [(UnsafeMutableRawPointer, Int)] = []
    /// Analysed code by code hash.
    @usableFromInline var codeCache: [Bytes32: AnalyzedCode] = [:]

    /// The number of analysed codes kept before the cache is cleared.
    public var codeCacheLimit = 4_096

    /// Creates empty buffers.
    public init() {}

    deinit {
        for stack in stacks { stack.deallocate() }
        for (base, _) in freeMemory { base.deallocate() }
    }

    /// The stack for frames at `depth` (0…1024).
    @inlinable
    func stack(depth: Int) -> UnsafeMutablePointer<UInt256> {
        while stacks.count <= depth {
            stacks.append(UnsafeMutablePointer<UInt256>.allocate(capacity: InstructionTable.stackLimit))
        }
        return stacks[depth]
    }

    /// Forgets every analysed code, so the next call of each code analyses it again (benchmarks
    /// that measure the analysis use it).
    public func removeAnalyzedCode() {
        codeCache.removeAll(keepingCapacity: true)
    }

    /// A memory buffer for a new frame.
    @inlinable
    func takeMemory() -> Memory {
        if let (base, capacity) = freeMemory.popLast() { return Memory(base: base, capacity: capacity) }
        let capacity = 4_096
        return Memory(base: UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 32), capacity: capacity)
    }

    /// Returns a frame's memory buffer to the pool.
    @inlinable
    func giveBack(_ memory: Memory) {
        freeMemory.append((memory.base, memory.capacity))
    }

    /// The analysed form of the code with hash `hash` for `fork`, analysing `load()` on a miss (or when the
    /// cached analysis holds another fork's block costs).
    @inlinable
    func analyzedCode(hash: Bytes32, fork: Hardfork, load: () -> [UInt8]) -> AnalyzedCode {
        if let cached = codeCache[hash], cached.fork == fork { return cached }
        if codeCache.count >= codeCacheLimit { codeCache.removeAll(keepingCapacity: true) }
        let analyzed = AnalyzedCode(load(), fork: fork)
        codeCache[hash] = analyzed
        return analyzed
    }
}
