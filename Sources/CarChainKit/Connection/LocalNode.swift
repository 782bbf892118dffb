import AuthEmulator
import Chain
import DevNode
import EthereumPrimitives
import Foundation

/// What `carchain node` serves, assembled in one place: the chain on a data directory (or in memory), the
/// CarChain contract (deployed on first start), the auth emulator on the same directory, and the JSON-RPC
/// handler. The caller serves ``handler`` and ``auth`` (``DevNodeServer``) and calls ``close()`` after.
public struct LocalNode: Sendable {
    public let chain: DevChain
    /// The CarChain contract of this chain; nil on a chain from a genesis file (`--genesis`), which is left as
    /// its blocks made it, and on a chain whose contract is gone (``startupNote`` says why).
    public let contract: Address?
    /// Why a chain that should have CarChain has none (`EmbeddedChain.startupContract`), for one warning line.
    public let startupNote: String?
    public let auth: AuthEmulator
    public let handler: NodeRPCHandler
    /// The data directory; nil in memory.
    public let directory: URL?
    /// The data directory's lock when the chain itself holds none: a forked chain lives in memory, but the node still
    /// owns its directory (its fork cache and auth data), so CLI commands on that directory find the node's URL here.
    public let forkLock: ChainLock?

    /// Opens everything; on failure nothing is left open.
    ///
    /// `deployCarChain` false (`--no-carchain`) leaves a new chain without the CarChain contract.
    /// `blocks` (concatenated RLP blocks, `--import`) are imported before anything is served, with `progress`
    /// called per block; `finalized` then sets the block `safe` and `finalized` name (`--finalized`).
    /// `authProjectId` is the auth emulator's default project (`--project-id`): the one API-key calls sign in to.
    public static func open(
        config: ChainConfig, directory: URL?, limits: NodeRPCHandler.Limits = NodeRPCHandler.Limits(),
        blocks: [UInt8]? = nil, finalized: BlockID? = nil,
        progress: (@Sendable (_ done: Int, _ total: Int, _ number: UInt64) -> Void)? = nil, deployCarChain: Bool = true,
        fork: ForkCache? = nil, authProjectId: String = AuthEmulator.defaultProjectId
    ) async throws -> LocalNode {
        let chain: DevChain
        var forkLock: ChainLock?
        do {
            // A forked chain (`--fork-url`) lives in memory; the directory keeps its fork cache and the auth data.
            if fork != nil, let directory { forkLock = try ChainLock.acquire(directory: directory) }
            chain = try await DevChain(config: config, storage: fork == nil ? directory.map { .directory($0) } ?? .memory : .memory, fork: fork)
        } catch {
            forkLock?.release()
            // A fork's start reads the remote (the dev accounts): its failures say what the remote did.
            if case .fork(let failure) = error { throw AppError.failed(failure.description) }
            throw AppError.failed(directory.map { "cannot open the chain at \($0.path): \(error)" } ?? "cannot create the chain: \(error)")
        }
        var contract: Address?
        var startupNote: String?
        do {
            if let blocks {
                do { try await chain.importBlocks(rlp: blocks, progress: progress) } catch {
                    let head = await chain.blockNumber()
                    throw AppError.failed("import stopped: \(error) (the chain stays at block \(head))")
                }
            }
            if let finalized {
                do { try await chain.setFinalized(finalized) } catch { throw AppError.failed("--finalized: \(error)") }
            }
            // A chain from a genesis file is someone else's chain: it gets no CarChain deployment of ours.
            // `--no-carchain`: a plain dev chain, as anvil starts one.
            // Never a refusal: a chain with blocks opens as it is, with or without its contract.
            if deployCarChain && config.genesis == nil && chain.config.genesis == nil && fork == nil {
                let found = await EmbeddedChain.startupContract(on: chain, dataDirectory: directory)
                contract = found.address
                if case .absent(let why) = found { startupNote = why }
            }
        } catch {
            await chain.close()
            forkLock?.release()
            throw error
        }
        let auth: AuthEmulator
        do {
            if let directory {
                auth = try await AuthEmulator.open(dataDirectory: directory.appendingPathComponent("auth").path, projectId: authProjectId)
            } else {
                auth = try await AuthEmulator.ephemeral(projectId: authProjectId)
            }
        } catch {
            await chain.close()
            forkLock?.release()
            throw AppError.failed("cannot start the auth emulator: \(error)")
        }
        return LocalNode(
            chain: chain, contract: contract, startupNote: startupNote, auth: auth, handler: NodeRPCHandler(chain: chain, limits: limits),
            directory: directory, forkLock: forkLock)
    }

    /// The data directory's lock, whoever took it (the chain on disk, or this node for a forked chain).
    public var directoryLock: ChainLock? {
        get async { await chain.dataDirectoryLock ?? forkLock }
    }

    /// Closes the chain and releases the data directory (the auth emulator's store closes with the process).
    public func close() async {
        await chain.close()
        forkLock?.release()
    }
}
