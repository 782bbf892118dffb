import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire

/// A ``ContractBackend`` over any JSON-RPC node (HTTP, or any `RPCTransport`, e.g. an in-process node): calls are
/// `eth_call`, estimates `eth_estimateGas`, logs `eth_getLogs`. Transactions are signed here with a local key
/// through a `TransactionSender` (chain id checked, gas estimated with a margin, fees, nonces, receipt and
/// confirmations), or by the node for one of its own accounts (`eth_sendTransaction`, then the receipt is polled);
/// a read-only backend refuses to send.
///
/// A failed transaction's revert data is recovered by replaying it with `eth_call` on the state before its block
/// (exact on an automining node, where it was the block's first transaction).
public struct RPCContractBackend: RPCReadingBackend {
    /// Who signs transactions.
    public enum Signing: Sendable {
        /// Nobody: the backend only reads.
        case none
        /// A local key, through a sender (which holds the key, the fee and receipt settings and the nonces).
        case local(TransactionSender)
        /// The node, for one of its accounts (`eth_sendTransaction`); receipts are polled under `options`.
        case node(account: Address, options: SendOptions)
    }

    /// The node.
    public let client: RPCClient
    /// Who signs.
    public let signing: Signing
    /// Where event streams (``Contract/stream(_:options:)-(EventFilter<E>,_)``) learn of new blocks:
    /// `eth_subscribe` over a WebSocket (`RPCSubscriptions.webSocket(url:timeout:reconnect:)`); nil polls ``client``
    /// every second.
    public var subscriptions: RPCSubscriptions?

    /// A backend signing as `signing` says.
    public init(client: RPCClient, signing: Signing) {
        self.client = client
        self.signing = signing
    }

    /// A backend signing with `sender`'s key (nil: read-only).
    public init(client: RPCClient, sender: TransactionSender?) {
        self.init(client: client, signing: sender.map { .local($0) } ?? .none)
    }

    /// The local sender, when transactions are signed here.
    public var sender: TransactionSender? {
        if case .local(let sender) = signing { return sender }
        return nil
    }

    public var defaultSender: Address? {
        switch signing {
        case .none: return nil
        case .local(let sender): return sender.address
        case .node(let account, _): return account
        }
    }

    public func send(_ request: TransactionRequest, from: Address?) async throws -> TransactionOutcome {
        switch signing {
        case .none:
            throw RPCContractBackendError.readOnly
        case .local(let sender):
            if let from, from != sender.address { throw RPCContractBackendError.notTheSigner(requested: from, signer: sender.address) }
            // A revert found by the sender's gas estimate comes out as its SendError (which carries the revert).
            let mined = try await sender.sendAndWait(request)
            return await Self.outcome(of: mined, sender: sender)
        case .node(let account, let options):
            return try await sendFromNodeAccount(request, from: from ?? account, options: options)
        }
    }

    /// The outcome of a transaction a `TransactionSender` mined; a failed one's revert data is recovered by replaying it.
    public static func outcome(of mined: MinedTransaction, sender: TransactionSender) async -> TransactionOutcome {
        let revertData = mined.succeeded ? nil : await sender.revertReason(of: mined)?.data
        return outcome(of: mined.receipt, revertData: revertData, fallbackPrice: mined.sent.signed.transaction.gasPrice)
    }

    /// The outcome a receipt describes.
    public static func outcome(of receipt: RPCReceipt, revertData: [UInt8]?, fallbackPrice: UInt256? = nil) -> TransactionOutcome {
        TransactionOutcome(
            succeeded: receipt.succeeded, transactionHash: receipt.transactionHash, blockNumber: receipt.blockNumber,
            gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.effectiveGasPrice ?? fallbackPrice ?? .zero,
            logs: receipt.logs.map(TransactionLog.init), revertData: revertData,
            contractAddress: receipt.succeeded ? receipt.contractAddress : nil)
    }

    // MARK: Node-signed

    private func sendFromNodeAccount(_ request: TransactionRequest, from: Address, options: SendOptions) async throws -> TransactionOutcome {
        let nodeChain = try await client.chainID()
        guard nodeChain == options.expectedChainID else {
            throw SendError.chainIDMismatch(expected: options.expectedChainID, node: nodeChain, endpoint: client.endpoint)
        }
        var call = CallRequest(from: from, to: request.to, gas: request.gasLimit, value: request.value, data: request.data)
        if call.gas == nil, case .fixed(let limit) = options.gasLimit { call.gas = limit }
        if call.gas == nil {
            // Estimated here, with the sender's margin, so that a revert is reported before anything is sent.
            switch try await estimateGas(call, at: .latest) {
            case .reverted(let data):
                throw RevertedBeforeSending(data: data, message: RevertReason(data: data).description)
            case .gas(let gas):
                let margin: Double
                if case .estimate(let m) = options.gasLimit { margin = max(1, m) } else { margin = 1 }
                let scaled = (Double(gas) * margin).rounded(.up)
                call.gas = scaled >= Double(Int64.max) ? UInt64(Int64.max) : UInt64(scaled)
            }
        }
        let hash = try await client.request("eth_sendTransaction", [call.json]).wireBytes32("transaction hash")
        let receipt = try await waitForReceipt(hash, options: options)
        var revertData: [UInt8]?
        if !receipt.succeeded {
            let replay = CallRequest(from: from, to: request.to, gas: call.gas, value: request.value, data: request.data)
            revertData = await TransactionSender.revertReason(of: replay, minedIn: receipt.blockNumber, client: client)?.data
        }
        return Self.outcome(of: receipt, revertData: revertData)
    }

    /// Polls for a receipt (and its confirmations) until `options.receiptTimeout` passes.
    private func waitForReceipt(_ hash: Bytes32, options: SendOptions) async throws -> RPCReceipt {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(options.receiptTimeout * 1000))
        var delay = max(0.001, min(options.pollInterval.initial, 60))
        while true {
            if let receipt = try await client.receipt(hash) {
                if options.confirmations <= 1 { return receipt }
                let head = try await client.blockNumber()
                if head >= receipt.blockNumber, head - receipt.blockNumber >= options.confirmations - 1 { return receipt }
            }
            guard clock.now + .milliseconds(Int64(delay * 1000)) < deadline else {
                throw SendError.receiptTimeout(hash: hash, seconds: options.receiptTimeout)
            }
            try await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
            delay = max(0.001, min(delay * options.pollInterval.multiplier, options.pollInterval.max, 60))
        }
    }
}

/// A ``ContractBackend`` whose reads — chain id, calls, estimates, logs, code — go to a JSON-RPC node; a conformer
/// provides only ``ContractBackend/send(_:from:)`` (and its default sender). ``RPCContractBackend`` is one; so are
/// backends that sign differently over the same node (impersonation on a fork, per-account senders).
public protocol RPCReadingBackend: LogStreamingBackend {
    /// The node.
    var client: RPCClient { get }
}

extension RPCReadingBackend {
    public func chainID() async throws -> UInt64 { try await client.chainID() }

    public func call(_ request: CallRequest, at block: BlockTag) async throws -> CallOutcome {
        do {
            return .returned(try await client.call(request, at: block))
        } catch {
            if case .reverted(let revert) = error { return .reverted(revert.data) }
            throw error
        }
    }

    public func estimateGas(_ request: CallRequest, at block: BlockTag) async throws -> GasEstimate {
        do {
            // Nodes treat an absent block as "latest"; some refuse the second parameter, so it goes only when needed.
            return .gas(try await client.estimateGas(request, at: block == .latest ? nil : block))
        } catch {
            if case .reverted(let revert) = error { return .reverted(revert.data) }
            throw error
        }
    }

    public func logs(_ filter: LogFilter) async throws -> [RPCLog] { try await client.logs(filter) }

    /// Event streams poll the node every second (``RPCContractBackend`` can use `eth_subscribe` instead).
    public func logStream(_ filter: LogFilter, options: EventStreamOptions) -> AsyncThrowingStream<RPCLog, any Error> {
        RPCSubscriptions(source: .polling(client)).logs(filter, fromBlock: options.fromBlock, confirmations: options.confirmations)
    }

    public func code(at address: Address, block: BlockTag) async throws -> [UInt8] {
        try await client.code(at: address, block: block)
    }

}

extension RPCContractBackend {
    /// The same backend, its event streams over `subscriptions`.
    public func streaming(over subscriptions: RPCSubscriptions) -> RPCContractBackend {
        var copy = self
        copy.subscriptions = subscriptions
        return copy
    }

    public func logStream(_ filter: LogFilter, options: EventStreamOptions) -> AsyncThrowingStream<RPCLog, any Error> {
        let subscriptions = self.subscriptions ?? RPCSubscriptions(source: .polling(client))
        return subscriptions.logs(filter, fromBlock: options.fromBlock, confirmations: options.confirmations)
    }
}

/// Why an ``RPCContractBackend`` refused to send.
public enum RPCContractBackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The backend has no signer.
    case readOnly
    /// A sender other than the signer's account was asked for.
    case notTheSigner(requested: Address, signer: Address)

    public var description: String {
        switch self {
        case .readOnly: return "this connection has no signer: it can call, not send"
        case .notTheSigner(let requested, let signer):
            return "cannot send from \(requested.checksummed): the signer is \(signer.checksummed)"
        }
    }
}
