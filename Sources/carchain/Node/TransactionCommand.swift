import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation

/// A command's CarChain transaction: connect, check and send (CarChainKit's ``CarChainTransactionRunner``),
/// then print the report.
enum TransactionCommand {
    /// Connects with the command's options and runs `operation`; with `--fork-url`, rehearses it on the fork as the
    /// signer option's address (else the contract's manager) instead.
    static func run(
        _ operation: CarChainOperation, summary: String, node: NodeOptions, signer: NodeSignerOptions,
        transactions: TransactionOptions, fork: ForkOptions, json: Bool
    ) async throws {
        let settings = try transactions.settings()
        if fork.isForking {
            let session = try await ChainSession.reading(try fork.connection(node))
            try await rehearse(operation, summary: summary, session: session, from: try signer.source().address(), settings: settings, json: json)
            return
        }
        let session = try await ChainSession.sending(try node.connection(), signer: try signer.source(), settings: settings)
        try await run(operation, summary: summary, session: session, settings: settings, json: json)
    }

    /// Rehearses `operation` on a fork session (CarChainKit's ForkRehearsal) as `from` (nil: the contract's manager),
    /// and prints what would happen.
    static func rehearse(
        _ operation: CarChainOperation, summary: String, session: ChainSession, from: Address?, settings: SendSettings, json: Bool
    ) async throws {
        let outcome = try await ForkRehearsal.execute(operation, session: session, from: from, settings: settings)
        try RehearsalReport(summary: summary, outcome: outcome).emit(json: json)
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

extension RehearsalReport {
    /// Prints the report (stdout when the transaction would succeed). One that would revert is thrown as the error
    /// line, or, with `--json`, printed (the JSON says why) and the process exits 1.
    func emit(json: Bool) throws {
        if json {
            print(self.json.description)
            if !outcome.transaction.outcome.succeeded { exit(1) }
            return
        }
        guard outcome.transaction.outcome.succeeded else { throw CLIError(failureMessage) }
        print(line)
    }
}
