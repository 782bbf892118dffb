import ArgumentParser
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import Foundation

/// Who signs a node command's transactions: a key from an environment variable, a keystore file, or one of
/// the dev accounts of the test mnemonic. Dev accounts are allowed only on development chains: chain id 4,
/// 1337 or 31337, or a node whose `web3_clientVersion` names a development node (pyevm-node, anvil,
/// hardhat, ganache, or any version containing "dev"). With no signer option, a development node gets dev
/// account 0; any other node needs an explicit signer.
struct NodeSignerOptions: ParsableArguments {
    @Option(name: .customLong("private-key-env"), help: ArgumentHelp("Sign with the private key (hex) in this environment variable.", valueName: "VAR"))
    var privateKeyEnv: String?

    @Option(help: ArgumentHelp("Sign with the key in this keystore v3 file (password from --password-file or a prompt).", valueName: "FILE"))
    var keystore: String?

    @Option(help: ArgumentHelp("Sign with dev account N of the test mnemonic (m/44'/60'/0'/0/N); development chains only.", valueName: "N"))
    var devAccount: UInt32?

    @OptionGroup var password: PasswordOptions

    /// The test mnemonic that dev nodes (anvil, hardhat, tools/pyevm-node.py) fund.
    static let devMnemonic = "test test test test test test test test test test test junk"
    static let devChainIDs: Set<UInt64> = [4, 1337, 31337]

    func validate() throws {
        let given = [privateKeyEnv != nil, keystore != nil, devAccount != nil].filter { $0 }.count
        if given > 1 { throw ValidationError("give at most one of --private-key-env, --keystore and --dev-account") }
    }

    /// Whether a node counts as a development node (see the type's comment).
    static func isDevelopmentNode(chainID: UInt64, clientVersion: String?) -> Bool {
        if devChainIDs.contains(chainID) { return true }
        guard let version = clientVersion?.lowercased() else { return false }
        return ["pyevm-node", "anvil", "hardhat", "ganache", "ethereumjs testrpc", "dev"].contains { version.contains($0) }
    }

    /// The signing key. `clientVersion` is asked only when a dev account may be used.
    func loadKey(chainID: UInt64, clientVersion: () async -> String?) async throws -> PrivateKey {
        if let privateKeyEnv { return try Secrets.privateKey(fromEnvironment: privateKeyEnv) }
        if let keystore {
            let url = URL(fileURLWithPath: keystore)
            let file = try KeystoreDirectory.load(url)
            let pass = try password.read(prompt: "Password for \(url.lastPathComponent): ")
            return try file.decrypt(password: pass)
        }
        let version = NodeSignerOptions.devChainIDs.contains(chainID) ? nil : await clientVersion()
        guard NodeSignerOptions.isDevelopmentNode(chainID: chainID, clientVersion: version) else {
            if devAccount != nil {
                throw CLIError("--dev-account is only for development chains (chain id 4, 1337 or 31337, or a dev node); this node is chain \(chainID)")
            }
            throw CLIError("no signer: give --private-key-env VAR, --keystore FILE or (on a development chain) --dev-account N")
        }
        return try NodeSignerOptions.devKey(index: devAccount ?? 0)
    }

    /// Dev account `index` of the test mnemonic.
    static func devKey(index: UInt32) throws -> PrivateKey {
        let root = try ExtendedPrivateKey(mnemonic: try Mnemonic(phrase: devMnemonic))
        return try root.derive(path: .ethereum(index: index)).privateKey
    }
}
