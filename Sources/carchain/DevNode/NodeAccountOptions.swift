import ArgumentParser
import Chain
import EthereumCrypto
import EthereumPrimitives

/// `carchain node`'s dev-account and fee options, as anvil names them: how many accounts, their balance, the
/// mnemonic and derivation path they come from, and the first block's base fee. The mnemonic is a secret: no
/// error, log or banner line repeats it (nor the keys derived from it).
struct NodeAccountOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How many dev accounts to derive and fund (\(Self.accountsRange.text)).", valueName: "n"))
    var accounts: Int = 10
    @Option(help: ArgumentHelp("Each dev account's balance in ether (a decimal, e.g. 10000 or 0.5).", valueName: "eth"))
    var balance: String = "10000"
    @Option(help: ArgumentHelp(
        "The BIP-39 mnemonic the dev accounts derive from (default: the public test mnemonic); never printed.",
        valueName: "words"))
    var mnemonic: String?
    @Option(help: ArgumentHelp(
        "The BIP-32 path the account index is appended to, ending in / (default: m/44'/60'/0'/0/).", valueName: "path"))
    var derivationPath: String = Self.defaultDerivationPath
    @Option(help: ArgumentHelp("The base fee of the first block, in wei (default: 1 gwei; London and later).", valueName: "wei"))
    var baseFee: String?

    static let defaultDerivationPath = "m/44'/60'/0'/0/"
    static let accountsRange = OptionRange("--accounts", 1...1000, "1 to 1000")

    func validate() throws {
        try Self.accountsRange.check(accounts)
        _ = try balanceWei()
        _ = try baseFeeWei()
        _ = try pathPrefix()
        if let mnemonic {
            // The phrase's own errors may quote a word of it: say only what is wrong in general.
            do { _ = try Mnemonic(phrase: mnemonic) } catch {
                throw ValidationError(
                    "--mnemonic is not a valid BIP-39 mnemonic (12 to 24 words from the English list with a correct checksum)")
            }
        }
    }

    /// The balance in wei.
    func balanceWei() throws(ValidationError) -> UInt256 {
        do { return try Units.parse(balance, unit: .ether) } catch {
            throw ValidationError("--balance must be an amount of ether (0 to 2^256-1 wei), got \(balance.prefix(80)): \(error)")
        }
    }

    /// The first block's base fee, nil for the default.
    func baseFeeWei() throws(ValidationError) -> UInt256? {
        guard let baseFee else { return nil }
        do { return try Units.parse(baseFee, unit: .wei) } catch {
            throw ValidationError("--base-fee must be a whole number of wei (0 to 2^256-1), got \(baseFee.prefix(80))")
        }
    }

    /// The derivation path's components before the account index.
    func pathPrefix() throws(ValidationError) -> String {
        let message = "--derivation-path must be a BIP-32 path ending in / such as m/44'/60'/0'/0/, got \(derivationPath.prefix(100))"
        guard derivationPath.hasSuffix("/"), derivationPath.count <= 200 else { throw ValidationError(message) }
        do { _ = try DerivationPath(derivationPath + "0") } catch { throw ValidationError(message) }
        return derivationPath
    }

    /// Whether the accounts are the standard ones (the public test mnemonic at the default path), whose keys the
    /// banner may print.
    var usesTestMnemonic: Bool {
        (mnemonic == nil || mnemonic == DevAccounts.testMnemonic) && derivationPath == Self.defaultDerivationPath
    }

    /// The funded dev accounts.
    func devAccounts() throws -> [DevAccount] {
        let balance = try balanceWei()
        let prefix = try pathPrefix()
        let master: ExtendedPrivateKey
        do { master = try ExtendedPrivateKey(mnemonic: try Mnemonic(phrase: mnemonic ?? DevAccounts.testMnemonic)) } catch {
            throw CLIError("--mnemonic is not a valid BIP-39 mnemonic")
        }
        var derived: [DevAccount] = []
        for index in 0..<accounts {
            do {
                let key = try master.derive(path: try DerivationPath(prefix + String(index))).privateKey
                derived.append(DevAccount(privateKey: key, balance: balance))
            } catch {
                throw CLIError("--derivation-path \(prefix.prefix(100)): account \(index) cannot be derived")
            }
        }
        return derived
    }

    /// Applies the options to a chain configuration.
    func apply(to config: inout ChainConfig) throws {
        config.devAccounts = try devAccounts()
        if let fee = try baseFeeWei() { config.initialBaseFee = fee }
    }
}
