import EVM
import EthereumPrimitives

extension BlockOverrides {
    /// Sets the fields of a call's block environment that these overrides name (`debug_traceCall`'s
    /// `blockOverrides`, as geth applies them): number, difficulty, time, gas limit, fee recipient, PREVRANDAO, base
    /// fee and blob base fee. `beaconRoot` and `withdrawals` shape a block, not a call: refused, as geth refuses them.
    func apply(to environment: inout BlockEnvironment) throws(ChainError) {
        if beaconRoot != nil { throw .invalidParams("block override \"beaconRoot\" is not supported for this RPC method") }
        if withdrawals != nil { throw .invalidParams("block override \"withdrawals\" is not supported for this RPC method") }
        if let number { environment.number = number }
        if let difficulty { environment.difficulty = difficulty }
        if let time { environment.timestamp = time }
        if let gasLimit { environment.gasLimit = gasLimit }
        if let feeRecipient { environment.coinbase = feeRecipient }
        if let prevRandao { environment.prevRandao = prevRandao }
        if let baseFeePerGas { environment.baseFee = baseFeePerGas }
        if let blobBaseFee { environment.blobBaseFeeOverride = blobBaseFee }
    }
}
