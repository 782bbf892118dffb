import ArgumentParser
import CarChainKit
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// Who signs a node command's transactions: a key from an environment variable, a keystore file, or one of
/// the dev accounts of the test mnemonic (development chains only; see `SignerSource`). With no signer
/// option, a development node gets dev account 0; any other node needs an explicit signer.
struct NodeSignerOptions: ParsableArguments {
    @Option(name: .customLong("private-key-env"), help: ArgumentHelp("Sign with the private key (hex) in this environment variable.", valueName: "VAR"))
    var privateKeyEnv: String?

    @Option(help: ArgumentHelp("Sign with the key in this keystore v3 file (password from a prompt, --password-file or --password-stdin).", valueName: "FILE"))
    var keystore: String?

    @Option(help: ArgumentHelp("Sign with dev account N of the test mnemonic (m/44'/60'/0'/0/N; \(OptionRanges.devAccount.text)); development chains only.", valueName: "N"))
    var devAccount: UInt32?

    @OptionGroup var password: PasswordOptions

    func validate() throws {
        let given = [privateKeyEnv != nil, keystore != nil, devAccount != nil].filter { $0 }.count
        if given > 1 { throw ValidationError("give at most one of --private-key-env, --keystore and --dev-account") }
        try OptionRanges.devAccount.check(devAccount)
    }

    /// The signer these options name (the environment variable is read now; the keystore's password when
    /// the key is needed).
    func source() throws -> SignerSource {
        if let privateKeyEnv { return .key(try Secrets.privateKey(fromEnvironment: privateKeyEnv)) }
        if let keystore { return .keystore(URL(fileURLWithPath: keystore), password: password.reader()) }
        if let devAccount { return .devAccount(devAccount) }
        return .automatic
    }
}
