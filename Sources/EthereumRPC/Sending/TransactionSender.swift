import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// Sends transactions from one account, the careful way: the node's chain id is checked before anything is
/// signed; the gas limit comes from `eth_estimateGas` with a margin (a revert found there is reported
/// without sending); fees are legacy or EIP-1559; the nonce comes from a ``NonceManager`` so concurrent
/// sends get consecutive nonces; and the receipt is polled with backoff until it arrives (with the
/// requested confirmations) or the time limit passes.
public struct TransactionSender: Sendable {
    /// The node.
    public let client: RPCClient
    /// The account that signs and pays.
    public let signer: any TransactionSigner
    /// Gas, fee and receipt settings.
    public let options: SendOptions
    /// Nonces for concurrent sends (share one manager between senders of the same account).
    public let nonces: NonceManager
    /// The chain id the node reported (equal to ``SendOptions/expectedChainID``).
    public let chainID: UInt64

    /// Checks the node's chain id against `options.expectedChainID` and returns a sender for it; throws
    /// ``SendError/chainIDMismatch(expected:node:endpoint:)`` on a mismatch, before any signing.
    public static func connect(
        client: RPCClient, signer: any TransactionSigner, options: SendOptions = SendOptions(), nonces: NonceManager? = nil
    ) async throws(SendError) -> TransactionSender {
        let nodeChainID: UInt64
        do { nodeChainID = try await client.chainID() } catch { throw .rpc(error) }
        guard nodeChainID == options.expectedChainID else {
            throw .chainIDMismatch(expected: options.expectedChainID, node: nodeChainID, endpoint: client.endpoint)
        }
        return TransactionSender(
            client: client, signer: signer, options: options, nonces: nonces ?? NonceManager(client: client), chainID: nodeChainID)
    }

    private init(client: RPCClient, signer: any TransactionSigner, options: SendOptions, nonces: NonceManager, chainID: UInt64) {
        self.client = client
        self.signer = signer
        self.options = options
        self.nonces = nonces
        self.chainID = chainID
    }

    /// The sending account.
    public var address: Address { signer.address }

    /// Sends and waits for the receipt. A reverted transaction is an outcome (``MinedTransaction/succeeded``
    /// is false), not an error; see ``revertReason(of:)``.
    public func sendAndWait(_ request: TransactionRequest) async throws(SendError) -> MinedTransaction {
        try await waitForReceipt(try await send(request))
    }

    /// Builds, signs and submits a transaction; returns once the node has accepted it.
    public func send(_ request: TransactionRequest) async throws(SendError) -> SentTransaction {
        // Everything that can fail on the node's say-so comes before the nonce is taken.
        let gasLimit = try await self.gasLimit(for: request)
        let fees = try await self.fees()
        let nonce: UInt64
        do { nonce = try await nonces.reserve(address) } catch { throw .rpc(error) }
        let transaction = fees.transaction(chainID: chainID, nonce: nonce, gasLimit: gasLimit, request: request)
        let signed = try signer.sign(transaction)
        do {
            let hash = try await client.sendRawTransaction(signed.encoded)
            return SentTransaction(hash: hash, from: address, nonce: nonce, signed: signed)
        } catch {
            // Refused, or unknown after retries: the nonce may be unused, so read it from the node next time.
            await nonces.reset(address)
            throw .rpc(error)
        }
    }

    /// The transaction ``send(_:)`` would sign for `request` from `from`, built without a key: the node's chain id
    /// checked against `options`, the gas limit (the estimate with its margin), the fees by the same rules, and the
    /// node's pending nonce. For a key held elsewhere — a browser's keystore or wallet — which signs it.
    public static func unsignedTransaction(
        _ request: TransactionRequest, from: Address, client: RPCClient, options: SendOptions
    ) async throws(SendError) -> Transaction {
        let sender = try await connect(client: client, signer: KeylessSigner(address: from), options: options)
        let gasLimit = try await sender.gasLimit(for: request)
        let fees = try await sender.fees()
        let nonce: UInt64
        do { nonce = try await client.transactionCount(of: from, at: .pending) } catch { throw .rpc(error) }
        return fees.transaction(chainID: sender.chainID, nonce: nonce, gasLimit: gasLimit, request: request)
    }

    /// The account of ``unsignedTransaction(_:from:client:options:)``: its address only, nothing to sign with.
    private struct KeylessSigner: TransactionSigner {
        let address: Address
        func sign(_ transaction: Transaction) throws(SendError) -> SignedTransaction {
            throw .signing("no key here: \(address.checksummed)'s transactions are signed elsewhere")
        }
    }

    /// Polls for the receipt with backoff until it is there and has ``SendOptions/confirmations`` blocks, or
    /// the time limit passes.
    public func waitForReceipt(_ sent: SentTransaction) async throws(SendError) -> MinedTransaction {
        let clock = ContinuousClock()
        // Kept within a week (as SendOptions' initializer does, for options changed after it), so the deadline
        // cannot overflow the clock.
        let wait = options.receiptTimeout > 0 ? min(options.receiptTimeout, SendOptions.maxReceiptTimeout) : 0
        let deadline = clock.now + .milliseconds(Int64(wait * 1000))
        var delay = Self.pollDelay(options.pollInterval.initial)
        while true {
            let receipt: RPCReceipt?
            do { receipt = try await client.receipt(sent.hash) } catch { throw .rpc(error) }
            if let receipt {
                try Self.check(receipt, of: sent)
                if options.confirmations <= 1 { return MinedTransaction(sent: sent, receipt: receipt) }
                let head: UInt64
                do { head = try await client.blockNumber() } catch { throw .rpc(error) }
                // Blocks holding the transaction: its own and those after it (head − block + 1), without overflow.
                if head >= receipt.blockNumber, head - receipt.blockNumber >= options.confirmations - 1 {
                    // Read the receipt again: a re-org while waiting may have moved the transaction.
                    let again: RPCReceipt?
                    do { again = try await client.receipt(sent.hash) } catch { throw .rpc(error) }
                    if let again, again.blockHash == receipt.blockHash {
                        try Self.check(again, of: sent)
                        return MinedTransaction(sent: sent, receipt: again)
                    }
                }
            }
            guard clock.now + .milliseconds(Int64(delay * 1000)) < deadline else {
                throw .receiptTimeout(hash: sent.hash, seconds: options.receiptTimeout)
            }
            do { try await Task.sleep(for: .milliseconds(Int64(delay * 1000))) } catch {
                throw .rpc(.transport(.cancelled, method: "eth_getTransactionReceipt", endpoint: client.endpoint))
            }
            delay = Self.pollDelay(min(delay * options.pollInterval.multiplier, options.pollInterval.max))
        }
    }

    /// A poll delay kept between 1 ms and a minute (a NaN or absurd poll interval must not trap or stall).
    static func pollDelay(_ seconds: Double) -> Double {
        seconds >= 0.001 ? min(seconds, 60) : 0.001
    }

    /// Refuses a receipt no honest node sends for this transaction: another transaction's, or one that used more
    /// gas than the transaction allowed (or more than its block's running total).
    static func check(_ receipt: RPCReceipt, of sent: SentTransaction) throws(SendError) {
        func absurd(_ what: String) -> SendError {
            .rpc(.decoding(method: "eth_getTransactionReceipt", what: what))
        }
        guard receipt.transactionHash == sent.hash else {
            throw absurd("the receipt is for transaction \(receipt.transactionHash), not \(sent.hash)")
        }
        let limit = sent.signed.transaction.gasLimit
        guard receipt.gasUsed <= limit else {
            throw absurd("the receipt says the transaction used \(receipt.gasUsed) gas, more than its gas limit \(limit)")
        }
        guard receipt.cumulativeGasUsed >= receipt.gasUsed else {
            throw absurd("the receipt's cumulativeGasUsed \(receipt.cumulativeGasUsed) is below its gasUsed \(receipt.gasUsed)")
        }
    }

    /// Why a mined transaction failed: the call is replayed with `eth_call` on the state before its block
    /// (exact when it was the block's first transaction, as on an automining dev node). Nil when the replay
    /// does not revert (the state it depended on is gone) or the node cannot replay it.
    public func revertReason(of outcome: MinedTransaction) async -> RevertError? {
        guard !outcome.succeeded else { return nil }
        let tx = outcome.sent.signed.transaction
        let call = CallRequest(from: outcome.sent.from, to: tx.to, gas: tx.gasLimit, value: tx.value, data: tx.data)
        return await Self.revertReason(of: call, minedIn: outcome.blockNumber, client: client)
    }

    /// Why a transaction mined in block `blockNumber` failed, for any sender's transaction (e.g. one a wallet sent):
    /// `call` (its fields) replayed with `eth_call` on the state before the block, as ``revertReason(of:)`` does.
    public static func revertReason(of call: CallRequest, minedIn blockNumber: UInt64, client: RPCClient) async -> RevertError? {
        let before: BlockTag = blockNumber > 0 ? .number(blockNumber - 1) : .earliest
        do {
            _ = try await client.call(call, at: before)
            return nil
        } catch {
            if case .reverted(let revert) = error { return revert }
            return nil
        }
    }

    // Gas and fees

    private func gasLimit(for request: TransactionRequest) async throws(SendError) -> UInt64 {
        if let fixed = request.gasLimit { return fixed }
        let margin: Double
        switch options.gasLimit {
        case .fixed(let limit): return limit
        case .estimate(let m): margin = m
        }
        let call = CallRequest(from: address, to: request.to, value: request.value, data: request.data)
        do throws(RPCError) {
            let estimate = try await client.estimateGas(call)
            // Gas is a signed 64-bit counter in the EVM; an estimate past it is no estimate.
            guard estimate <= Self.maxGas else {
                throw RPCError.decoding(method: "eth_estimateGas", what: "the estimate \(estimate) is more gas than any transaction can have (2^63-1)")
            }
            let scaled = (Double(estimate) * (margin >= 1 ? margin : 1)).rounded(.up)
            return scaled >= Double(Self.maxGas) ? Self.maxGas : UInt64(scaled)
        } catch {
            if case .reverted = error, let fallback = options.gasLimitWhenEstimateReverts { return fallback }
            throw .rpc(error)
        }
    }

    /// The most gas a transaction can have: the EVM counts gas in a signed 64-bit integer.
    static let maxGas = UInt64(Int64.max)

    /// The fee fields a transaction gets.
    enum Fees {
        case legacy(gasPrice: UInt256)
        case eip1559(maxFee: UInt256, tip: UInt256)

        func transaction(chainID: UInt64, nonce: UInt64, gasLimit: UInt64, request: TransactionRequest) -> Transaction {
            switch self {
            case .legacy(let gasPrice):
                return .legacy(LegacyTransaction(
                    nonce: nonce, gasPrice: gasPrice, gasLimit: gasLimit, to: request.to, value: request.value,
                    data: request.data, chainId: chainID))
            case .eip1559(let maxFee, let tip):
                return .dynamicFee(DynamicFeeTransaction(
                    chainId: chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gasLimit: gasLimit,
                    to: request.to, value: request.value, data: request.data))
            }
        }
    }

    private func fees() async throws(SendError) -> Fees {
        let mode = options.feeMode ?? FeeMode.defaultMode(chainID: chainID)
        switch mode {
        case .legacy:
            return .legacy(gasPrice: try await legacyGasPrice())
        case .eip1559:
            guard let baseFee = try await latestBaseFee() else {
                throw .invalidOptions("the node's blocks have no base fee (no EIP-1559); use --tx-type legacy")
            }
            return try await dynamicFees(baseFee: baseFee)
        case .auto:
            if let baseFee = try await latestBaseFee() { return try await dynamicFees(baseFee: baseFee) }
            return .legacy(gasPrice: try await legacyGasPrice())
        }
    }

    private func legacyGasPrice() async throws(SendError) -> UInt256 {
        if let price = options.gasPrice { return price }
        do { return try await client.gasPrice() } catch { throw .rpc(error) }
    }

    private func latestBaseFee() async throws(SendError) -> UInt256? {
        do { return try await client.block(.latest)?.baseFeePerGas } catch { throw .rpc(error) }
    }

    private func dynamicFees(baseFee: UInt256) async throws(SendError) -> Fees {
        // No fee given and a suggestion policy set: both fees from eth_feeHistory (FeeSuggestion).
        if let policy = options.feeSuggestion, options.maxFeePerGas == nil, options.maxPriorityFeePerGas == nil {
            let suggestion: FeeSuggestion?
            do { suggestion = try await client.suggestFees(policy) } catch { throw .rpc(error) }
            if let suggestion { return .eip1559(maxFee: suggestion.maxFeePerGas, tip: suggestion.maxPriorityFeePerGas) }
        }
        var tip = options.maxPriorityFeePerGas
        if tip == nil {
            do {
                tip = try await client.maxPriorityFeePerGas()
            } catch {
                // Nodes without the method (-32601): one gwei, the tip most clients default to.
                guard case .jsonRPC(JSONRPCErrorCode.methodNotFound, _, _, _) = error else { throw .rpc(error) }
                tip = UInt256(1_000_000_000)
            }
        }
        let priority = tip ?? .zero
        // Twice the base fee absorbs six full blocks of EIP-1559 increases (12.5% each) before it is too low. The
        // base fee and the tip are the node's answers: a sum past 2^256 means a hostile or broken node.
        let maxFee: UInt256
        if let given = options.maxFeePerGas {
            maxFee = given
        } else {
            let (double, o1) = baseFee.multipliedReportingOverflow(by: UInt256(2))
            let (sum, o2) = double.addingReportingOverflow(priority)
            guard !o1, !o2 else {
                throw .rpc(.decoding(method: "eth_getBlockByNumber", what: "base fee \(baseFee) and tip \(priority) give a fee cap past 2^256 wei"))
            }
            maxFee = sum
        }
        guard maxFee >= priority else {
            throw .invalidOptions("max fee per gas (\(maxFee)) is below the priority fee (\(priority))")
        }
        return .eip1559(maxFee: maxFee, tip: priority)
    }
}
