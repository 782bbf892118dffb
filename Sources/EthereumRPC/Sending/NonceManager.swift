import EthereumPrimitives

/// Hands out nonces for concurrent sends from the same accounts: the first reservation for an account
/// reads its `pending` transaction count from the node, later ones count up locally, so concurrent sends
/// get consecutive nonces without asking the node each time. Concurrent first reservations share one read.
///
/// When a send is refused by the node (its nonce was not used), ``reset(_:)`` makes the next reservation
/// read the node again, so a gap left by the refused nonce is filled by the next send.
public actor NonceManager {
    /// Reads an account's next nonce from the node (`eth_getTransactionCount(address, "pending")`).
    public typealias Source = @Sendable (Address) async throws(RPCError) -> UInt64

    private let source: Source
    private var next: [Address: UInt64] = [:]
    private var reads: [Address: Task<Result<UInt64, RPCError>, Never>] = [:]

    /// A manager reading nonces with `source`.
    public init(source: @escaping Source) {
        self.source = source
    }

    /// A manager reading `pending` nonces from `client`.
    public init(client: RPCClient) {
        self.init { address throws(RPCError) in try await client.transactionCount(of: address, at: .pending) }
    }

    /// The largest nonce a transaction may carry (EIP-2681: the account's nonce must still be incrementable).
    public static let maxNonce = UInt64.max - 1

    /// The next nonce for `address`, reserved for the caller. A node reporting a count past ``maxNonce`` (no
    /// transaction can follow it) is an error, never a wrapped or trapping increment.
    public func reserve(_ address: Address) async throws(RPCError) -> UInt64 {
        if let nonce = next[address] {
            try Self.check(nonce, address)
            next[address] = nonce + 1
            return nonce
        }
        let read: Task<Result<UInt64, RPCError>, Never>
        if let pending = reads[address] {
            read = pending
        } else {
            let source = self.source
            read = Task { () -> Result<UInt64, RPCError> in
                do throws(RPCError) { return .success(try await source(address)) } catch { return .failure(error) }
            }
            reads[address] = read
        }
        let result = await read.value
        if reads[address] == read { reads[address] = nil }
        // Another waiter of the same read may have resumed first and started counting; continue from there.
        let nonce: UInt64
        if let counted = next[address] { nonce = counted } else { nonce = try result.get() }
        try Self.check(nonce, address)
        next[address] = nonce + 1
        return nonce
    }

    private static func check(_ nonce: UInt64, _ address: Address) throws(RPCError) {
        guard nonce <= maxNonce else {
            throw .decoding(
                method: "eth_getTransactionCount",
                what: "the node says \(address)'s next nonce is \(nonce): no transaction can be sent from it (EIP-2681: at most 2^64-2)")
        }
    }

    /// Forgets the local count for `address`; the next reservation reads the node again.
    public func reset(_ address: Address) {
        next[address] = nil
    }
}
