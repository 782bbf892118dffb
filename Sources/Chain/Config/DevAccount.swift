import EthereumCrypto
import EthereumPrimitives

/// A funded genesis account; with its key, the chain signs transactions for it
/// (`eth_sendTransaction`).
public struct DevAccount: Sendable, Equatable {
    /// The address.
    public var address: Address
    /// The key (nil for an account funded at genesis that the chain cannot sign for).
    public var privateKey: PrivateKey?
    /// The genesis balance in wei.
    public var balance: UInt256

    /// An account the chain can sign for.
    public init(privateKey: PrivateKey, balance: UInt256) {
        self.address = privateKey.address
        self.privateKey = privateKey
        self.balance = balance
    }

    /// A funded address without a key.
    public init(address: Address, balance: UInt256) {
        self.address = address
        self.privateKey = nil
        self.balance = balance
    }
}

/// The development accounts: keys derived from a BIP-39 mnemonic at m/44'/60'/0'/0/i (BIP-44).
public enum DevAccounts {
    /// The public test mnemonic of Hardhat, Foundry and Ganache. Its keys are public: never use them
    /// on a real network.
    public static let testMnemonic = "test test test test test test test test test test test junk"

    /// 10,000 ETH in wei.
    public static let defaultBalance = UInt256(10_000) * UInt256(1_000_000_000_000_000_000 as UInt64)

    /// `count` accounts derived from `mnemonic`, each funded with `balance`.
    public static func derive(
        mnemonic: String = testMnemonic, count: Int = 10, balance: UInt256 = defaultBalance
    ) throws(HDWalletError) -> [DevAccount] {
        let master = try ExtendedPrivateKey(mnemonic: try Mnemonic(phrase: mnemonic))
        var accounts: [DevAccount] = []
        for i in 0..<max(0, count) {
            let node = try master.derive(path: .ethereum(index: UInt32(i)))
            accounts.append(DevAccount(privateKey: node.privateKey, balance: balance))
        }
        return accounts
    }

    /// The key of account `index` of `mnemonic` (m/44'/60'/0'/0/index), e.g. dev account 0, the CarChain
    /// manager on a fresh dev chain.
    public static func key(index: UInt32, mnemonic: String = testMnemonic) throws(HDWalletError) -> PrivateKey {
        try ExtendedPrivateKey(mnemonic: try Mnemonic(phrase: mnemonic)).derive(path: .ethereum(index: index)).privateKey
    }

    /// The 10 accounts of ``testMnemonic`` with 10,000 ETH each (derived once).
    public static let standard: [DevAccount] = (try? derive()) ?? []
}
