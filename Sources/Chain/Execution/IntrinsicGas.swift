import EVM
import EthereumPrimitives

// TEMPORARY until EthereumTransactions (branch h-tx) lands with its per-fork intrinsic gas.

/// The gas a transaction pays before any code runs (Yellow Paper g₀).
enum IntrinsicGas {
    /// 21,000 (53,000 for a creation from Homestead, EIP-2); 4 per zero data byte and 68 per
    /// other (16 from Istanbul, EIP-2028); 2,400 per access-list address and 1,900 per key
    /// (EIP-2930); 2 per init-code word for creations from Shanghai (EIP-3860).
    static func of(_ tx: ExecutableTransaction, fork: Hardfork) -> UInt64 {
        var gas: UInt64 = tx.to == nil && fork >= .homestead ? 53_000 : 21_000
        let nonZero = UInt64(tx.data.reduce(0) { $0 + ($1 == 0 ? 0 : 1) })
        let zero = UInt64(tx.data.count) - nonZero
        gas += zero * 4 + nonZero * (fork >= .istanbul ? 16 : 68)
        if tx.to == nil && fork >= .shanghai { gas += UInt64((tx.data.count + 31) / 32) * 2 }
        for entry in tx.accessList { gas += 2_400 + 1_900 * UInt64(entry.storageKeys.count) }
        return gas
    }
}
