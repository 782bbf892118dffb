import ArgumentParser
import CarChain
import EthereumPrimitives
import EthereumRPC

/// Runs one CarChain transaction for a command: connect (chain id checked), find the contract, run the
/// checks that can refuse without gas, send, and report the mined result.
enum CarChainTransactionRunner {
    static func run(
        _ operation: CarChainOperation, summary: String, node: NodeOptions, signer: NodeSignerOptions,
        transactions: TransactionOptions, json: Bool
    ) async throws {
        let session = try await NodeSession.sending(node, signer: signer, transactions: transactions)
        let contract = try await session.contract()
        guard let sender = session.sender else { throw CLIError("no signer") }
        if !transactions.noPrecheck {
            let precheck = await CarChainPrecheck.make(contract: contract, sender: sender.address)
            if let reason = try await precheck.refusal(of: operation) {
                throw CLIError("\(reason) (checked before sending; nothing was sent)")
            }
        }
        let transaction: CarChainTransaction
        do {
            transaction = try await contract.execute(operation, from: sender.address)
        } catch let error as SendError {
            if let revert = error.revert {
                throw CLIError("\(operation.functionName) would revert: \(CarChainTransactionRunner.reason(revert.data)) (found by eth_estimateGas; nothing was sent)")
            }
            throw error
        }
        try TransactionReport(summary: summary, function: operation.functionName, outcome: transaction.outcome).emit(json: json)
    }

    /// A revert's reason as a person reads it.
    static func reason(_ data: [UInt8]) -> String {
        switch CarChainError(revertData: data) {
        case .reverted(let reason): return reason
        case .revertedWithoutReason: return "no reason given"
        case let other: return other.description
        }
    }
}
