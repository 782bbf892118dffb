import ArgumentParser
import CarChainKit
import Chain
import EthereumPrimitives
import Foundation

/// `carchain chain`: move whole chains in and out of a data directory.
struct ChainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain",
        abstract: "Import blocks into a chain, or export its blocks (geth's RLP format).",
        subcommands: [ChainImportCommand.self, ChainExportCommand.self])
}

/// `carchain chain import FILE`.
struct ChainImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Execute and validate the blocks of an RLP file on top of a chain's head.",
        discussion: """
            Reads FILE (blocks as concatenated RLP, the format of `geth export`, hive's chain.rlp and `carchain chain export`), and executes and validates each block with the rules of its fork: header rules (difficulty and its bomb delays before the Merge, gas limit bounds, base fee, blob gas, timestamps), ommer rules and rewards, the transactions, withdrawals and requests, and every root (state, receipts, transactions, withdrawals, requests) and the logs bloom. Proof-of-work seals are not verified (test chains carry fake ones). Blocks the chain already holds are skipped. The first bad block stops the import with its number and the rule it broke; nothing of it or after it is kept, and the chain stays at the last good block.

            The chain is the data directory's (default $CARCHAIN_HOME/chain); with --genesis, a new data directory starts from that genesis file (geth's format), and an existing one must hold a chain from the same genesis. Stop `carchain node` first: a running node holds the data directory.

            Examples:
              carchain chain import chain.rlp --genesis genesis.json --data-dir /tmp/imported
              carchain chain import exported.rlp --data-dir /tmp/copy --genesis genesis.json --json
            """)

    @Argument(help: ArgumentHelp("The blocks (concatenated RLP).", valueName: "file")) var file: String
    @Option(help: ArgumentHelp("Start a new chain from this genesis file (geth's genesis.json).", valueName: "file"))
    var genesis: String?
    @Option(help: ArgumentHelp("The data directory (default: $CARCHAIN_HOME/chain).", valueName: "dir")) var dataDir: String?
    @Option(help: ArgumentHelp("Mark this block as safe and finalized after the import (latest, a number or a hash).", valueName: "block"))
    var finalized: String?
    @Flag(help: "Print the summary as JSON.") var json = false
    @Flag(help: "No progress lines on stderr.") var quiet = false

    func validate() throws {
        if let finalized { _ = try ChainFileOptions.blockID(finalized, option: "--finalized") }
    }

    func run() async throws {
        var config = ChainConfig.keepingStoredHardfork
        if let genesis { config.use(try ChainFileOptions.genesis(genesis, option: "--genesis")) }
        let blocks = try ChainFileOptions.blocks(file, option: "file")
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? CarchainHome.current().chainDirectory
        let chain: DevChain
        do { chain = try await DevChain(config: config, storage: .directory(directory)) } catch {
            throw CLIError("cannot open the chain at \(directory.path): \(error)")
        }
        let started = ContinuousClock.now
        let summary: ImportSummary
        do {
            summary = try await chain.importBlocks(
                rlp: blocks, progress: quiet ? nil : ImportProgress(total: try BlockFile.split(blocks).count).report)
            if let finalized { try await chain.setFinalized(try ChainFileOptions.blockID(finalized, option: "--finalized")) }
        } catch {
            let head = await chain.blockNumber()
            await chain.close()
            throw CLIError("import stopped: \(error) (the chain stays at block \(head))")
        }
        await chain.close()
        let seconds = (ContinuousClock.now - started).seconds
        if json {
            print(JSONValue.object([
                ("imported", .number(String(summary.imported))), ("known", .number(String(summary.known))),
                ("transactions", .number(String(summary.transactions))), ("gasUsed", .number(String(summary.gasUsed))),
                ("head", .number(String(summary.headNumber))), ("headHash", .string(summary.headHash.hexString)),
                ("seconds", .number(String(format: "%.3f", seconds))),
            ]).description)
        } else {
            print(
                "imported \(summary.imported) blocks (\(summary.known) already known, \(summary.transactions) transactions) in "
                    + String(format: "%.2f s", seconds) + "; head \(summary.headNumber) \(summary.headHash.hexString)")
        }
    }
}

/// `carchain chain export FILE`.
struct ChainExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a chain's blocks to an RLP file (geth's export format), to import elsewhere.",
        discussion: """
            Writes blocks --from N to --to M (default: 1 to the head; block 0 is the genesis, which the importing side creates from its own genesis) as concatenated RLP. `carchain chain import` and `geth import` read the file; a dev chain's blocks import on a chain from the same genesis (for a dev chain: the same --chain-id, --hardfork and dev accounts, and its genesis timestamp — export it with the chain's data directory, or start the other side from a copy).

            Dev changes (anvil_setBalance, anvil_setCode, anvil_setStorageAt, anvil_loadState, …) are not in any block: the other side runs a block mined after them without them, computes another state root, and its import stops at the first such block. The export names those blocks on stderr (and in --json, minedOnDevChanges) and writes the file all the same.

            Examples:
              carchain chain export chain.rlp
              carchain chain export recent.rlp --from 100 --to 200 --data-dir /tmp/chain
            """)

    @Argument(help: ArgumentHelp("Where to write the blocks (an existing file is replaced).", valueName: "file")) var file: String
    @Option(help: ArgumentHelp("The first block (default 1).", valueName: "N")) var from: UInt64 = 1
    @Option(help: ArgumentHelp("The last block (default: the head).", valueName: "M")) var to: UInt64?
    @Option(help: ArgumentHelp("The data directory (default: $CARCHAIN_HOME/chain).", valueName: "dir")) var dataDir: String?
    @Flag(help: "Print the summary as JSON.") var json = false

    func validate() throws {
        if let to, to < from { throw ValidationError("--to \(to) is before --from \(from)") }
    }

    func run() async throws {
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? CarchainHome.current().chainDirectory
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("chain.sqlite").path) else {
            throw CLIError("no chain at \(directory.path)")
        }
        let chain: DevChain
        do { chain = try await DevChain(config: .keepingStoredHardfork, storage: .directory(directory)) } catch {
            throw CLIError("cannot open the chain at \(directory.path): \(error)")
        }
        let head = await chain.blockNumber()
        let last = Swift.min(to ?? head, head)
        guard from <= last else {
            await chain.close()
            throw CLIError("--from \(from) is after the head (block \(head))")
        }
        var data = Data()
        let onDevChanges: [UInt64]
        do {
            // In slices, so a long chain is not decoded all at once.
            var start = from
            while start <= last {
                let end = last - start >= 999 ? start + 999 : last
                for block in try await chain.exportBlocks(from: start, to: end) { data.append(contentsOf: block) }
                if end == last { break }
                start = end + 1
            }
            onDevChanges = try await chain.blocksMinedOnDevChanges(from: from, to: last)
        } catch {
            await chain.close()
            throw CLIError("export failed: \(error)")
        }
        await chain.close()
        do { try data.write(to: URL(fileURLWithPath: file), options: .atomic) } catch {
            throw CLIError("cannot write \(file): \(error.localizedDescription)")
        }
        let count = last - from + 1
        if let first = onDevChanges.first {
            // An RLP block holds transactions, not the dev changes it was mined on: the importing side computes another
            // state for it and stops there.
            let listed = onDevChanges.prefix(10).map(String.init).joined(separator: ", ") + (onDevChanges.count > 10 ? ", …" : "")
            FileHandle.standardError.write(
                Data(
                    ("carchain: warning: \(onDevChanges.count) of the blocks (\(listed)) were mined after dev changes (anvil_setBalance, "
                        + "anvil_setCode, anvil_setStorageAt, …), which an RLP file cannot hold: an import of this file stops at "
                        + "block \(first) (state root mismatch)\n").utf8))
        }
        if json {
            print(JSONValue.object([
                ("from", .number(String(from))), ("to", .number(String(last))), ("blocks", .number(String(count))),
                ("bytes", .number(String(data.count))), ("file", .string(file)),
                ("minedOnDevChanges", .array(onDevChanges.map { .number(String($0)) })),
            ]).description)
        } else {
            print("exported blocks \(from)…\(last) (\(count) blocks, \(data.count) bytes) to \(file)")
        }
    }
}

/// Reading the files and block names the chain options take.
enum ChainFileOptions {
    /// A genesis file, parsed; errors name the option and the field.
    static func genesis(_ path: String, option: String) throws(CLIError) -> Genesis {
        let bytes = try CLIInput.file(path, option: option, limit: Genesis.maxFileSize)
        do { return try Genesis(json: bytes) } catch { throw CLIError("\(option) \(path): \(error)") }
    }

    /// A block file's bytes (checked to split into blocks).
    static func blocks(_ path: String, option: String) throws(CLIError) -> [UInt8] {
        let bytes = try CLIInput.file(path, option: option, limit: DevChain.maxImportFileSize)
        do { _ = try BlockFile.split(bytes) } catch { throw CLIError("\(option) \(path): \(error)") }
        return bytes
    }

    /// `latest`, `earliest`, a block number (decimal or 0x hex) or a block hash.
    static func blockID(_ text: String, option: String) throws(CLIError) -> BlockID {
        switch text.lowercased() {
        case "latest", "head": return .latest
        case "earliest", "genesis": return .earliest
        default: break
        }
        if text.hasPrefix("0x") && text.count == 66, let bytes = try? Hex.decode(text), let hash = Bytes32(bytes) {
            return .hash(hash)
        }
        if text.hasPrefix("0x"), text.count <= 18, let number = UInt64(text.dropFirst(2), radix: 16) { return .number(number) }
        if let number = UInt64(text) { return .number(number) }
        throw CLIError("\(option): expected latest, earliest, a block number or a block hash, got \(text.prefix(80))")
    }
}

/// Progress of a long import on stderr: at most one line a second, and the last block.
final class ImportProgress: @unchecked Sendable {
    private let total: Int
    private let lock = NSLock()
    private var lastReport = ContinuousClock.now
    private let started = ContinuousClock.now

    init(total: Int) { self.total = total }

    /// The callback `importBlocks` calls per block.
    var report: @Sendable (Int, Int, UInt64) -> Void {
        { [self] done, _, number in self.update(done: done, number: number) }
    }

    private func update(done: Int, number: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        guard done == total || now - lastReport >= .seconds(1) else { return }
        lastReport = now
        let elapsed = (now - started).seconds
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        FileHandle.standardError.write(
            Data("carchain: imported \(done)/\(total) blocks (block \(number), \(Int(rate)) blocks/s)\n".utf8))
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
