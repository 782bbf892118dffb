import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions

/// Signs transactions for one account. The sender asks for a signature only after the node's chain id has
/// been checked and every field is final.
public protocol TransactionSigner: Sendable {
    /// The account that signs (and pays).
    var address: Address { get }

    /// Signs a complete transaction.
    func sign(_ transaction: Transaction) throws(SendError) -> SignedTransaction
}

/// A signer holding a private key in memory (from `--private-key-env`, a keystore, or a dev account).
public struct PrivateKeySigner: TransactionSigner {
    private let key: PrivateKey
    /// The key's address.
    public let address: Address

    /// A signer for `key`.
    public init(key: PrivateKey) {
        self.key = key
        self.address = key.address
    }

    /// Signs with the key (RFC 6979, low s).
    public func sign(_ transaction: Transaction) throws(SendError) -> SignedTransaction {
        transaction.sign(with: key)
    }
}
