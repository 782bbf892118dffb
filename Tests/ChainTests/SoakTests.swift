import Chain
import EthereumPrimitives
import Foundation
import TestSupport
import Testing

/// The soak's short version (issue 36; the long one is `make soak`): mixed automined traffic on SQLite in a child
/// process (`ChainPerfProbe soak`: value transfers, CarChain rentals, an ERC-20), which reports its resident memory
/// and its last acknowledged transaction as it goes.
@Suite struct SoakTests {
    typealias F = ChainFixtures

    /// Resident memory may grow by this much from the first report after the warm-up to the last. The chain keeps a
    /// bounded number of recent blocks, diffs and hashes in memory and everything older on disk, so what is left is
    /// the allocator's noise; a per-block leak of 1 KiB over the 12,000 transactions measured would be 12 MiB.
    static let growthBound = 12 << 10  // KiB

    struct Report {
        var transactions: Int
        var head: UInt64
        var residentKilobytes: Int
        var last: Bytes32
    }

    static func report(_ line: Substring) -> Report? {
        guard line.hasPrefix("report ") else { return nil }
        var fields: [Substring: Substring] = [:]
        for part in line.split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let tx = fields["tx"].flatMap({ Int($0) }), let head = fields["head"].flatMap({ UInt64($0) }),
            let rss = fields["rss_kb"].flatMap({ Int($0) }), let last = fields["last"].flatMap({ try? Bytes32(hex: String($0)) })
        else { return nil }
        return Report(transactions: tx, head: head, residentKilobytes: rss, last: last)
    }

    /// 20,000 transactions: memory after the warm-up (8,000) stays within ``growthBound``, and the chain reopens with
    /// every transaction and a state root that verifies.
    @Test func twentyThousandTransactionsKeepMemoryFlat() async throws {
        guard let probe = ProcessRunner.builtExecutable("ChainPerfProbe", for: "soak test") else { return }
        let directory = F.temporaryDirectory("soak")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await ProcessRunner.run(probe, ["soak", "20000", directory.path, "1000"])
        #expect(run.status == 0, "\(run.stderr)")
        let reports = run.stdout.split(separator: "\n").compactMap(Self.report)
        #expect(reports.count == 20, "\(run.stdout)")
        guard let warm = reports.first(where: { $0.transactions == 8_000 }), let last = reports.last else { return }
        let growth = last.residentKilobytes - warm.residentKilobytes
        #expect(growth <= Self.growthBound, "resident memory grew by \(growth) KiB from 8,000 to 20,000 transactions: \(reports.map(\.residentKilobytes))")

        let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
        #expect(await chain.blockNumber() == last.head)
        #expect(try await chain.receipt(hash: last.last)?.status == true)
        #expect(await chain.currentState().stateRoot == (try #require(try await chain.block(.latest))).header.stateRoot)
        await chain.close()
    }

    /// The soak killed with SIGKILL at whatever point it is: the reopened chain holds the last transaction it
    /// acknowledged (and so every one before it: blocks are sequential) and its state root verifies.
    @Test func killedSoakKeepsEveryAcknowledgedTransaction() async throws {
        guard let probe = ProcessRunner.builtExecutable("ChainPerfProbe", for: "soak kill test") else { return }
        let directory = F.temporaryDirectory("soak-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = probe
        process.arguments = ["soak", "20000", directory.path, "250"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        var reports: [Report] = []
        var buffer = Data()
        let handle = out.fileHandleForReading
        // Killed a moment after the 3,000th acknowledgement, in the middle of whatever it is doing.
        while reports.last.map({ $0.transactions < 3_000 }) ?? true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if let report = Self.report(line[...]) { reports.append(report) }
            }
        }
        usleep(useconds_t(37_000))
        process.end(signal: SIGKILL)
        buffer.append(handle.readDataToEndOfFile())
        for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n") {
            if let report = Self.report(line) { reports.append(report) }
        }
        let acknowledged = try #require(reports.last)
        #expect(acknowledged.transactions >= 3_000)

        let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
        #expect(await chain.blockNumber() >= acknowledged.head)
        #expect(try await chain.receipt(hash: acknowledged.last)?.status == true, "the last acknowledged transaction was lost")
        #expect(await chain.currentState().stateRoot == (try #require(try await chain.block(.latest))).header.stateRoot)
        await chain.close()
    }
}
