import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// Typed Ethereum methods; each sends the matching ``RPCMethods`` call.
extension RPCClient {
    /// `eth_chainId`.
    public func chainID() async throws(RPCError) -> UInt64 { try await send(RPCMethods.chainID()) }
    /// `net_version`.
    public func netVersion() async throws(RPCError) -> String { try await send(RPCMethods.netVersion()) }
    /// `web3_clientVersion`.
    public func clientVersion() async throws(RPCError) -> String { try await send(RPCMethods.clientVersion()) }
    /// `eth_blockNumber`.
    public func blockNumber() async throws(RPCError) -> UInt64 { try await send(RPCMethods.blockNumber()) }
    /// `eth_accounts`.
    public func accounts() async throws(RPCError) -> [Address] { try await send(RPCMethods.accounts()) }

    /// `eth_getBalance`.
    public func balance(of address: Address, at block: BlockTag = .latest) async throws(RPCError) -> UInt256 {
        try await send(RPCMethods.balance(of: address, at: block))
    }

    /// `eth_getTransactionCount`.
    public func transactionCount(of address: Address, at block: BlockTag = .latest) async throws(RPCError) -> UInt64 {
        try await send(RPCMethods.transactionCount(of: address, at: block))
    }

    /// `eth_getCode`.
    public func code(at address: Address, block: BlockTag = .latest) async throws(RPCError) -> [UInt8] {
        try await send(RPCMethods.code(at: address, block: block))
    }

    /// `eth_getStorageAt`.
    public func storage(at address: Address, slot: UInt256, block: BlockTag = .latest) async throws(RPCError) -> Bytes32 {
        try await send(RPCMethods.storage(at: address, slot: slot, block: block))
    }

    /// `eth_gasPrice`.
    public func gasPrice() async throws(RPCError) -> UInt256 { try await send(RPCMethods.gasPrice()) }

    /// `eth_maxPriorityFeePerGas`.
    public func maxPriorityFeePerGas() async throws(RPCError) -> UInt256 { try await send(RPCMethods.maxPriorityFeePerGas()) }

    /// `eth_feeHistory`.
    public func feeHistory(blockCount: UInt64, newest: BlockTag = .latest, rewardPercentiles: [Double] = []) async throws(RPCError) -> FeeHistory {
        try await send(RPCMethods.feeHistory(blockCount: blockCount, newest: newest, rewardPercentiles: rewardPercentiles))
    }

    /// `eth_estimateGas`.
    public func estimateGas(_ call: CallRequest, at block: BlockTag? = nil) async throws(RPCError) -> UInt64 {
        try await send(RPCMethods.estimateGas(call, at: block))
    }

    /// `eth_call`.
    public func call(_ call: CallRequest, at block: BlockTag = .latest) async throws(RPCError) -> [UInt8] {
        try await send(RPCMethods.call(call, at: block))
    }

    /// `eth_getTransactionByHash`.
    public func transaction(_ hash: Bytes32) async throws(RPCError) -> RPCTransaction? { try await send(RPCMethods.transaction(hash)) }

    /// `eth_getTransactionReceipt`.
    public func receipt(_ hash: Bytes32) async throws(RPCError) -> RPCReceipt? { try await send(RPCMethods.receipt(hash)) }

    /// `eth_getBlockByNumber`.
    public func block(_ block: BlockTag, fullTransactions: Bool = false) async throws(RPCError) -> RPCBlock? {
        try await send(RPCMethods.block(block, fullTransactions: fullTransactions))
    }

    /// `eth_getBlockByHash`.
    public func block(hash: Bytes32, fullTransactions: Bool = false) async throws(RPCError) -> RPCBlock? {
        try await send(RPCMethods.block(hash: hash, fullTransactions: fullTransactions))
    }

    /// `eth_getLogs`.
    public func logs(_ filter: LogFilter) async throws(RPCError) -> [RPCLog] { try await send(RPCMethods.logs(filter)) }

    /// `eth_sendRawTransaction`, with the one retry that cannot double-spend: after a transport failure
    /// (the node may or may not have the transaction), the identical bytes are sent again, up to the
    /// policy's attempts. If the node then answers "already known" or "nonce too low", the transaction is
    /// looked up by its hash: when the node has it, that was our first send, and its hash is returned.
    /// Nothing is ever re-signed here; a JSON-RPC error on the first attempt is returned as is.
    public func sendRawTransaction(_ raw: [UInt8]) async throws(RPCError) -> Bytes32 {
        let localHash = Keccak256.hash(raw)
        let call = RPCMethods.sendRawTransaction(raw)
        var attempt = 1
        var firstFailure: RPCError?
        while true {
            do throws(RPCError) {
                let hash = try await send(call)
                guard hash == localHash else {
                    throw RPCError.decoding(method: call.method, what: "the node returned hash \(hash), expected \(localHash)")
                }
                return hash
            } catch {
                if case .transport(let transport, _, _) = error, retryPolicy.isRetryable(transport) || transport.isTimeout,
                    attempt < retryPolicy.maxAttempts
                {
                    firstFailure = firstFailure ?? error
                    try await pause(seconds: retryPolicy.delay(beforeRetry: attempt, random: Double.random(in: 0..<1)), after: error)
                    attempt += 1
                    continue
                }
                if let firstFailure, RPCClient.saysAlreadyHave(error) {
                    if let known = try? await transaction(localHash), known.hash == localHash { return localHash }
                    throw firstFailure
                }
                throw error
            }
        }
    }

    /// Node messages meaning "I have this transaction (or one with its nonce) already".
    static func saysAlreadyHave(_ error: RPCError) -> Bool {
        guard let message = error.nodeMessage?.lowercased() else { return false }
        return message.contains("already known") || message.contains("nonce too low")
            || message.contains("already imported") || message.contains("known transaction")
    }
}

extension TransportError {
    /// True for `timeout(seconds:)`.
    public var isTimeout: Bool {
        if case .timeout = self { return true }
        return false
    }
}
