import CKeccakMultiway

extension Keccak256 {
    /// A vector body of the permutation (CKeccakMultiway): four states side by side in 256-bit registers, with AVX2 or
    /// with AVX-512VL's rotate, or eight in 512-bit registers.
    package enum Lanes: Int32, CaseIterable, Sendable {
        case avx2x4 = 1
        case avx512x4 = 2
        case avx512x8 = 4

        var count: Int { self == .avx512x8 ? 8 : 4 }
    }

    /// The bodies this CPU runs (checked once, from CPUID and the registers the operating system saves).
    package static let availableLanes: [Lanes] = {
        let mask = carchain_keccak_bodies()
        return Lanes.allCases.filter { mask & $0.rawValue != 0 }
    }()

    /// How many messages this CPU hashes side by side: 8 with AVX-512, 4 with AVX2, 1 otherwise.
    public static let lanes: Int = availableLanes.map(\.count).max() ?? 1

    /// The Keccak-256 of each slice `ranges[i]` of `buffer`, in order, computed several at a time when the CPU has
    /// vector lanes for it (``lanes``): a lane that finishes its message takes the next, so slices of different
    /// lengths keep every lane busy. The digests equal ``hash(_:)`` of each slice.
    ///
    /// With AVX-512, four 532-byte messages (four permutations each) take about the time of one; with AVX2 alone, about
    /// half the time of hashing them one by one. A single message is hashed as ``hash(_:)`` hashes it.
    public static func hashes(of buffer: UnsafeRawBufferPointer, ranges: [Range<Int>]) -> [Bytes32] {
        var digests: [Bytes32] = []
        hashes(of: buffer, ranges: ranges, into: &digests)
        return digests
    }

    /// ``hashes(of:ranges:)`` into `digests` (its contents replaced, its capacity kept), for a caller that hashes
    /// batch after batch.
    public static func hashes(of buffer: UnsafeRawBufferPointer, ranges: [Range<Int>], into digests: inout [Bytes32]) {
        hashes(of: buffer, ranges: ranges, lanes: ranges.count > 1 ? bestLanes(for: ranges.count) : nil, into: &digests)
    }

    /// The body for `count` messages: eight lanes only pay for more than four messages (four lanes take the same time a
    /// step on the CPUs measured, docs/CHAIN.md); with four, AVX-512VL's rotate before AVX2's shifts.
    private static let bestForFew = availableLanes.first { $0 == .avx512x4 } ?? availableLanes.first { $0 == .avx2x4 }
    private static let bestForMany = availableLanes.contains(.avx512x8) ? Lanes.avx512x8 : bestForFew
    private static func bestLanes(for count: Int) -> Lanes? { count > 4 ? bestForMany : bestForFew }

    /// ``hashes(of:ranges:into:)`` with the body `lanes` (nil: one message at a time), which must be one of
    /// ``availableLanes``; for tests and benchmarks that compare them.
    package static func hashes(of buffer: UnsafeRawBufferPointer, ranges: [Range<Int>], lanes: Lanes?, into digests: inout [Bytes32]) {
        for range in ranges {
            precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "range \(range) outside a buffer of \(buffer.count) bytes")
        }
        digests.removeAll(keepingCapacity: true)
        guard let lanes, ranges.count > 0, let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            for range in ranges { digests.append(hash(UnsafeRawBufferPointer(rebasing: buffer[range]))) }
            return
        }
        let count = ranges.count
        digests.append(contentsOf: repeatElement(.zero, count: count))
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: count) { starts in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { lengths in
                for (i, range) in ranges.enumerated() {
                    starts[i] = UnsafePointer(base + range.lowerBound)
                    lengths[i] = range.count
                }
                digests.withUnsafeMutableBufferPointer { out in
                    // The C sponge writes each digest's 32 bytes in order; Bytes32 keeps them as big-endian words.
                    let raw = UnsafeMutableRawPointer(out.baseAddress!).assumingMemoryBound(to: UInt8.self)
                    let status = carchain_keccak256_multiway(starts.baseAddress, lengths.baseAddress, count, raw, lanes.rawValue)
                    precondition(status == 0, "Keccak lanes \(lanes) are not among this CPU's \(availableLanes)")
                    for i in out.indices {
                        let w = out[i].words
                        out[i].words = (
                            UInt64(bigEndian: w.0), UInt64(bigEndian: w.1), UInt64(bigEndian: w.2), UInt64(bigEndian: w.3)
                        )
                    }
                }
            }
        }
    }

    /// The Keccak-256 of each of `messages`, in order; see ``hashes(of:ranges:)``.
    public static func hashes(of messages: [[UInt8]]) -> [Bytes32] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(messages.reduce(0) { $0 + $1.count })
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(messages.count)
        for message in messages {
            ranges.append(buffer.count..<(buffer.count + message.count))
            buffer.append(contentsOf: message)
        }
        return buffer.withUnsafeBytes { hashes(of: $0, ranges: ranges) }
    }
}
