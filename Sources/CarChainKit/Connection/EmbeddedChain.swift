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

    /// The CarChain of this chain: the remembered one when it has code, otherwise the project's
    /// contract deployed now by the first dev account (and remembered when there is a data directory).
    public static func ensureContract(on chain: DevChain, dataDirectory: URL?) async throws -> Address {
        if let dataDirectory, let remembered = rememberedContract(dataDirectory),
            try await !chain.code(remembered, at: .latest).isEmpty
        {
            return remembered
        }
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
