import CarChain
import EthereumPrimitives
import EthereumRPC

/// A CarChain transaction rehearsed on a fork of a live chain (`carchain rent PLATE --fork-url URL`): the same
/// checks as a real send (``CarChainPrecheck``, then the gas estimate), then the transaction is mined on the
/// in-process fork (``ForkedChain``) as the sender, without its key (``ImpersonatingBackend``), and its gas and fee
/// reported. Nothing is signed and nothing is sent: the remote only ever answers reads.
public enum ForkRehearsal {
    /// Who acts when the command names nobody: the contract's manager, whom CarChain lets act for every user.
    /// `from` given (a signer option's address, a logged-in user's account) acts instead.
    public static func execute(
        _ operation: CarChainOperation, session: ChainSession, from: Address?, settings: SendSettings
    ) async throws -> RehearsalReport.Outcome {
        guard let fork = session.fork else { throw AppError.failed("a rehearsal needs a fork (--fork-url)") }
        let reading = try await session.contract()
        let sender: Address
        if let from { sender = from } else {
            do { sender = try await reading.manager() } catch {
                throw AppError.failed("cannot read the contract's manager on \(fork.description) to act as (\(error)); give a signer option to act as")
            }
        }
        let contract = CarChainContract(
            address: reading.address,
            backend: ImpersonatingBackend(client: session.client, sender: sender, settings: settings, chainID: session.chainID),
            artifact: .project)
        let whereRun = "rehearsed on \(fork.description); nothing was sent"
        if settings.precheck {
            let check = await CarChainPrecheck.make(contract: contract, sender: sender)
            if let reason = try await check.refusal(of: operation) { throw AppError.failed("\(reason) (\(whereRun))") }
        }
        do {
            let transaction = try await contract.execute(operation, from: sender)
            return RehearsalReport.Outcome(transaction: transaction, from: sender, fork: fork)
        } catch let error as RPCError {
            if case .reverted(let revert) = error {
                throw AppError.failed(
                    "\(operation.functionName) would revert: \(CarChainTransactionRunner.reason(revert.data)) (found by eth_estimateGas, \(whereRun))")
            }
            throw error
        }
    }
}

/// What a rehearsal reports: one line for people (what would happen, gas used, fee, where it ran, and that nothing
/// was sent), or one JSON object. A transaction that reverted on the fork is a failure with its decoded reason and
/// the same figures (the CLI then exits 1).
public struct RehearsalReport: Sendable {
    /// A rehearsed transaction.
    public struct Outcome: Sendable {
        public let transaction: CarChainTransaction
        /// Who it was sent as.
        public let from: Address
        public let fork: ForkOrigin
    }

    /// What would happen, e.g. "rented car 6789BBB to uid1".
    public let summary: String
    public let outcome: Outcome

    public init(summary: String, outcome: Outcome) {
        self.summary = summary
        self.outcome = outcome
    }

    private var receipt: TransactionOutcome { outcome.transaction.outcome }

    /// "gas used 40962, fee 0.000040962 ETH (1.000000007 gwei per gas)".
    public var figures: String {
        "gas used \(receipt.gasUsed), fee \(TransactionReport.ether(receipt.fee)) (\(Units.format(receipt.effectiveGasPrice, as: .gwei)) gwei per gas)"
    }

    /// Where it ran and as whom.
    public var origin: String { "rehearsed on \(outcome.fork.description) as \(outcome.from.checksummed); nothing was sent" }

    /// The line for people, on success.
    public var line: String { "would succeed: \(summary): \(figures) (\(origin))" }

    /// Why the transaction reverted on the fork, decoded.
    private var revertReason: String { receipt.revertData.map(CarChainTransactionRunner.reason) ?? "reason not available" }

    /// The one-line error of a transaction that reverted on the fork.
    public var failureMessage: String {
        "\(outcome.transaction.operation.functionName) would revert: \(revertReason) (\(figures); \(origin))"
    }

    /// The report as one JSON object.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("action", .string(outcome.transaction.operation.functionName)),
            ("status", .string(receipt.succeeded ? "success" : "reverted")),
            ("rehearsal", .bool(true)),
            ("forkUrl", .string(outcome.fork.remote)),
            ("forkBlock", .number(String(outcome.fork.block))),
            ("forkBlockHash", .string(outcome.fork.hash.hexString)),
            ("from", .string(outcome.from.checksummed)),
            ("gasUsed", .number(String(receipt.gasUsed))),
            ("effectiveGasPrice", .string(receipt.effectiveGasPrice.description)),
            ("feeWei", .string(receipt.fee.description)),
            ("summary", .string(summary)),
        ]
        if !receipt.succeeded {
            members.append(("reason", .string(revertReason)))
        }
        return .object(members)
    }
}

extension ForkRehearsal {
    /// The logged-in user a rehearsal acts for, from the saved session (not refreshed through the auth service:
    /// nothing is signed), with their account when this machine or the contract knows it.
    public static func loggedInUser(on session: ChainSession) async throws -> (user: LoggedInUser, account: Address?) {
        let paths = AppPaths.current(session.connection)
        guard let saved = try paths.sessions.read() else {
            throw AppError.failed("not logged in: run `carchain login EMAIL`, or name the user (--user USER_ID)")
        }
        let user = LoggedInUser(session: saved, paths: paths)
        return (user, try await user.address(contract: try await session.contract()))
    }
}
