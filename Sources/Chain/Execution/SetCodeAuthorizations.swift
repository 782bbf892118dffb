import EVM
import EthereumPrimitives
import EthereumTransactions

/// EIP-7702's `set_delegation`: applies a set-code transaction's authorizations, in order, after the
/// sender's nonce is bumped and before the call runs. An authorization that does not hold (another chain,
/// a nonce at 2^64 − 1, a bad or high-s signature, an authority with real code or another nonce) is skipped
/// and the transaction goes on; the changes made stay even when the call then fails.
enum SetCodeAuthorizations {
    /// What a valid authorization for an account already in the state refunds: it was charged
    /// PER_EMPTY_ACCOUNT_COST (25,000) in intrinsic gas but costs only PER_AUTH_BASE_COST (12,500).
    static let existingAccountRefund: Int64 = 25_000 - 12_500

    /// Applies `list` on `journaled` for a chain with id `chainID` and returns the refund earned.
    static func apply(_ list: [SignedAuthorization], in journaled: inout JournaledState, chainID: UInt256) -> Int64 {
        var refund: Int64 = 0
        for signed in list {
            guard signed.chainId.isZero || signed.chainId == chainID else { continue }
            guard signed.nonce < UInt64.max else { continue }  // EIP-2681: the bumped nonce must fit
            guard let authority = try? signed.authority() else { continue }
            journaled.prewarm(authority)
            let code = journaled.code(at: authority)
            guard code.isEmpty || Delegation.target(of: code) != nil else { continue }
            guard journaled.nonce(of: authority) == signed.nonce else { continue }
            if journaled.accountExists(authority) { refund += existingAccountRefund }
            // Delegating to the zero address clears the delegation (the code hash goes back to empty).
            journaled.setCode(authority, signed.address == .zero ? [] : Delegation.designator(to: signed.address))
            journaled.setNonce(authority, signed.nonce + 1)
        }
        return refund
    }
}
