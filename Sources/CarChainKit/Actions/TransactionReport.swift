import CarChain
import EthereumABI
import EthereumPrimitives

/// How a mined transaction is reported: one line for people (what happened, tx hash, block, gas used, fee),
/// or one JSON object. A transaction that reverted on chain is a failure with its decoded reason and the
/// same figures (the CLI then exits 1).
public struct TransactionReport: Sendable {
    /// What happened, e.g. "rented car 6789BBB to uid1".
    public let summary: String
    /// The contract function, e.g. "rentCar".
    public let function: String
    public let outcome: TransactionOutcome

    public init(summary: String, function: String, outcome: TransactionOutcome) {
        self.summary = summary
        self.function = function
        self.outcome = outcome
    }

    /// The figures, e.g. "tx 0x…, block 5, gas used 40962, fee 0.000040962 ETH".
    public var figures: String {
        "tx \(outcome.transactionHash), block \(outcome.blockNumber), gas used \(outcome.gasUsed), fee \(Self.ether(outcome.fee))"
    }

    /// The revert reason of a failed transaction, as a person reads it.
    public var failureReason: String {
        guard let data = outcome.revertData else { return "reason not available" }
        switch RevertReason(data: data) {
        case .error(let message): return message
        case .empty: return "no reason given"
        default: return RevertReason(data: data).description
        }
    }

    /// The report as one JSON object, with `extra` members appended.
    public func json(extra: [(String, JSONValue)] = []) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("action", .string(function)),
            ("status", .string(outcome.succeeded ? "success" : "reverted")),
            ("transactionHash", .string(outcome.transactionHash.hexString)),
            ("blockNumber", .number(String(outcome.blockNumber))),
            ("gasUsed", .number(String(outcome.gasUsed))),
            ("effectiveGasPrice", .string(outcome.effectiveGasPrice.description)),
            ("feeWei", .string(outcome.fee.description)),
            ("summary", .string(summary)),
        ]
        if !outcome.succeeded { members.append(("reason", .string(failureReason))) }
        members += extra.map { (key: $0.0, value: $0.1) }
        return .object(members)
    }

    /// The one-line error of a reverted transaction.
    public var failureMessage: String { "\(function) reverted on chain: \(failureReason) (\(figures))" }

    /// Wei as ETH, e.g. "0.000040962 ETH".
    public static func ether(_ wei: UInt256) -> String { Units.format(wei, as: .ether) + " ETH" }
}
