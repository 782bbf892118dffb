import Chain
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// Who signs a command's transactions: a key already read, a keystore file and a way to get its password, or
/// one of the dev accounts of the public test mnemonic — allowed only on development chains (chain id 4, 1337
/// or 31337, or a node whose `web3_clientVersion` names a development node: pyevm-node, anvil, hardhat,
/// ganache, or any version containing "dev"). With no signer given (``automatic``), a development node gets
/// dev account 0 and any other node needs an explicit signer.
public enum SignerSource: Sendable {
    /// This key.
    case key(PrivateKey)
    /// The key in this keystore v3 file, decrypted with the password `password` returns (asked only here).
    case keystore(URL, password: @Sendable (_ prompt: String) throws -> String)
    /// Dev account N of the test mnemonic (m/44'/60'/0'/0/N).
    case devAccount(UInt32)
    /// None given: dev account 0 on a development chain.
    case automatic

    /// True when the caller named a signer (so a logged-in user's own key is not the one that signs).
    public var isExplicit: Bool {
        if case .automatic = self { return false }
        return true
    }

    /// The chain ids that are development chains whatever their node says.
    public static let developmentChainIDs: Set<UInt64> = [4, 1337, 31337]

    /// Whether a node counts as a development node (see the type's comment).
    public static func isDevelopmentNode(chainID: UInt64, clientVersion: String?) -> Bool {
        if developmentChainIDs.contains(chainID) { return true }
        guard let version = clientVersion?.lowercased() else { return false }
        return ["pyevm-node", "anvil", "hardhat", "ganache", "ethereumjs testrpc", "dev"].contains { version.contains($0) }
    }

    /// The signer's address without unlocking anything (no password is asked): what a rehearsal on a fork acts as,
    /// where nothing is signed. Nil for ``automatic``. A keystore must name its address (keystore v3's optional
    /// `address` member, which geth and this toolkit write).
    public func address() throws -> Address? {
        switch self {
        case .key(let key): return key.address
        case .keystore(let url, _):
            guard let address = try KeystoreDirectory.load(url).address else {
                throw AppError.failed("\(url.lastPathComponent) names no address: give the key another way (--private-key-env) to act as it")
            }
            return address
        case .devAccount(let index): return try DevAccounts.key(index: index).address
        case .automatic: return nil
        }
    }

    /// The signing key. `clientVersion` is asked only when a dev account may be used.
    public func key(chainID: UInt64, clientVersion: () async -> String?) async throws -> PrivateKey {
        switch self {
        case .key(let key):
            return key
        case .keystore(let url, let password):
            let file = try KeystoreDirectory.load(url)
            return try file.decrypt(password: try password("Password for \(url.lastPathComponent): "))
        case .devAccount, .automatic:
            let version = Self.developmentChainIDs.contains(chainID) ? nil : await clientVersion()
            guard Self.isDevelopmentNode(chainID: chainID, clientVersion: version) else {
                if case .devAccount = self {
                    throw AppError.failed(
                        "--dev-account is only for development chains (chain id 4, 1337 or 31337, or a dev node); this node is chain \(chainID)")
                }
                throw AppError.failed("no signer: give --private-key-env VAR, --keystore FILE or (on a development chain) --dev-account N")
            }
            var index: UInt32 = 0
            if case .devAccount(let n) = self { index = n }
            return try DevAccounts.key(index: index)
        }
    }
}
