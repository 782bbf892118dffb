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
        try await run(operation, summary: summary, session: session, transactions: transactions, json: json)
    }

    /// Runs `operation` on a session that already has its signer, and reports it.
    static func run(
        _ operation: CarChainOperation, summary: String, session: NodeSession, transactions: TransactionOptions, json: Bool
    ) async throws {
        let transaction = try await execute(operation, session: session, precheck: !transactions.noPrecheck)
        try TransactionReport(summary: summary, function: operation.functionName, outcome: transaction.outcome).emit(json: json)
    }

    /// Checks (unless `precheck` is false) and sends `operation`; a refusal found before sending is thrown.
    static func execute(_ operation: CarChainOperation, session: NodeSession, precheck: Bool = true) async throws -> CarChainTransaction {
        let contract = try await session.contract()
        guard let sender = session.sender else { throw CLIError("no signer") }
        if precheck {
            let check = await CarChainPrecheck.make(contract: contract, sender: sender.address)
            if let reason = try await check.refusal(of: operation) {
                throw CLIError("\(reason) (checked before sending; nothing was sent)")
            }
        }
        do {
            return try await contract.execute(operation, from: sender.address)
        } catch let error as SendError {
            if let revert = error.revert {
                throw CLIError("\(operation.functionName) would revert: \(CarChainTransactionRunner.reason(revert.data)) (found by eth_estimateGas; nothing was sent)")
            }
            throw error
        }
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
