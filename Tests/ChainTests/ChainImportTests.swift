import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

/// A chain from geth's genesis format and blocks from another client: execution-apis' rpc-compat test chain
/// (54 blocks, Homestead through the Merge to BPO2, with ommers, every transaction type and withdrawals), whose
/// block hashes and state roots geth computed. Every block is executed and its header commitments checked.
@Suite struct ChainImportTests {
    static func files() -> (genesis: [UInt8], chain: [UInt8])? {
        guard let genesis = TestPaths.shared("rpc-compat/genesis.json", what: "the rpc-compat genesis"),
            let chain = TestPaths.shared("rpc-compat/chain.rlp", what: "the rpc-compat chain")
        else { return nil }
        guard let g = try? Data(contentsOf: genesis), let c = try? Data(contentsOf: chain) else { return nil }
        return ([UInt8](g), [UInt8](c))
    }

    /// A dev chain of `count` automined blocks, one transfer each (key0 to address1, 1 gwei): a source to export.
    static func transfers(_ count: UInt64, config: ChainConfig) async throws -> DevChain {
        let source = try await DevChain(config: config)
        typealias F = ChainFixtures
        for nonce in 0..<count {
            try await source.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: F.address1, value: F.oneGwei).encoded)
        }
        return source
    }

    static func chain(_ genesisBytes: [UInt8]) async throws -> DevChain {
        var config = ChainConfig()
        config.use(try Genesis(json: genesisBytes))
        return try await DevChain(config: config)
    }

    @Test func theGenesisFileGivesGethsGenesisHash() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let genesis = try Genesis(json: genesisBytes)
        #expect(genesis.chainId == 3_503_995_874_084_926)
        #expect(genesis.schedule.fork(number: 0, timestamp: 0) == .homestead)
        #expect(genesis.schedule.fork(number: 9, timestamp: 90) == .byzantium)
        #expect(genesis.schedule.fork(number: 15, timestamp: 150) == .petersburg)
        #expect(genesis.schedule.fork(number: 36, timestamp: 360) == .paris)
        #expect(genesis.schedule.fork(number: 45, timestamp: 450) == .prague)
        #expect(genesis.schedule.fork(number: 54, timestamp: 540) == .bpo2)
        #expect(genesis.alloc.stateRoot.hexString == "0xdc43f460541a253c0f64b6943ef83fa3bd601699a255622f088d46f7fde359fc")
        let chain = try await Self.chain(genesisBytes)
        // Block 1's parent hash is geth's genesis hash.
        let first = try DecodedBlock(encoded: Array(try BlockFile.split(chainBytes)[0]))
        #expect(try await chain.block(.number(0))?.hash == first.header.parentHash)
    }

    @Test func importsEveryBlockOfTheRPCCompatChain() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let chain = try await Self.chain(genesisBytes)
        let summary = try await chain.importBlocks(rlp: chainBytes)
        print("rpc-compat chain import: \(summary.imported) blocks, \(summary.transactions) transactions, head \(summary.headNumber)")
        #expect(summary.imported == 54)
        #expect(summary.headNumber == 54)
        #expect(summary.headHash.hexString == "0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7")
        // Importing the same file again changes nothing.
        let again = try await chain.importBlocks(rlp: chainBytes)
        #expect(again.imported == 0 && again.known == 54)
    }

    @Test func aBadBlockStopsTheImportAtTheLastGoodBlock() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let parts = try BlockFile.split(chainBytes)
        // Block 5 with another state root: everything before it imports, nothing of it or after it does.
        let original = try DecodedBlock(encoded: Array(parts[4]))
        var header = original.header
        header.stateRoot = try #require(Bytes32([UInt8](repeating: 0x11, count: 32)))
        let altered = Block(
            header: header, transactions: original.transactions, senders: [], ommers: original.ommers,
            withdrawals: original.withdrawals)
        var bytes: [UInt8] = []
        for part in parts[0..<4] { bytes += part }
        bytes += altered.encoded
        for part in parts[5...] { bytes += part }
        let chain = try await Self.chain(genesisBytes)
        do {
            try await chain.importBlocks(rlp: bytes)
            Issue.record("the altered block was accepted")
        } catch {
            #expect(error.description.hasPrefix("invalid block 5: "))
            #expect(error.description.contains("state root"))
        }
        #expect(await chain.blockNumber() == 4)
        // The good blocks are there and the chain goes on from them with the right block 5.
        let rest = try await chain.importBlocks(rlp: Array(parts[4...].joined()))
        #expect(rest.imported == 50 && rest.headNumber == 54)
    }

    @Test func aBlockFailingMidExecutionLeavesTheStateAsItWas() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let parts = try BlockFile.split(chainBytes)
        // Block 2 (59 transactions) with its first transaction repeated after the first two: transactions 0 and 1
        // run, the repeat fails on its nonce. The header's transactions root is the altered list's, so execution
        // is reached.
        let original = try DecodedBlock(encoded: Array(parts[1]))
        var transactions = original.transactions
        transactions.insert(transactions[0], at: 2)
        var altered = DecodedBlock(header: original.header, transactions: transactions, ommers: original.ommers, withdrawals: nil)
        altered.header.transactionsRoot = altered.transactionsRoot
        let bytes = Block(header: altered.header, transactions: transactions, senders: [], ommers: altered.ommers).encoded
        let chain = try await Self.chain(genesisBytes)
        try await chain.importBlocks(rlp: Array(parts[0]))
        let probe = Address(uint32: 0x7435)
        let before = try await chain.balance(probe, at: .latest)
        do {
            try await chain.importBlocks(rlp: bytes)
            Issue.record("the altered block was accepted")
        } catch {
            #expect(error.description.hasPrefix("invalid block 2: transaction 2"), "\(error)")
        }
        #expect(await chain.blockNumber() == 1)
        #expect(try await chain.balance(probe, at: .latest) == before)
        // The rest of the real chain imports on the restored state: every later state root matches.
        let rest = try await chain.importBlocks(rlp: Array(parts[1...].joined()))
        #expect(rest.imported == 53 && rest.headNumber == 54)
    }

    @Test func pendingDevChangesStopAnImportWithoutLosingThem() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let chain = try await Self.chain(genesisBytes)
        let rich = Address(uint32: 0xabcd)
        try await chain.setBalance(rich, UInt256(1234 as UInt64))
        do {
            try await chain.importBlocks(rlp: chainBytes)
            Issue.record("imported on top of unmined dev changes")
        } catch {
            #expect(error.description.contains("mine them first"), "\(error)")
        }
        #expect(try await chain.balance(rich, at: .latest) == UInt256(1234 as UInt64))
        #expect(await chain.blockNumber() == 0)
    }

    @Test func aChainFromAGenesisFileReopensFromItsDirectory() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-reopen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var config = ChainConfig()
        config.use(try Genesis(json: genesisBytes))
        let chain = try await DevChain(config: config, storage: .directory(directory))
        try await chain.importBlocks(rlp: chainBytes)
        try await chain.setFinalized(.number(50))
        let balance = try await chain.balance(Address(uint32: 0x7435), at: .latest)
        await chain.close()

        // No genesis given: the stored one (chain id, forks) is used; the state is checked against block 54.
        let reopened = try await DevChain(config: .keepingStoredHardfork, storage: .directory(directory))
        #expect(reopened.chainId == 3_503_995_874_084_926)
        #expect(await reopened.blockNumber() == 54)
        #expect(reopened.fork(number: 30, timestamp: 300) == .arrowGlacier)
        #expect(await reopened.resolve(.finalized) == 50)
        #expect(try await reopened.balance(Address(uint32: 0x7435), at: .latest) == balance)
        // Its old blocks keep their ommers (and so their hashes' bodies).
        let block3 = try #require(try await reopened.block(.number(3)))
        #expect(block3.ommers.count == 1)
        #expect(try await reopened.exportBlocks(from: 1, to: 54).joined().elementsEqual(chainBytes))
        await reopened.close()

        // Another genesis on the same directory is refused.
        var other = ChainConfig()
        var text = String(decoding: genesisBytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "0x68697665636861696e", with: "0x01")
        #expect(text.utf8.count != genesisBytes.count)
        other.use(try Genesis(json: Array(text.utf8)))
        await #expect(throws: ChainError.self) { _ = try await DevChain(config: other, storage: .directory(directory)) }
    }

    @Test func aDevChainExportsAndImportsOnTheSameGenesis() async throws {
        let config = ChainConfig.deterministic()
        let source = try await Self.transfers(20, config: config)
        typealias F = ChainFixtures
        let head = try #require(try await source.block(.latest))
        let exported = try await source.exportBlocks(from: 1, to: head.number)
        #expect(exported.count == 20)
        let copy = try await DevChain(config: config)
        let summary = try await copy.importBlocks(rlp: Array(exported.joined()))
        #expect(summary.imported == 20 && summary.transactions == 20)
        #expect(summary.headHash == head.hash)
        #expect(try await copy.balance(F.address1, at: .latest) == (try await source.balance(F.address1, at: .latest)))
    }

    /// An import writes its blocks in groups (one SQLite transaction each): a bad block after several groups keeps
    /// every good block before it, on disk too, and the import goes on from there.
    @Test func aLongImportKeepsEveryGoodBlockOnDiskBeforeABadOne() async throws {
        let config = ChainConfig.deterministic()
        let source = try await Self.transfers(600, config: config)
        typealias F = ChainFixtures
        let parts = try await source.exportBlocks(from: 1, to: 600)
        let original = try DecodedBlock(encoded: parts[559])
        var header = original.header
        header.stateRoot = try #require(Bytes32([UInt8](repeating: 0x22, count: 32)))
        let altered = Block(header: header, transactions: original.transactions, senders: [], withdrawals: original.withdrawals)
        var bytes = Array(parts[0..<559].joined())
        bytes += altered.encoded
        bytes += parts[560...].joined()

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-groups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chain = try await DevChain(config: config, storage: .directory(directory))
        do {
            try await chain.importBlocks(rlp: bytes)
            Issue.record("the altered block 560 was accepted")
        } catch {
            #expect(error.description.hasPrefix("invalid block 560: "))
        }
        #expect(await chain.blockNumber() == 559)
        await chain.close()

        let reopened = try await DevChain(config: config, storage: .directory(directory))
        #expect(await reopened.blockNumber() == 559)
        #expect(try await reopened.block(.latest)?.hash == (try await source.block(.number(559))?.hash))
        #expect(try await reopened.balance(F.address1, at: .latest) == (try await source.balance(F.address1, at: .number(559))))
        let rest = try await reopened.importBlocks(rlp: Array(parts[559...].joined()))
        #expect(rest.imported == 41)
        #expect(rest.headHash == (try await source.block(.latest))?.hash)
        await reopened.close()
    }

    /// Groups of imported blocks are written on another thread while the next group executes. A group whose write
    /// fails (here an SQLite trigger refuses block 300, in the second group of 256) takes the chain back to the last
    /// group written, in memory and on disk, and the error says where the chain stands; the import goes on from there
    /// once the database takes writes again.
    @Test func aFailedGroupWriteTakesTheChainBackToTheLastGroupWritten() async throws {
        guard let sqlite = Prerequisite.tool("sqlite3", install: "sqlite3", for: "import write-failure test")?.path else { return }
        let config = ChainConfig.deterministic()
        let source = try await Self.transfers(600, config: config)
        typealias F = ChainFixtures
        let parts = try await source.exportBlocks(from: 1, to: 600)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-write-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("chain.sqlite").path
        await (try await DevChain(config: config, storage: .directory(directory))).close()
        let trigger = try await ProcessRunner.run(
            URL(fileURLWithPath: sqlite),
            [database, "CREATE TRIGGER refuse_300 BEFORE INSERT ON blocks WHEN NEW.number = 300 BEGIN SELECT RAISE(ABORT, 'disk says no'); END;"])
        #expect(trigger.status == 0, "\(trigger.stderr)")

        let chain = try await DevChain(config: config, storage: .directory(directory))
        do {
            try await chain.importBlocks(rlp: Array(parts.joined()))
            Issue.record("the refused write went unnoticed")
        } catch {
            #expect(error.description.contains("disk says no"), "\(error)")
            #expect(error.description.hasSuffix("the chain is back at block 256, the last block written"), "\(error)")
        }
        #expect(await chain.blockNumber() == 256)
        #expect(try await chain.balance(F.address1, at: .latest) == (try await source.balance(F.address1, at: .number(256))))
        await chain.close()

        let dropped = try await ProcessRunner.run(URL(fileURLWithPath: sqlite), [database, "DROP TRIGGER refuse_300;"])
        #expect(dropped.status == 0, "\(dropped.stderr)")
        let reopened = try await DevChain(config: config, storage: .directory(directory))
        #expect(await reopened.blockNumber() == 256)
        let rest = try await reopened.importBlocks(rlp: Array(parts[256...].joined()))
        #expect(rest.imported == 344)
        #expect(rest.headHash == (try await source.block(.latest))?.hash)
        await reopened.close()
    }

    /// Senders and body roots of the blocks ahead are computed on another thread (`BlockLookahead`, a window of
    /// blocks at a time): a bad signature, and a part that is not a block, many windows into the file are reported
    /// with the same words as when the block is imported alone, and the chain stays at the block before.
    @Test func errorsFoundAheadAreReportedAtTheirBlock() async throws {
        let config = ChainConfig.deterministic()
        let source = try await Self.transfers(200, config: config)
        typealias F = ChainFixtures
        let parts = try await source.exportBlocks(from: 1, to: 200)

        // Block 150 with its transaction's r set to 0; the header's transactions root is the altered list's.
        let original = try DecodedBlock(encoded: parts[149])
        let tx = try #require(original.transactions.first)
        let forged = SignedTransaction(
            transaction: tx.transaction, signature: TransactionSignature(v: tx.signature.v, r: UInt256(0), s: tx.signature.s))
        var altered = DecodedBlock(header: original.header, transactions: [forged], withdrawals: original.withdrawals)
        altered.header.transactionsRoot = altered.transactionsRoot
        let forgedBytes = Block(header: altered.header, transactions: [forged], senders: [], withdrawals: original.withdrawals).encoded

        // The same block imported alone (no lookahead) gives the reference message.
        let alone = try await DevChain(config: config)
        try await alone.importBlocks(rlp: Array(parts[0..<149].joined()))
        var expected = ""
        let forgedBlock = try DecodedBlock(encoded: forgedBytes)
        do { try await alone.importBlock(forgedBlock) } catch { expected = error.description }
        #expect(expected.hasPrefix("invalid block 150: transaction 0"), "\(expected)")

        let chain = try await DevChain(config: config)
        do {
            try await chain.importBlocks(rlp: Array(parts[0..<149].joined()) + forgedBytes + Array(parts[150...].joined()))
            Issue.record("the forged signature was accepted")
        } catch {
            #expect(error.description == expected)
        }
        #expect(await chain.blockNumber() == 149)

        // A part that is an RLP list but not a block, at position 171 of the rest of the file.
        let notABlock: [UInt8] = [0xc3, 0x01, 0x02, 0x03]
        do {
            try await chain.importBlocks(rlp: Array(parts[149..<170].joined()) + notABlock + Array(parts[170...].joined()))
            Issue.record("a list of three numbers was taken for a block")
        } catch {
            #expect(error.description.hasPrefix("invalid block at position 22 in the file: "), "\(error)")
        }
        #expect(await chain.blockNumber() == 170)
        let rest = try await chain.importBlocks(rlp: Array(parts[170...].joined()))
        #expect(rest.imported == 30)
        #expect(rest.headHash == (try await source.block(.latest))?.hash)
    }

    @Test func genesisErrorsNameTheField() throws {
        func message(_ json: String) -> String {
            do {
                _ = try Genesis(json: Array(json.utf8))
                return "accepted"
            } catch { return error.description }
        }
        #expect(message("{}").contains("config"))
        #expect(message(#"{"config":{}}"#).contains("config.chainId"))
        #expect(message(#"{"config":{"chainId":1,"londonBlock":"soon"}}"#).contains("config.londonBlock"))
        #expect(message(#"{"config":{"chainId":1},"alloc":{"0x12":{}}}"#).contains("alloc.0x12"))
        #expect(message(#"{"config":{"chainId":1},"alloc":{"0x0000000000000000000000000000000000000001":{"balance":"-1"}}}"#)
            .contains("balance"))
        #expect(message(#"{"config":{"chainId":1,"terminalTotalDifficulty":5}}"#).contains("mergeNetsplitBlock"))
        #expect(message(#"{"config":{"chainId":1,"clique":{"period":5}}}"#).contains("clique"))
        #expect(message(#"{"config":{"chainId":1},"extraData":"0x"# + String(repeating: "00", count: 33) + #""}"#).contains("extraData"))
        // Unknown fields are ignored; quantities may be numbers, hex or decimal strings.
        let genesis = try Genesis(json: Array(#"{"config":{"chainId":"0x10","londonBlock":0,"shanghaiTime":"20","terminalTotalDifficulty":0,"someFutureField":[1]},"gasLimit":30000000,"alloc":{"0000000000000000000000000000000000000001":{"balance":"1000"}}}"#.utf8))
        #expect(genesis.chainId == 16)
        #expect(genesis.fork == .paris)
        #expect(genesis.schedule.fork(number: 5, timestamp: 20) == .shanghai)
        #expect(genesis.alloc.accounts.values.first?.balance == UInt256(1000 as UInt64))
    }
}
