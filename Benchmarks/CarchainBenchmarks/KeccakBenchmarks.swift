import Benchmark
import CLibCrypto
import EthereumPrimitives

/// Keccak-256 against OpenSSL's SHA3-256 (the same Keccak-f[1600] permutation and rate, in assembly
/// on x86-64) at 32 B, 64 B, 1 KiB and 16 KiB. Throughput is hashes per second; bytes per second is
/// that times the size in the name. OpenSSL reuses one EVP_MD_CTX and one fetched EVP_MD, set up
/// outside the measurement. Keccak256 does not allocate; OpenSSL 3.0 still mallocs once per hash,
/// because EVP_DigestInit_ex re-creates the provider's digest context on every init (there is no
/// allocation-free EVP path in 3.0, and its low-level SHA3 functions are not exported).
func registerKeccakBenchmarks() {
    for (label, size) in [("32 B", 32), ("64 B", 64), ("1 KiB", 1_024), ("16 KiB", 16_384)] {
        let input = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .throughput, .mallocCountTotal],
            timeUnits: .nanoseconds,
            scalingFactor: size >= 16_384 ? .one : .kilo,
            maxDuration: .seconds(2),
            maxIterations: 1_000_000
        )

        Benchmark("Keccak256 \(label)", configuration: configuration) { benchmark in
            input.withUnsafeBytes { raw in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(Keccak256.hash(raw))
                }
                benchmark.stopMeasurement()
            }
        }

        Benchmark("OpenSSL SHA3-256 \(label)", configuration: configuration) { benchmark in
            guard let md = EVP_MD_fetch(nil, "SHA3-256", nil), let context = EVP_MD_CTX_new() else {
                benchmark.error("OpenSSL SHA3-256 is unavailable")
                return
            }
            defer {
                EVP_MD_CTX_free(context)
                EVP_MD_free(md)
            }
            var digest = Bytes32.zero
            input.withUnsafeBytes { raw in
                withUnsafeMutableBytes(of: &digest.words) { out in
                    let outPointer = out.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    var length: UInt32 = 0
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations {
                        EVP_DigestInit_ex(context, md, nil)
                        EVP_DigestUpdate(context, raw.baseAddress, raw.count)
                        EVP_DigestFinal_ex(context, outPointer, &length)
                    }
                    benchmark.stopMeasurement()
                }
            }
            blackHole(digest)
        }
    }

    registerSideBySideKeccakBenchmarks()
}

/// Several messages hashed side by side (`Keccak256.hashes(of:ranges:)`, the vector body chosen at run time; and each
/// body this CPU runs, named) against the same messages one by one: four and eight 532-byte messages, the size of a
/// full branch node of a trie (sixteen 33-byte references; four permutations each), as a block's state root hashes
/// them level by level. Throughput is batches per second.
private func registerSideBySideKeccakBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )
    for count in [4, 8] {
        let buffer = (0..<(532 * count)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let ranges = (0..<count).map { (532 * $0)..<(532 * $0 + 532) }
        Benchmark("Keccak256 \(count) × 532 B side by side", configuration: configuration) { benchmark in
            buffer.withUnsafeBytes { raw in
                var digests: [Bytes32] = []
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    Keccak256.hashes(of: raw, ranges: ranges, into: &digests)
                    blackHole(digests)
                }
                benchmark.stopMeasurement()
            }
        }
        for lanes in Keccak256.availableLanes {
            Benchmark("Keccak256 \(count) × 532 B side by side, \(lanes)", configuration: configuration) { benchmark in
                buffer.withUnsafeBytes { raw in
                    var digests: [Bytes32] = []
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations {
                        Keccak256.hashes(of: raw, ranges: ranges, lanes: lanes, into: &digests)
                        blackHole(digests)
                    }
                    benchmark.stopMeasurement()
                }
            }
        }
        Benchmark("Keccak256 \(count) × 532 B one by one", configuration: configuration) { benchmark in
            buffer.withUnsafeBytes { raw in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    for range in ranges { blackHole(Keccak256.hash(UnsafeRawBufferPointer(rebasing: raw[range]))) }
                }
                benchmark.stopMeasurement()
            }
        }
    }
}
