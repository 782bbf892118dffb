import EthereumPrimitives

/// The blobs a type-3 transaction carries on the network (EIP-4844's "network wrapper", which
/// `eth_sendRawTransaction` receives): `0x03 ‖ RLP([tx_payload_body, blobs, commitments, proofs])`, and from
/// Osaka (EIP-7594) `0x03 ‖ RLP([tx_payload_body, 1, blobs, commitments, cell_proofs])` with 128 cell proofs per
/// blob. Blocks hold only the payload; the chain checks the sidecar against it and keeps the payload.
public struct BlobSidecar: Sendable, Equatable {
    /// 0 for EIP-4844's wrapper (one proof per blob), 1 for EIP-7594's (cell proofs).
    public var version: UInt8
    /// The blobs, 131,072 bytes each.
    public var blobs: [[UInt8]]
    /// The KZG commitments, 48 bytes each.
    public var commitments: [[UInt8]]
    /// The KZG proofs, 48 bytes each: one per blob (version 0) or ``cellsPerBlob`` per blob (version 1).
    public var proofs: [[UInt8]]

    /// FIELD_ELEMENTS_PER_BLOB × 32.
    public static let blobSize = 131_072
    /// A compressed G1 point.
    public static let commitmentSize = 48
    /// EIP-7594's CELLS_PER_EXT_BLOB.
    public static let cellsPerBlob = 128

    /// The proofs a sidecar of this version must carry for `blobCount` blobs.
    public func expectedProofCount(blobCount: Int) -> Int { version == 0 ? blobCount : blobCount * Self.cellsPerBlob }
}

extension SignedTransaction {
    /// Decodes what `eth_sendRawTransaction` may receive: any transaction ``decode(_:)`` accepts, or a type-3
    /// transaction in the network form with its sidecar (returned beside the transaction, whose `encoded` is the
    /// canonical payload form, so its hash is the transaction hash). Sizes are checked here; what needs hashing
    /// (commitments against the versioned hashes) is the chain's.
    public static func decodeNetworkForm(_ raw: [UInt8]) throws(TransactionError) -> (SignedTransaction, BlobSidecar?) {
        guard raw.first == TransactionType.blob.rawValue, raw.count > 1 else { return (try decode(raw), nil) }
        let item: RLPItem
        do { item = try RLP.decode(Array(raw[1...])) } catch { return (try decode(raw), nil) }
        guard case .list(let fields) = item, case .list = fields.first else { return (try decode(raw), nil) }
        func bad(_ why: String) -> TransactionError {
            .malformed(RLPError(.invalidValue("blob sidecar: \(why)")), field: nil, type: .blob)
        }
        var version: UInt8 = 0
        var rest = fields.dropFirst()
        if fields.count == 5 {
            guard case .bytes(let v) = fields[1], v == [1] else { throw bad("wrapper version must be 1") }
            version = 1
            rest = fields.dropFirst(2)
        } else if fields.count != 4 {
            throw bad("expected [tx, blobs, commitments, proofs] or [tx, 1, blobs, commitments, cell proofs]")
        }
        func list(_ item: RLPItem, _ what: String, size: Int) throws(TransactionError) -> [[UInt8]] {
            guard case .list(let items) = item else { throw bad("\(what) is not a list") }
            var out: [[UInt8]] = []
            out.reserveCapacity(items.count)
            for element in items {
                guard case .bytes(let bytes) = element, bytes.count == size else {
                    throw bad("each of the \(what) must be \(size) bytes")
                }
                out.append(bytes)
            }
            return out
        }
        let parts = Array(rest)
        let sidecar = BlobSidecar(
            version: version, blobs: try list(parts[0], "blobs", size: BlobSidecar.blobSize),
            commitments: try list(parts[1], "commitments", size: BlobSidecar.commitmentSize),
            proofs: try list(parts[2], "proofs", size: BlobSidecar.commitmentSize))
        guard sidecar.blobs.count == sidecar.commitments.count,
            sidecar.proofs.count == sidecar.expectedProofCount(blobCount: sidecar.blobs.count)
        else {
            throw bad(
                "\(sidecar.blobs.count) blobs, \(sidecar.commitments.count) commitments and \(sidecar.proofs.count) proofs do not match")
        }
        let payload = [TransactionType.blob.rawValue] + RLP.encode(fields[0])
        return (try decode(payload), sidecar)
    }
}
