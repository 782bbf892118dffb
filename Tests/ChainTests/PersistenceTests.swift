import Chain
import EVM
import EthereumPrimitives
import Foundation
import TestSupport
import Testing

@Suite struct PersistenceTests {
    typealias F = ChainFixtures

    @Test func reopenGivesTheSameChain() async throws {
        let directory = F.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
        try await chain.sendRawTransaction(F.legacy(F.key0, nonce: 0, to: nil, data: F.loggerInitCode, gas: 100_000).encoded)
        let logger = ContractAddress.create(sender: F.address0, nonce: 0)
        for nonce in 1...5 as ClosedRange<UInt64> {
            try await chain.sendRawTransaction(
                F.dynamicFee(F.key0, nonce: nonce, to: logger, data: F.word(UInt256(nonce)), gas: 60_000).encoded)
        }
        try await chain.setStorage(logger, slot: UInt256(9), value: UInt256(9))
        _ = try await chain.mine()
        var blocks: [Block] = []
        for n in 0...7 as ClosedRange<UInt64> { blocks.append(try #require(try await chain.block(.number(n)))) }
        let receipts = try await chain.receipts(.number(3))
        let logs = try await chain.logs(LogFilter(fromBlock: .earliest))
        let balance = try await chain.balance(F.address0)
        let oldBalance = try await chain.balance(F.address0, at: .number(2))
        await chain.close()

        let reopened = try await DevChain(config: .deterministic(), storage: .directory(directory))
        #expect(await reopened.blockNumber() == 7)
        for n in 0...7 as ClosedRange<UInt64> {
            #expect(try await reopened.block(.number(n)) == blocks[Int(n)])
        }
        #expect(try await reopened.receipts(.number(3)) == receipts)
        #expect(try await reopened.logs(LogFilter(fromBlock: .earliest)) == logs)
        #expect(try await reopened.balance(F.address0) == balance)
        #expect(try await reopened.balance(F.address0, at: .number(2)) == oldBalance)
        #expect(try await reopened.storage(logger, slot: UInt256(9)) == UInt256(9))
        #expect(await reopened.currentState().stateRoot == blocks[7].header.stateRoot)
        // It keeps going where it stopped.
        try await reopened.sendRawTransaction(F.dynamicFee(F.key0, nonce: 6, to: F.address1).encoded)
        #expect(try #require(try await reopened.block(.latest)).header.parentHash == blocks[7].hash)
        await reopened.close()

        var other = ChainConfig.deterministic()
        other.chainId = 1
        await #expect(throws: ChainError.configMismatch("chain id 4 on disk, 1 requested")) {
            try await DevChain(config: other, storage: .directory(directory))
        }
    }

    @Test func lockFileGuardsTheDirectory() async throws {
        let directory = F.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(ChainLock.owner(of: directory) == nil)
        let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
        let lock = try #require(await chain.dataDirectoryLock)
        try lock.setURL("http://127.0.0.1:8545")
        let owner = try #require(ChainLock.owner(of: directory))
        #expect(owner.pid == getpid() && owner.url == "http://127.0.0.1:8545")
        do {
            _ = try await DevChain(config: .deterministic(), storage: .directory(directory))
            Issue.record("a second open of a locked directory succeeded")
        } catch {
            #expect(error == .dataDirectoryLocked(path: directory.path, pid: getpid(), url: "http://127.0.0.1:8545"))
        }
        await chain.close()
        #expect(ChainLock.owner(of: directory) == nil)
        let again = try await DevChain(config: .deterministic(), storage: .directory(directory))
        await again.close()
    }

    @Test func tamperedStateIsDetectedOnOpen() async throws {
        guard let sqlite = Prerequisite.tool("sqlite3", install: "sqlite3", for: "tampered-state test")?.path else { return }
        let directory = F.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
        try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1).encoded)
        await chain.close()
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: sqlite),
            [directory.appendingPathComponent("chain.sqlite").path, "UPDATE accounts SET nonce = nonce + 1;"])
        #expect(result.status == 0, "\(result.stderr)")
        do {
            _ = try await DevChain(config: .deterministic(), storage: .directory(directory))
            Issue.record("a state that does not match the head opened")
        } catch {
            guard case .stateRootMismatch(let block, _, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(block == 1)
        }
    }

    /// Blocks reach SQLite after the journal (`chain.journal`): a database behind its journal — what a kill between
    /// the two leaves — gets the missing blocks when it opens; a record cut short (the kill came during its write) is
    /// not applied, nor anything after it.
    @Test func journalAheadOfTheDatabaseIsAppliedOnOpen() async throws {
        let directory = F.temporaryDirectory()
        let saved = F.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: saved)
        }
        // Each chain is closed and released before its files are copied (SQLite deletes its WAL when it closes).
        func send(_ nonces: Range<UInt64>) async throws -> (blocks: [UInt64: Block], balance: UInt256) {
            let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
            var blocks: [UInt64: Block] = [:]
            for nonce in nonces {
                try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: F.address1, value: F.oneEther).encoded)
                let block = try #require(try await chain.block(.latest))
                blocks[block.number] = block
            }
            let balance = try await chain.balance(F.address1)
            await chain.close()
            return (blocks, balance)
        }
        _ = try await send(0..<4)
        try F.copyDatabase(directory, saved)  // the database at block 4
        let (blocks, balance) = try await send(4..<7)  // blocks 5–7, in the database and the journal
        let journal = try Data(contentsOf: directory.appendingPathComponent("chain.journal"))

        // The database at block 4, the journal holding blocks 5–7.
        try F.copyDatabase(saved, directory)
        do {
            let replayed = try await DevChain(config: .deterministic(), storage: .directory(directory))
            #expect(await replayed.blockNumber() == 7)
            for n in 5...7 as ClosedRange<UInt64> { #expect(try await replayed.block(.number(n)) == blocks[n]) }
            #expect(try await replayed.balance(F.address1) == balance)
            #expect(await replayed.currentState().stateRoot == blocks[7]?.header.stateRoot)
            await replayed.close()
        }

        // The same with block 7's record cut short: blocks 5 and 6 come back, and the chain goes on from 6.
        try F.copyDatabase(saved, directory)
        try journal.dropLast(10).write(to: directory.appendingPathComponent("chain.journal"))
        let cut = try await DevChain(config: .deterministic(), storage: .directory(directory))
        #expect(await cut.blockNumber() == 6)
        #expect(try await cut.block(.number(6)) == blocks[6])
        #expect(await cut.currentState().stateRoot == blocks[6]?.header.stateRoot)
        try await cut.sendRawTransaction(F.dynamicFee(F.key0, nonce: 6, to: F.address1, value: F.oneEther).encoded)
        #expect(try await cut.block(.latest)?.header.parentHash == blocks[6]?.hash)
        await cut.close()
    }

    /// Kills a process that is sending transactions (SIGKILL, at whatever point it is), reopens the
    /// data directory and checks every acknowledged transaction is there and the state verifies.
    @Test func killedProcessRestartsAtTheLastCommittedBlock() async throws {
        guard let helper = Self.crashHelper() else { return }
        let directory = F.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var acknowledged: [Bytes32] = []
        for round in 0..<3 {
            let acks = try Self.runAndKill(helper, directory: directory, after: 40 + 37 * round)
            #expect(acks.count >= 40 + 37 * round, "round \(round)")
            acknowledged += acks
            let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
            for hash in acknowledged {
                #expect(try await chain.receipt(hash: hash)?.status == true, "round \(round): \(hash) lost")
            }
            let head = await chain.blockNumber()
            #expect(head >= UInt64(acknowledged.count))
            #expect(await chain.currentState().stateRoot == (try #require(try await chain.block(.latest))).header.stateRoot)
            await chain.close()
        }
    }

    /// Starts the helper, reads acknowledgements until `count`, then SIGKILLs it mid-stream.
    static func runAndKill(_ helper: URL, directory: URL, after count: Int) throws -> [Bytes32] {
        let process = Process()
        process.executableURL = helper
        process.arguments = [directory.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        var acks: [Bytes32] = []
        var buffer = Data()
        let handle = out.fileHandleForReading
        while acks.count < count {
            let chunk = handle.availableData
            if chunk.isEmpty { break }  // the helper exited
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.hasPrefix("ack "), let hash = try? Bytes32(hex: String(line.dropFirst(4))) { acks.append(hash) }
            }
        }
        process.end(signal: SIGKILL)
        // Lines already written before the kill are acknowledgements too.
        buffer.append(handle.readDataToEndOfFile())
        for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n") where line.hasPrefix("ack ") {
            if let hash = try? Bytes32(hex: String(line.dropFirst(4))) { acks.append(hash) }
        }
        return acks
    }

    /// The built `ChainCrashHelper` next to the test bundle, or nil (a missing prerequisite).
    static func crashHelper() -> URL? { ProcessRunner.builtExecutable("ChainCrashHelper", for: "crash-safety test") }
}
