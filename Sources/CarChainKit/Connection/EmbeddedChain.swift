import CarChain
import Chain
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// The embedded chain: a ``DevChain`` on a data directory (default `$CARCHAIN_HOME/chain`), answered
/// in-process through DevNode's `InProcessTransport` (see ``ChainSession``), with the project's CarChain
/// deployed once on first use by dev account 0 and its address kept in `<data dir>/carchain.json` (not in
/// `config.json`, which is for real nodes). `carchain node` (``LocalNode``) uses the same file.
public enum EmbeddedChain {
    /// `<dataDirectory>/carchain.json`.
    public static func contractFile(_ dataDirectory: URL) -> URL { dataDirectory.appendingPathComponent("carchain.json") }

    /// The CarChain address remembered in the data directory.
    public static func rememberedContract(_ dataDirectory: URL) -> Address? {
        guard let data = try? InputFile.read(contractFile(dataDirectory).path, limit: InputFile.documentLimit),
            let json = try? JSONValue(parsing: data),
            let text = json["contract"]?.stringValue
        else { return nil }
        return try? Address(text)
    }

    /// Remembers `address` as the data directory's CarChain.
    public static func remember(contract address: Address, chainID: UInt64, in dataDirectory: URL) throws(AppError) {
        let json = JSONValue.object([("contract", .string(address.checksummed)), ("chainId", .number(String(chainID)))])
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            try Data((json.description + "\n").utf8).write(to: contractFile(dataDirectory), options: .atomic)
        } catch {
            throw AppError.failed("cannot write \(contractFile(dataDirectory).path): \(error.localizedDescription)")
        }
    }

    /// Opens the chain in `dataDirectory`. Another CLI process may hold the lock for the moment (its
    /// command is short): wait for it up to `wait` seconds. A `carchain node` holding it is reported
    /// through ``ChainError/dataDirectoryLocked(path:pid:url:)`` with its URL. A new chain runs the default fork
    /// (Osaka); an existing one keeps the fork it was created with.
    public static func open(_ dataDirectory: URL, config: ChainConfig = .keepingStoredHardfork, wait: Double = 15) async throws -> DevChain {
        let deadline = Date().addingTimeInterval(wait)
        while true {
            do {
                return try await DevChain(config: config, storage: .directory(dataDirectory))
            } catch {
                guard case .dataDirectoryLocked(_, _, let url) = error, url == nil, Date() < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The CarChain of a chain being opened (by `carchain node` or a CLI command on the data directory), found or
    /// deployed without ever refusing the chain:
    /// - the remembered contract when it has code;
    /// - else, on a chain that holds nothing yet — no block but its genesis, no dev change pending, nothing ever
    ///   deployed from this data directory (no `carchain.json`) — the project's contract, deployed now by the first dev
    ///   account and remembered;
    /// - else none, with the reason: a chain with blocks is someone's work and opens as it is (`anvil_reset` or
    ///   `anvil_setCode` may have removed the contract, `anvil_setNonce` may have taken its address). Deploying there
    ///   would add a block a restart was not asked for, and could fail ("contract address collision") and keep the
    ///   data directory from opening at all; `carchain deploy` deploys one when wanted.
    public static func startupContract(on chain: DevChain, dataDirectory: URL?) async -> StartupContract {
        let remembered = dataDirectory.flatMap(rememberedContract)
        if let remembered, let code = try? await chain.code(remembered, at: .latest), !code.isEmpty { return .found(remembered) }
        guard remembered == nil, await chain.holdsNothingYet() else {
            let why = remembered.map { "\($0.checksummed) has no code (anvil_reset or anvil_setCode removed it)" }
                ?? "the chain has blocks or dev changes and no CarChain was deployed from this data directory"
            return .absent("no CarChain on this chain: \(why); `carchain deploy` deploys one")
        }
        do {
            return .deployed(try await deploy(on: chain, dataDirectory: dataDirectory))
        } catch {
            return .absent("CarChain was not deployed: \(error)")
        }
    }

    /// Deploys the project's CarChain from the first dev account and remembers it (with a data directory).
    public static func deploy(on chain: DevChain, dataDirectory: URL?) async throws -> Address {
        guard let deployer = chain.accounts.first else { throw AppError.failed("the embedded chain has no dev account to deploy CarChain") }
        let hash = try await chain.sendTransaction(
            CallRequest(from: deployer, data: CarChainArtifact.project.bytecode))
        var receipt = try await chain.receipt(hash: hash)
        if receipt == nil {
            try await chain.mine()
            receipt = try await chain.receipt(hash: hash)
        }
        guard let receipt, receipt.status, let address = receipt.contractAddress else {
            throw AppError.failed("deploying CarChain on the embedded chain failed (transaction \(hash))")
        }
        if let dataDirectory { try remember(contract: address, chainID: chain.chainId, in: dataDirectory) }
        return address
    }
}

/// What ``EmbeddedChain/startupContract(on:dataDirectory:)`` found.
public enum StartupContract: Sendable, Equatable {
    /// The remembered contract, with code.
    case found(Address)
    /// Deployed now, on a chain that held nothing yet.
    case deployed(Address)
    /// None; why, in one line (for a warning).
    case absent(String)

    /// The contract, if there is one.
    public var address: Address? {
        switch self {
        case .found(let address), .deployed(let address): return address
        case .absent: return nil
        }
    }
}
