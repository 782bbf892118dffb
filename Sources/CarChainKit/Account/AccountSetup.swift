import CarChain
import Chain
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC

/// Puts a new auth user on chain: funds their account from dev account 0 on a development chain (elsewhere says
/// how much ETH it needs), then registers their uid with `registerNewUser`, sent from their own account so the
/// id is bound to it. Shared by `signup` and `login` (which finishes a signup that could not register).
public enum AccountSetup {
    /// Gas budgeted for a new user: registration (~115k) plus a top-up, a rental and a return.
    public static let gasBudget: UInt64 = 400_000
    /// 1 ETH in wei: what a dev chain gives a new account.
    public static let oneEther = UInt256(1_000_000_000_000_000_000 as UInt64)

    /// What happened, for the command's output.
    public struct Result: Sendable {
        public var lines: [String] = []
        public var json: [(String, JSONValue)] = []
        /// True when the uid is registered on chain at the end.
        public var registered = false
        /// Gas used by the transactions sent (function or "transfer", gas).
        public var gas: [(String, UInt64)] = []
    }

    /// Funds (on a development chain) and registers `uid`, signed by `key`; says what it did or what is missing.
    public static func ensureOnChain(
        uid: String, email: String, key: PrivateKey, session: ChainSession, settings: SendSettings, fund: UInt256
    ) async throws -> Result {
        var result = Result()
        let address = key.address
        guard let contract = try await session.contractIfDeployed() else {
            result.lines.append("no CarChain contract on chain \(session.chainID) yet: `carchain login \(email)` registers you once one is deployed")
            result.json.append(("registration", .string("no contract")))
            return result
        }
        if try await contract.isUserRegistered(uid) {
            result.registered = true
            result.json.append(("registration", .string("already registered")))
            return result
        }
        let funding = try await fundForRegistration(address: address, session: session, settings: settings, fund: fund)
        result.lines += funding.lines
        result.json += funding.json
        result.gas += funding.gas
        if funding.missing != nil {
            if !result.lines.isEmpty { result.lines[result.lines.count - 1] += ", then run `carchain login \(email)`" }
            return result
        }
        let user = try await session.signing(with: key, settings: settings)
        let transaction = try await CarChainTransactionRunner.execute(.registerNewUser(userId: uid), session: user)
        let report = TransactionReport(summary: "registered \(uid) on chain \(session.chainID)", function: "registerNewUser", outcome: transaction.outcome)
        guard transaction.outcome.succeeded else {
            throw AppError.failed("registerNewUser reverted on chain: \(report.failureReason) (\(report.figures))")
        }
        result.lines.append("\(report.summary) from \(address.checksummed): \(report.figures)")
        result.json.append(("registrationTransaction", .string(transaction.outcome.transactionHash.hexString)))
        result.registered = true
        result.gas.append(("registerNewUser", transaction.outcome.gasUsed))
        return result
    }

    /// What ``fundForRegistration(address:session:settings:fund:)`` did.
    public struct Funding: Sendable {
        public var lines: [String] = []
        public var json: [(String, JSONValue)] = []
        public var gas: [(String, UInt64)] = []
        /// Wei still needed for ``gasBudget`` when the chain is not a development chain (nil: enough).
        public var missing: UInt256?
    }

    /// Makes sure `address` can pay ``gasBudget`` at the current gas price: on a development chain dev account 0
    /// sends it `fund` when it has less; elsewhere the result says how much is missing. Also for an account a wallet
    /// holds (the web app's EIP-1193 path), which then registers itself.
    public static func fundForRegistration(
        address: Address, session: ChainSession, settings: SendSettings, fund: UInt256
    ) async throws -> Funding {
        var result = Funding()
        let gasPrice = try await session.client.gasPrice()
        // The gas price is the node's answer: a product past 2^256 is a hostile or broken node, not a real cost.
        let (needed, overflow) = gasPrice.multipliedReportingOverflow(by: UInt256(gasBudget))
        guard !overflow else {
            throw AppError.failed("the node's gas price \(gasPrice) wei is absurd: \(gasBudget) gas at that price exceeds 2^256 wei")
        }
        let balance = try await session.client.balance(of: address)
        guard balance < needed else { return result }
        guard await session.isDevelopmentChain() else {
            result.lines.append(
                "\(address.checksummed) needs ETH for gas before it can register: send at least \(TransactionReport.ether(needed - balance)) "
                    + "(\(gasBudget) gas at the current gas price)")
            result.json.append(("registration", .string("needs funding")))
            result.json.append(("neededWei", .string((needed - balance).description)))
            result.missing = needed - balance
            return result
        }
        let funder = try await session.signing(with: try DevAccounts.key(index: 0), settings: settings)
        guard let sender = funder.sender else { throw AppError.failed("no funder") }
        let mined = try await sender.sendAndWait(TransactionRequest(to: address, value: fund))
        guard mined.succeeded else { throw AppError.failed("funding \(address.checksummed) failed (tx \(mined.hash))") }
        result.lines.append("funded \(address.checksummed) with \(TransactionReport.ether(fund)) from dev account 0 (\(sender.address.checksummed)): tx \(mined.hash), block \(mined.blockNumber)")
        result.json.append(("fundingTransaction", .string(mined.hash.hexString)))
        result.gas.append(("transfer (funding)", mined.gasUsed))
        return result
    }
}
