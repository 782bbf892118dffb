import Chain
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// The `eth_` and `net_` methods geth and anvil serve beside the standard set (issue 31): headers, raw transactions by
/// block position, a transaction by sender and nonce, `eth_fillTransaction`, the EIP-7966 synchronous sends and
/// `net_peerCount`. Decoded here and answered below, so the shared ``RPCRequest`` holds them in one case.
public enum EthRequest: Sendable, Equatable {
    /// `eth_getHeaderByNumber` / `eth_getHeaderByHash`: geth's header object (the block without body and size).
    case header(BlockID)
    /// `eth_getRawTransactionByBlockNumberAndIndex` / `…ByBlockHashAndIndex`: a block's transaction, EIP-2718 bytes.
    case rawTransactionByBlockAndIndex(BlockID, UInt64)
    /// `eth_getTransactionBySenderAndNonce` (anvil's).
    case transactionBySenderAndNonce(Address, UInt64)
    /// `eth_fillTransaction`: the unsigned transaction `eth_sendTransaction` would sign.
    case fillTransaction(CallRequest)
    /// `eth_sendTransactionSync` (anvil's) and `eth_sendRawTransactionSync` (EIP-7966): send, then wait for the
    /// receipt at most `timeoutMilliseconds` (nil or 0: the default).
    case sendTransactionSync(CallRequest, timeoutMilliseconds: UInt64?)
    case sendRawTransactionSync([UInt8], timeoutMilliseconds: UInt64?)
    /// `net_peerCount`: a dev node has no peers.
    case peerCount

    /// The request `method` names, nil when it is none of these.
    static func decode(method: String, _ p: RPCParams) throws(JSONRPCErrorObject) -> EthRequest? {
        switch method {
        case "eth_getHeaderByNumber": try p.expect(1, 1); return .header(try p.block(0))
        case "eth_getHeaderByHash": try p.expect(1, 1); return .header(.hash(try p.hash(0)))
        case "eth_getRawTransactionByBlockNumberAndIndex":
            try p.expect(2, 2); return .rawTransactionByBlockAndIndex(try p.block(0), try p.uint64(1))
        case "eth_getRawTransactionByBlockHashAndIndex":
            try p.expect(2, 2); return .rawTransactionByBlockAndIndex(.hash(try p.hash(0)), try p.uint64(1))
        case "eth_getTransactionBySenderAndNonce":
            try p.expect(2, 2); return .transactionBySenderAndNonce(try p.address(0), try p.uint64(1))
        case "eth_fillTransaction": try p.expect(1, 1); return .fillTransaction(try p.callRequest(0))
        case "eth_sendTransactionSync":
            try p.expect(1, 2); return .sendTransactionSync(try p.callRequest(0), timeoutMilliseconds: try timeout(p))
        case "eth_sendRawTransactionSync":
            try p.expect(1, 2); return .sendRawTransactionSync(try p.bytes(0), timeoutMilliseconds: try timeout(p))
        case "net_peerCount": try p.expect(0, 0); return .peerCount
        default: return nil
        }
    }

    /// The optional wait of a synchronous send, in milliseconds (a JSON number, as geth and anvil read it, or a
    /// quantity).
    private static func timeout(_ p: RPCParams) throws(JSONRPCErrorObject) -> UInt64? {
        p.optional(1) == nil ? nil : try p.uint64(1)
    }

}

extension NodeRPCHandler {
    func execute(_ request: EthRequest) async throws(JSONRPCErrorObject) -> JSONValue {
        switch request {
        case .header(let id):
            guard let block = try await onChain({ () async throws(ChainError) in try await chain.block(id) }) else { return .null }
            if case .pending = id { return NodeWire.pending(NodeWire.header(block)) }
            return NodeWire.header(block)
        case .rawTransactionByBlockAndIndex(let id, let index):
            // geth answers "0x" (empty bytes) for an unknown block or an index past its transactions.
            guard let block = try await onChain({ () async throws(ChainError) in try await chain.block(id) }),
                index < UInt64(block.transactions.count)
            else { return NodeWire.data([]) }
            return NodeWire.data(block.transactions[Int(index)].encoded)
        case .transactionBySenderAndNonce(let sender, let nonce):
            guard let (signed, location) = try await onChain({ () async throws(ChainError) in
                try await chain.transaction(sender: sender, nonce: nonce)
            }) else { return .null }
            return try await transactionJSON(signed, location)
        case .fillTransaction(let call):
            let transaction = try await onChain { () async throws(ChainError) in try await chain.fillTransaction(call) }
            let unsigned = SignedTransaction(transaction: transaction, signature: TransactionSignature(v: .zero, r: .zero, s: .zero))
            return .object([("raw", NodeWire.data(unsigned.encoded)), ("tx", NodeWire.signedTransaction(unsigned))])
        case .sendTransactionSync(let call, let timeout):
            let hash = try await onChain { () async throws(ChainError) in try await chain.sendTransaction(call) }
            return try await receiptOnceMined(hash, wait: syncSendWait(timeout))
        case .sendRawTransactionSync(let raw, let timeout):
            let hash = try await onChain { () async throws(ChainError) in try await chain.sendRawTransaction(raw) }
            return try await receiptOnceMined(hash, wait: syncSendWait(timeout))
        case .peerCount: return NodeWire.q(UInt64(0))
        }
    }

    /// The wait a synchronous send's `timeoutMilliseconds` asks for: ``Limits/syncSendWait`` for none or 0, at most
    /// ``Limits/maxSyncSendWait``.
    private func syncSendWait(_ milliseconds: UInt64?) -> Duration {
        guard let milliseconds, milliseconds > 0 else { return limits.syncSendWait }
        let asked = Duration.milliseconds(Int64(clamping: milliseconds))
        return Swift.min(asked, limits.maxSyncSendWait)
    }

    /// A transaction as `eth_getTransactionByHash` writes it (a mined one's effective gas price from its block's base fee).
    func transactionJSON(_ signed: SignedTransaction, _ location: TransactionLocation) async throws(JSONRPCErrorObject) -> JSONValue {
        var baseFee: UInt256?
        if let number = location.blockNumber {
            baseFee = try await onChain { () async throws(ChainError) in try await chain.block(.number(number)) }?.header.baseFeePerGas
        }
        return NodeWire.transaction(signed, location: location, baseFee: baseFee)
    }

    /// The receipt of the pooled transaction `hash` once a block holds it (at once with automine), or EIP-7966's
    /// timeout error (code 4, the hash in `data`) when none did within `wait`; the transaction stays in the pool.
    private func receiptOnceMined(_ hash: Bytes32, wait: Duration) async throws(JSONRPCErrorObject) -> JSONValue {
        let chain = self.chain
        let receipt = await withTaskGroup(of: Receipt?.self) { group in
            group.addTask { await chain.waitForTransaction(hash: hash) }
            group.addTask {
                try? await Task.sleep(for: wait)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let receipt else {
            throw JSONRPCErrorObject(
                code: JSONRPCErrorCode.transactionSyncTimeout,
                message: "The transaction was added to the transaction pool but wasn't processed in \(wait.secondsText)",
                data: NodeWire.hash(hash))
        }
        return NodeWire.receipt(receipt)
    }
}

extension Duration {
    /// Seconds as geth prints a Go duration ("20s", "1.5s").
    fileprivate var secondsText: String {
        let (seconds, attoseconds) = components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if milliseconds == 0 { return "\(seconds)s" }
        var fraction = String(milliseconds)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)s"
    }
}
