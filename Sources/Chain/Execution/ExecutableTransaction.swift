import EVM
import EthereumPrimitives
import EthereumTransactions

/// A transaction ready to execute: the envelope and its sender (recovered by the caller, e.g. with
/// `SignedTransaction.validate(for:chainID:)`, or known, e.g. for an impersonated account).
public struct ExecutableTransaction: Sendable, Equatable {
    /// The transaction.
    public var transaction: Transaction
    /// The sender.
    public var sender: Address

    /// Pairs a transaction with its sender.
    public init(_ transaction: Transaction, sender: Address) {
        self.transaction = transaction
        self.sender = sender
    }

    /// A signed transaction with its recovered sender.
    public init(_ signed: SignedTransaction, sender: Address) {
        self.init(signed.transaction, sender: sender)
    }
}
