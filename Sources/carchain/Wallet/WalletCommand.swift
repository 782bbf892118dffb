import ArgumentParser
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// `carchain wallet …`: keystore accounts and HD derivation.
struct WalletCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallet",
        abstract: "Keystore accounts ($CARCHAIN_HOME/keystore) and BIP-39/BIP-44 derivation.",
        discussion: """
            Keys are stored as keystore v3 files (scrypt, AES-128-CTR), mode 0600, in a 0700 directory. \
            Passwords come from --password-file or a no-echo prompt; keys and mnemonics come from environment \
            variables, never from arguments. Private keys are printed only with --show-private-key.

            Examples:
              carchain wallet new --password-file pw.txt
              PK=0x… carchain wallet import --private-key-env PK --password-file pw.txt
              carchain wallet list
              carchain wallet address --keystore ~/.carchain/keystore/UTC--…
              MNEMONIC='test test … junk' carchain wallet derive --mnemonic-env MNEMONIC --index 0
            """,
        subcommands: [WalletNewCommand.self, WalletImportCommand.self, WalletListCommand.self, WalletAddressCommand.self, WalletDeriveCommand.self]
    )
}

/// `--kdf` for new keystores.
enum KDFChoice: String, ExpressibleByArgument, CaseIterable {
    case scrypt, light, pbkdf2

    var kdf: Keystore.KDF {
        switch self {
        case .scrypt: return .standardScrypt
        case .light: return .lightScrypt
        case .pbkdf2: return .pbkdf2(iterations: 262_144)
        }
    }
}

/// Output of commands that store a key.
struct StoredAccount: Encodable {
    let address: String
    let file: String
    let privateKey: String?
}

struct WalletNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Create a random key and store it encrypted in the keystore directory.")

    @OptionGroup var directory: KeystoreDirectoryOption
    @OptionGroup var password: PasswordOptions
    @Option(help: "Key derivation: scrypt (standard, n=2^18), light (n=2^12, development) or pbkdf2.")
    var kdf: KDFChoice = .scrypt
    @Flag(help: "Also print the private key (development only).")
    var showPrivateKey = false
    @OptionGroup var output: JSONOption

    func run() throws {
        let key = PrivateKey.random()
        let pass = try password.read(prompt: "Password for the new key: ", confirm: true)
        let file = try directory.directory.store(try Keystore.encrypt(key, password: pass, kdf: kdf.kdf))
        report(StoredAccount(address: key.address.checksummed, file: file.path, privateKey: showPrivateKey ? Hex.encode(key.rawBytes) : nil), json: output.json)
    }
}

func report(_ account: StoredAccount, json: Bool) {
    if json {
        Output.json(account)
    } else {
        print(account.address)
        print("keystore: \(account.file)")
        if let key = account.privateKey { print("private key: \(key)") }
    }
}

struct WalletImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Encrypt an existing private key (from an environment variable) into the keystore directory.")

    @Option(name: .customLong("private-key-env"), help: ArgumentHelp("The environment variable holding the key as hex.", valueName: "VAR"))
    var privateKeyEnv: String
    @OptionGroup var directory: KeystoreDirectoryOption
    @OptionGroup var password: PasswordOptions
    @Option(help: "Key derivation: scrypt (standard, n=2^18), light (n=2^12, development) or pbkdf2.")
    var kdf: KDFChoice = .scrypt
    @OptionGroup var output: JSONOption

    func run() throws {
        let key = try Secrets.privateKey(fromEnvironment: privateKeyEnv)
        let pass = try password.read(prompt: "Password for \(key.address.checksummed): ", confirm: true)
        let file = try directory.directory.store(try Keystore.encrypt(key, password: pass, kdf: kdf.kdf))
        report(StoredAccount(address: key.address.checksummed, file: file.path, privateKey: nil), json: output.json)
    }
}

struct WalletListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the accounts in the keystore directory (reads addresses, decrypts nothing).")

    @OptionGroup var directory: KeystoreDirectoryOption
    @OptionGroup var output: JSONOption

    struct Entry: Encodable {
        let address: String
        let file: String
    }

    func run() throws {
        let entries = try directory.directory.entries().map { Entry(address: $0.address.checksummed, file: $0.file.path) }
        if output.json {
            Output.json(entries)
        } else {
            for entry in entries { print("\(entry.address)  \(entry.file)") }
        }
    }
}

struct WalletAddressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "address",
        abstract: "Print the address of a keystore file (from its address field, or by decrypting with --verify) or of a key.")

    @Option(help: ArgumentHelp("The keystore file.", valueName: "FILE"))
    var keystore: String?
    @Option(name: .customLong("private-key-env"), help: ArgumentHelp("The environment variable holding a key as hex.", valueName: "VAR"))
    var privateKeyEnv: String?
    @Flag(help: "Decrypt the keystore to check the address (asks for the password).")
    var verify = false
    @OptionGroup var password: PasswordOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if (keystore == nil) == (privateKeyEnv == nil) { throw ValidationError("give exactly one of --keystore FILE and --private-key-env VAR") }
    }

    func run() throws {
        let address: Address
        if let privateKeyEnv {
            address = try Secrets.privateKey(fromEnvironment: privateKeyEnv).address
        } else {
            let url = URL(fileURLWithPath: keystore ?? "")
            let file = try KeystoreDirectory.load(url)
            if verify || file.address == nil {
                address = try file.decrypt(password: try password.read(prompt: "Password for \(url.lastPathComponent): ")).address
            } else {
                address = file.address ?? .zero
            }
        }
        if output.json { Output.json(["address": address.checksummed]) } else { print(address.checksummed) }
    }
}

struct WalletDeriveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "derive",
        abstract: "Derive an account from a BIP-39 mnemonic along BIP-44 m/44'/60'/account'/0/index (or --path).",
        discussion: """
            The mnemonic is read from an environment variable so it stays out of shell history:
              MNEMONIC='test test test test test test test test test test test junk' \\
                carchain wallet derive --mnemonic-env MNEMONIC --index 0
            prints 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266.
            """
    )

    @Option(name: .customLong("mnemonic-env"), help: ArgumentHelp("The environment variable holding the mnemonic.", valueName: "VAR"))
    var mnemonicEnv: String
    @Option(name: .customLong("passphrase-env"), help: ArgumentHelp("An environment variable holding the BIP-39 passphrase.", valueName: "VAR"))
    var passphraseEnv: String?
    @Option(help: "The address index (last path component; \(OptionRanges.walletIndex.text)).")
    var index: UInt32 = 0
    @Option(help: "The BIP-44 account (hardened; \(OptionRanges.walletAccount.text)).")
    var account: UInt32 = 0
    @Option(help: ArgumentHelp("A full derivation path instead, e.g. m/44'/60'/0'/0/5.", valueName: "PATH"))
    var path: String?
    @Flag(help: "Also print the private key (development only).")
    var showPrivateKey = false
    @OptionGroup var output: JSONOption

    func validate() throws {
        try OptionRanges.walletIndex.check(index)
        try OptionRanges.walletAccount.check(account)
    }

    struct Derived: Encodable {
        let address: String
        let path: String
        let privateKey: String?
    }

    func run() throws {
        let mnemonic = try Mnemonic(phrase: try Secrets.text(fromEnvironment: mnemonicEnv, what: "mnemonic"))
        let passphrase = try passphraseEnv.map { try Secrets.text(fromEnvironment: $0, what: "passphrase") } ?? ""
        let derivation = try path.map { try DerivationPath($0) } ?? .ethereum(account: account, index: index)
        let node = try ExtendedPrivateKey(mnemonic: mnemonic, passphrase: passphrase).derive(path: derivation)
        let result = Derived(address: node.address.checksummed, path: derivation.description, privateKey: showPrivateKey ? Hex.encode(node.privateKey.rawBytes) : nil)
        if output.json {
            Output.json(result)
        } else {
            print(result.address)
            if let key = result.privateKey { print("private key: \(key)") }
        }
    }
}
