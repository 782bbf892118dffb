import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation

/// A command's CarChain transaction: connect, check and send (CarChainKit's ``CarChainTransactionRunner``),
/// then print the report.
enum TransactionCommand {
    /// Connects with the command's options and runs `operation`.
    static func run(
        _ operation: CarChainOperation, summary: String, node: NodeOptions, signer: NodeSignerOptions,
        transactions: TransactionOptions, json: Bool
    ) async throws {
        let settings = try transactions.settings()
        let session = try await ChainSession.sending(try node.connection(), signer: try signer.source(), settings: settings)
        try await run(operation, summary: summary, session: session, settings: settings, json: json)
    }

    /// Runs `operation` on a session that already has its signer, and prints the report.
    static func run(_ operation: CarChainOperation, summary: String, session: ChainSession, settings: SendSettings, json: Bool) async throws {
        let transaction = try await CarChainTransactionRunner.execute(operation, session: session, precheck: settings.precheck)
        try TransactionReport(summary: summary, function: operation.functionName, outcome: transaction.outcome).emit(json: json)
    }
}

extension TransactionReport {
    /// Prints the report (stdout on success). A reverted transaction is thrown as the error line, or, with
    /// `--json`, printed (the JSON says why) and the process exits 1.
    func emit(json: Bool, extra: [(String, JSONValue)] = []) throws {
        if json {
            print(self.json(extra: extra).description)
            if !outcome.succeeded { exit(1) }
            return
        }
        guard outcome.succeeded else { throw CLIError(failureMessage) }
        print("\(summary): \(figures)")
    }
}
