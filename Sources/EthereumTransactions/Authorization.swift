import EthereumCrypto
import EthereumPrimitives

/// An EIP-7702 authorization: the account that signs it lets its code become a delegation to `address`.
public struct Authorization: Sendable, Hashable {
    /// The chain the authorization is valid on, or 0 for every chain.
    public var chainId: UInt256
    /// The contract the authority delegates its code to (the zero address clears a delegation).
    public var address: Address
    /// The authority's nonce at the time the authorization is applied.
    public var nonce: UInt64

    /// Creates an authorization.
    public init(chainId: UInt256, address: Address, nonce: UInt64) {
        self.chainId = chainId
        self.address = address
        self.nonce = nonce
    }

    /// The EIP-7702 magic byte that prefixes the signed message.
    public static let magic: UInt8 = 0x05

    /// keccak256(0x05 ‖ rlp([chain_id, address, nonce])): the hash the authority signs.
    public var signingHash: Bytes32 {
        let payload = RLP.encode(.list([RLPItem(uint256: chainId), .bytes(address.bytes), RLPItem(unsignedInteger: nonce)]))
        var hasher = Keccak256()
        hasher.update([Self.magic])
        hasher.update(payload)
        return hasher.finalize()
    }

    /// Signs the authorization (RFC 6979, low-s).
    public func sign(with key: PrivateKey) -> SignedAuthorization {
        let signature = key.sign(hash: signingHash)
        return SignedAuthorization(
            authorization: self, yParity: signature.recoveryID, r: UInt256(signature.r), s: UInt256(signature.s))
    }
}

/// An EIP-7702 authorization with the authority's signature, as carried in a set-code transaction.
///
/// A transaction stays valid when one of its authorizations is not (bad signature, wrong chain or nonce):
/// such an authorization is skipped when the transaction is applied, so ``authority()`` is the place that
/// reports it.
public struct SignedAuthorization: Sendable, Hashable {
    /// The signed content.
    public var authorization: Authorization
    /// The y parity of the signature (valid values are 0 and 1; the wire allows any byte).
    public var yParity: UInt8
    /// The signature's r.
    public var r: UInt256
    /// The signature's s.
    public var s: UInt256

    /// Creates a signed authorization from its fields.
    public init(authorization: Authorization, yParity: UInt8, r: UInt256, s: UInt256) {
        self.authorization = authorization
        self.yParity = yParity
        self.r = r
        self.s = s
    }

    /// The chain id of the authorization.
    public var chainId: UInt256 { authorization.chainId }
    /// The delegation target.
    public var address: Address { authorization.address }
    /// The authority's expected nonce.
    public var nonce: UInt64 { authorization.nonce }

    /// The account that signed: recovered from the signature, which must have y parity 0/1, r and s in range and
    /// low s (EIP-7702 requires s ≤ n/2).
    public func authority() throws(TransactionError) -> Address {
        guard yParity <= 1 else { throw .invalidYParity(UInt256(yParity)) }
        return try Secp256k1.recoverAddress(
            hash: authorization.signingHash, signature: TransactionSignature(v: UInt256(yParity), r: r, s: s),
            recoveryID: yParity, allowHighS: false)
    }
}

extension SignedAuthorization: RLPEncodable, RLPDecodable {
    /// `[chain_id, address, nonce, y_parity, r, s]`.
    public func encodeRLP() -> RLPItem {
        .list([
            RLPItem(uint256: authorization.chainId), .bytes(authorization.address.bytes),
            RLPItem(unsignedInteger: authorization.nonce), RLPItem(unsignedInteger: UInt64(yParity)),
            RLPItem(uint256: r), RLPItem(uint256: s),
        ])
    }

    /// Decodes `[chain_id, address, nonce, y_parity, r, s]` with EIP-7702's bounds: chain id and r, s below
    /// 2^256, nonce below 2^64, y parity below 2^8, a 20-byte address.
    public init(rlp: RLPItem) throws(RLPError) {
        let items = try rlp.list(expectedCount: 6)
        func field<T>(_ i: Int, _ body: (RLPItem) throws(RLPError) -> T) throws(RLPError) -> T {
            do { return try body(items[i]) } catch { throw error.inField(i) }
        }
        let chainId = try field(0) { (item) throws(RLPError) in try item.uint256() }
        let address = try field(1) { (item) throws(RLPError) in try Address(rlp: item) }
        let nonce = try field(2) { (item) throws(RLPError) in try UInt64(rlp: item) }
        let yParity = try field(3) { (item) throws(RLPError) in try UInt8(rlp: item) }
        let r = try field(4) { (item) throws(RLPError) in try item.uint256() }
        let s = try field(5) { (item) throws(RLPError) in try item.uint256() }
        self.init(authorization: Authorization(chainId: chainId, address: address, nonce: nonce), yParity: yParity, r: r, s: s)
    }
}
