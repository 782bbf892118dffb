import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// A transaction accepted by the node: its hash, the nonce it took and what was signed.
public struct SentTransaction: Sendable, Hashable {
    public var hash: Bytes32
    public var from: Address
    public var nonce: UInt64
    /// The signed transaction as sent.
    public var signed: SignedTransaction
}

/// A mined transaction: the receipt and what a person wants to read from it.
public struct MinedTransaction: Sendable, Hashable {
    public var sent: SentTransaction
    public var receipt: RPCReceipt

    /// True when the execution succeeded (receipt status 1).
    public var succeeded: Bool { receipt.succeeded }
    public var hash: Bytes32 { sent.hash }
    public var blockNumber: UInt64 { receipt.blockNumber }
    public var gasUsed: UInt64 { receipt.gasUsed }

    /// Wei paid: gas used × effective gas price (from the receipt, or the signed price when the node omits it).
    /// Saturates at 2^256 − 1 for a signed price so large the product overflows (the node refuses such a
    /// transaction for lack of funds anyway; the receipt's own price is checked when it is read).
    public var feePaid: UInt256 {
        if let fee = receipt.feePaid { return fee }
        let price = sent.signed.transaction.gasPrice ?? sent.signed.transaction.maxFeePerGas
        let (fee, overflow) = price.multipliedReportingOverflow(by: UInt256(receipt.gasUsed))
        return overflow ? .max : fee
    }

    /// The created contract, for a deployment.
    public var contractAddress: Address? { receipt.contractAddress }
}
