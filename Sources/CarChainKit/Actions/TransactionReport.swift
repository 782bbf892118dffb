import CarChain
import Foundation
import EthereumABI
import EthereumPrimitives
import EthereumRPC

/// How a node command reports a mined transaction: one line for people (what happened, tx hash, block,
/// gas used, fee) or one JSON object with `--json`. A transaction that reverted on chain is reported as a
/// failure with its decoded reason and the same figures, and the command exits 1.
struct TransactionReport {
    /// What happened, e.g. "rented car 6789BBB to uid1".
    let summary: String
    /// The contract function, e.g. "rentCar".
    let function: String
    let outcome: TransactionOutcome

    /// The figures, e.g. "tx 0x…, block 5, gas used 40962, fee 0.000040962 ETH".
    var figures: String {
        "tx \(outcome.transactionHash), block \(outcome.blockNumber), gas used \(outcome.gasUsed), fee \(Self.ether(outcome.fee))"
    }

    /// The revert reason of a failed transaction, as a person reads it.
    var failureReason: String {
        guard let data = outcome.revertData else { return "reason not available" }
        switch RevertReason(data: data) {
        case .error(let message): return message
        case .empty: return "no reason given"
        default: return RevertReason(data: data).description
        }
    }

    /// Prints the report (stdout on success); a failure is thrown as the error line.
    func emit(json: Bool, extra: [(String, JSONValue)] = []) throws {
        if json {
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
            print(JSONValue.object(members).description)
            if !outcome.succeeded { exit(1) }  // the JSON says why; the exit status says it failed
            return
        }
        guard outcome.succeeded else {
            throw CLIError("\(function) reverted on chain: \(failureReason) (\(figures))")
        }
        print("\(summary): \(figures)")
    }

    static func ether(_ wei: UInt256) -> String { Units.format(wei, as: .ether) + " ETH" }
}
