import EthereumPrimitives

extension DevChain {
    /// The blob base fee of the head block (`eth_blobBaseFee`, as geth computes it): from the head's excess blob
    /// gas under the head's fork; nil when the head has no excess blob gas (before Cancun).
    public func headBlobBaseFee() -> UInt256? {
        blobBaseFee(of: head)
    }
}
