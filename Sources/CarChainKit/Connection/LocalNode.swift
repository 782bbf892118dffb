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
    /// The CarChain contract of this chain.
    public let contract: Address
    public let auth: AuthEmulator
    public let handler: NodeRPCHandler
    /// The data directory; nil in memory.
    public let directory: URL?

    /// Opens everything; on failure nothing is left open.
    public static func open(
        config: ChainConfig, directory: URL?, limits: NodeRPCHandler.Limits = NodeRPCHandler.Limits()
    ) async throws -> LocalNode {
        let chain: DevChain
        do {
            chain = try await DevChain(config: config, storage: directory.map { .directory($0) } ?? .memory)
        } catch {
            throw AppError.failed(directory.map { "cannot open the chain at \($0.path): \(error)" } ?? "cannot create the chain: \(error)")
        }
        let contract: Address
        do {
            contract = try await EmbeddedChain.ensureContract(on: chain, dataDirectory: directory)
        } catch {
            await chain.close()
            throw error
        }
        let auth: AuthEmulator
        do {
            if let directory {
                auth = try await AuthEmulator.open(dataDirectory: directory.appendingPathComponent("auth").path)
            } else {
                auth = try await AuthEmulator.ephemeral()
            }
        } catch {
            await chain.close()
            throw AppError.failed("cannot start the auth emulator: \(error)")
        }
        return LocalNode(chain: chain, contract: contract, auth: auth, handler: NodeRPCHandler(chain: chain, limits: limits), directory: directory)
    }

    /// Closes the chain (the auth emulator's store closes with the process).
    public func close() async { await chain.close() }
}
