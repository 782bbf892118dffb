import EthereumPrimitives
import EthereumTransactions

/// Why an `eth_simulateV1` request failed as a whole, with the JSON-RPC code the execution-apis spec gives each
/// reason (the -38xxx range) and geth's wording. A call that reverts or halts does not fail the request: it is a
/// result (``SimulatedCallResult/error``).
public enum SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Bad input the decoder could not see (no blocks, both `state` and `stateDiff`, …): -32602 or -32000.
    case invalidInput(code: Int, String)
    /// A block number not above the previous block's (-38020).
    case blockNumberNotIncreasing(UInt64, previous: UInt64)
    /// A timestamp not above the previous block's (-38021).
    case blockTimestampNotIncreasing(UInt64, previous: UInt64)
    /// More blocks or calls than a request may hold (-38026).
    case limitExceeded(String)
    /// A call asks for more gas than its block has left (-38015).
    case blockGasLimitReached(remaining: UInt64, required: UInt64)
    /// A call is not a valid transaction in its block (nonce, fees, funds, intrinsic gas…), with the spec's code
    /// for the reason.
    case invalidTransaction(code: Int, String)
    /// A state override the node cannot apply (-32000).
    case invalidOverride(String)
    /// An error of the chain itself: an unknown base block, the time limit, storage.
    case chain(ChainError)

    /// The JSON-RPC error code.
    public var rpcCode: Int {
        switch self {
        case .invalidInput(let code, _), .invalidTransaction(let code, _): return code
        case .blockNumberNotIncreasing: return -38020
        case .blockTimestampNotIncreasing: return -38021
        case .limitExceeded: return -38026
        case .blockGasLimitReached: return -38015
        case .invalidOverride: return -32000
        case .chain(let error): return error.rpcCode
        }
    }

    public var description: String {
        switch self {
        case .invalidInput(_, let why), .invalidTransaction(_, let why), .invalidOverride(let why), .limitExceeded(let why):
            return why
        case .blockNumberNotIncreasing(let number, let previous):
            return "block numbers must be in order: \(number) <= \(previous)"
        case .blockTimestampNotIncreasing(let time, let previous):
            return "block timestamps must be in order: \(time) <= \(previous)"
        case .blockGasLimitReached(let remaining, let required):
            return "block gas limit reached: remaining: \(remaining), required: \(required)"
        case .chain(let error):
            // geth answers an unknown base block with these words alone.
            if case .unknownBlock = error { return "header not found" }
            return error.description
        }
    }

    /// The spec's code for a call that is not a valid transaction (geth's `txValidationError`), in geth's words:
    /// "err: <why> (supplied gas <the call's gas>)", <why> as geth's state transition writes it (the sender checksummed,
    /// the figures it compared: nonces, fee cap and base fee, balance and what the call needs, intrinsic gas).
    /// `balance` and `nonce` are the sender's before the call (a refused call changes nothing).
    static func transaction(
        _ error: TransactionValidationError, sender: Address, transaction tx: Transaction, baseFee: UInt256,
        balance: UInt256, nonce: UInt64
    ) -> SimulationError {
        let code: Int
        switch error {
        case .nonceTooHigh: code = -38011
        case .nonceTooLow: code = -38010
        case .senderNotEOA: code = -38024
        case .tipAboveFeeCap: code = -32602
        case .feeCapBelowBaseFee: code = -38012
        case .insufficientFunds: code = -38014
        case .intrinsicGasTooLow: code = -38013
        case .initCodeTooLarge: code = -38025
        default: code = -32603
        }
        let address = sender.checksummed
        let why: String
        switch error {
        case .nonceTooHigh(let expected, let got): why = "nonce too high: address \(address), tx: \(got) state: \(expected)"
        case .nonceTooLow(let expected, let got): why = "nonce too low: address \(address), tx: \(got) state: \(expected)"
        case .nonceMax: why = "nonce has max value: address \(address), nonce: \(nonce)"
        case .tipAboveFeeCap:
            why = "max priority fee per gas higher than max fee per gas: address \(address), "
                + "maxPriorityFeePerGas: \(tx.maxPriorityFeePerGas), maxFeePerGas: \(tx.maxFeePerGas)"
        case .feeCapBelowBaseFee:
            why = "max fee per gas less than block base fee: address \(address), maxFeePerGas: \(tx.maxFeePerGas), baseFee: \(baseFee)"
        case .insufficientFunds:
            // geth's buyGas compares the balance with gas × fee cap + value (+ blob gas × blob fee cap); a balance that
            // covers that but not the value after paying for gas fails its transfer check instead.
            let (gasCost, o1) = UInt256(tx.gasLimit).multipliedReportingOverflow(by: tx.maxFeePerGas)
            let (blobCost, o2) = UInt256(tx.blobGas).multipliedReportingOverflow(by: tx.maxFeePerBlobGas ?? .zero)
            let (partial, o3) = gasCost.addingReportingOverflow(tx.value)
            let (want, o4) = partial.addingReportingOverflow(blobCost)
            if o1 || o2 || o3 || o4 || balance < want {
                why = o1 || o2 || o3 || o4
                    ? "insufficient funds for gas * price + value: address \(address)"
                    : "insufficient funds for gas * price + value: address \(address) have \(balance) want \(want)"
            } else {
                why = "insufficient funds for transfer: address \(address)"
            }
        case .intrinsicGasTooLow(let intrinsic, let limit): why = "intrinsic gas too low: have \(limit), want \(intrinsic)"
        default: why = error.description
        }
        return .invalidTransaction(code: code, "err: \(why) (supplied gas \(tx.gasLimit))")
    }
}
