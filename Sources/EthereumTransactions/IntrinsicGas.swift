import EthereumPrimitives

/// The gas a transaction costs before any code runs, by fork.
public enum IntrinsicGas {
    /// Every transaction (Yellow Paper G_transaction).
    public static let base: UInt64 = 21_000
    /// Extra for a contract creation from Homestead (EIP-2: G_txcreate).
    public static let creation: UInt64 = 32_000
    /// Per zero byte of data.
    public static let zeroByte: UInt64 = 4
    /// Per non-zero byte of data before Istanbul.
    public static let nonZeroByteFrontier: UInt64 = 68
    /// Per non-zero byte of data from Istanbul (EIP-2028).
    public static let nonZeroByteIstanbul: UInt64 = 16
    /// Per access-list address (EIP-2930).
    public static let accessListAddress: UInt64 = 2_400
    /// Per access-list storage key (EIP-2930).
    public static let accessListStorageKey: UInt64 = 1_900
    /// Per 32-byte word of initcode from Shanghai (EIP-3860).
    public static let initcodeWord: UInt64 = 2
    /// Per authorization of a set-code transaction (EIP-7702 PER_EMPTY_ACCOUNT_COST).
    public static let authorization: UInt64 = 25_000
    /// Floor cost per calldata token (EIP-7623 TOTAL_COST_FLOOR_PER_TOKEN).
    public static let floorPerToken: UInt64 = 10
    /// The largest initcode a creation may carry from Shanghai (EIP-3860: 2 × the EIP-170 code size limit).
    public static let maxInitcodeSize = 49_152

    /// The intrinsic gas of `transaction` under `fork`, and the EIP-7623 calldata floor (Prague; 0 before).
    ///
    /// The gas limit must cover both: `gasLimit ≥ max(gas, floor)`.
    public static func calculate(for transaction: Transaction, fork: Hardfork) -> (gas: UInt64, floor: UInt64) {
        let data = transaction.data
        // A branch-free count the compiler vectorizes (an initcode is kilobytes, counted on submission and again
        // when the transaction runs).
        let zeros = UInt64(
            data.withUnsafeBufferPointer { bytes in
                var count = 0
                // (b | -b) has its top bit set exactly when b is not zero.
                for byte in bytes { count &+= Int(((byte | (0 &- byte)) >> 7) ^ 1) }
                return count
            })
        let nonZeros = UInt64(data.count) - zeros
        let nonZeroCost = fork >= .istanbul ? nonZeroByteIstanbul : nonZeroByteFrontier

        var gas = base + zeros * zeroByte + nonZeros * nonZeroCost
        if transaction.isContractCreation {
            if fork >= .homestead { gas += creation }
            if fork >= .shanghai { gas += initcodeWord * ((UInt64(data.count) + 31) / 32) }
        }
        let accessList = transaction.accessList
        gas += UInt64(accessList.count) * accessListAddress + UInt64(accessList.storageKeyCount) * accessListStorageKey
        gas += UInt64(transaction.authorizationList.count) * authorization

        var floor: UInt64 = 0
        if fork >= .prague {
            // EIP-7623: tokens = zero bytes + 4 × non-zero bytes.
            floor = base + floorPerToken * (zeros + 4 * nonZeros)
        }
        return (gas, floor)
    }
}

extension Transaction {
    /// The intrinsic gas and calldata floor under `fork`; see ``IntrinsicGas/calculate(for:fork:)``.
    public func intrinsicGas(fork: Hardfork) -> (gas: UInt64, floor: UInt64) {
        IntrinsicGas.calculate(for: self, fork: fork)
    }
}
