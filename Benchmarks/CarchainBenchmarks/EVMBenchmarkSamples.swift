// Per-call timings of the EVM benchmarks, for `make bench`'s side-by-side comparison with revm
// (tools/bench.sh reads them next to tools/bench-revm.py's figures from the same run).
//
// With CARCHAIN_BENCH_RESULTS set to a directory, each benchmark's samples are written to
// `<dir>/<key>.json` (a `/` in the key written as `__`) as {key, runs, minMilliseconds, medianMilliseconds,
// minCPUMilliseconds, medianCPUMilliseconds, gasUsed, samples (wall ns), outputKeccak when set}; the first
// call (the warm-up: page faults, first code analysis) is left out. Files are rewritten as samples
// accumulate and once more when the process exits.

import EthereumPrimitives
import Foundation

final class EVMBenchmarkSamples: @unchecked Sendable {
    let key: String
    private var wall: [UInt64] = []
    private var cpu: [UInt64] = []
    private var gas: Int64 = 0
    private var calls = 0
    private var outputKeccak: String?

    private static let lock = NSLock()
    nonisolated(unsafe) private static var all: [EVMBenchmarkSamples] = []
    private static let directory = ProcessInfo.processInfo.environment["CARCHAIN_BENCH_RESULTS"]

    init(key: String) {
        self.key = key
        guard Self.directory != nil else { return }
        Self.lock.lock()
        if Self.all.isEmpty { atexit { EVMBenchmarkSamples.flushAll() } }
        Self.all.append(self)
        Self.lock.unlock()
    }

    /// Records one call (nanoseconds of wall and thread CPU time, and its gas).
    func record(wall nanoseconds: UInt64, cpu cpuNanoseconds: UInt64, gas used: Int64) {
        guard Self.directory != nil else { return }
        Self.lock.lock()
        defer { Self.lock.unlock() }
        calls += 1
        if calls == 1 { return }
        wall.append(nanoseconds)
        cpu.append(cpuNanoseconds)
        gas = used
        if wall.count & (wall.count - 1) == 0 { write() }
    }

    /// Records the Keccak-256 of the calls' output (the comparison checks it against the reference's).
    func setOutput(_ output: [UInt8]) {
        guard Self.directory != nil else { return }
        let hash = Keccak256.hash(output).hexString
        Self.lock.lock()
        outputKeccak = hash
        Self.lock.unlock()
    }

    static func flushAll() {
        lock.lock()
        defer { lock.unlock() }
        for samples in all { samples.write() }
    }

    /// Writes the file; the caller holds the lock.
    private func write() {
        guard let directory = Self.directory, !wall.isEmpty else { return }
        let sortedWall = wall.sorted()
        let sortedCPU = cpu.sorted()
        var report: [String: Any] = [
            "key": key, "runs": wall.count, "gasUsed": gas, "samples": wall,
            "minMilliseconds": Double(sortedWall[0]) / 1e6,
            "medianMilliseconds": Double(sortedWall[sortedWall.count / 2]) / 1e6,
            "minCPUMilliseconds": Double(sortedCPU[0]) / 1e6,
            "medianCPUMilliseconds": Double(sortedCPU[sortedCPU.count / 2]) / 1e6,
        ]
        if let outputKeccak { report["outputKeccak"] = outputKeccak }
        guard let data = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]) else { return }
        let file = key.replacingOccurrences(of: "/", with: "__") + ".json"
        try? data.write(to: URL(fileURLWithPath: directory).appendingPathComponent(file))
    }

    /// CPU time of the calling thread, in nanoseconds.
    static func threadCPUNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
