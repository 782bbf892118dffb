import EthereumPrimitives

extension SignedTransaction {
    /// Decodes raw transaction bytes (the `eth_sendRawTransaction` form) strictly.
    ///
    /// A first byte of 0xc0 or more is a legacy RLP list; 0x01–0x04 is an EIP-2718 type followed by the
    /// RLP list. Rejects: non-canonical RLP anywhere (leading zeros in integers or lengths, long forms for
    /// short lengths, single bytes wrapped in a string header), trailing bytes, wrong field counts, integers
    /// too wide for their field (nonce and gas limit 64 bits, amounts 256 bits), recipients that are not 20
    /// bytes, malformed access and authorization lists. Signature *values* are checked later, by
    /// ``sender(allowHighS:)`` and ``validate(for:chainID:)``, so that fork rules can decide.
    public static func decode(_ raw: [UInt8]) throws(TransactionError) -> SignedTransaction {
        guard let first = raw.first else { throw .empty }
        if first >= 0x80 {
            let item = try parse(raw[...], type: .legacy, offsetBase: 0)
            guard case .list = item else { throw .notAList }
            return try decodeLegacy(item, raw: raw)
        }
        guard let type = TransactionType(rawValue: first), type != .legacy else { throw .unknownType(first) }
        let item = try parse(raw[1...], type: type, offsetBase: 1)
        if type == .blob, case .list(let fields) = item, case .list = fields.first {
            throw .sidecarNotSupported
        }
        var reader = try EnvelopeReader(item, type: type)
        let transaction: Transaction
        switch type {
        case .legacy: throw .unknownType(first)  // excluded above
        case .accessList: transaction = .accessList(try AccessListTransaction(decoding: &reader))
        case .dynamicFee: transaction = .dynamicFee(try DynamicFeeTransaction(decoding: &reader))
        case .blob: transaction = .blob(try BlobTransaction(decoding: &reader))
        case .setCode: transaction = .setCode(try SetCodeTransaction(decoding: &reader))
        }
        let signature = try reader.signature()
        return SignedTransaction(transaction: transaction, signature: signature, encoded: raw)
    }

    /// Decodes 0x-prefixed (or bare) hex; see ``decode(_:)``.
    public static func decode(hex: String) throws(TransactionError) -> SignedTransaction {
        let raw: [UInt8]
        do { raw = try Hex.decode(hex) } catch {
            throw .malformed(RLPError(.invalidValue("not hex: \(error)")), field: nil, type: .legacy)
        }
        return try decode(raw)
    }

    private static func decodeLegacy(_ item: RLPItem, raw: [UInt8]) throws(TransactionError) -> SignedTransaction {
        var reader = try EnvelopeReader(item, type: .legacy)
        var legacy = try LegacyTransaction(decoding: &reader)
        let signature = try reader.signature()
        if case .protected(let chainId, _) = LegacyTransaction.classify(v: signature.v) {
            legacy.chainId = chainId
        }
        return SignedTransaction(transaction: .legacy(legacy), signature: signature, encoded: raw)
    }

    /// Strict RLP decoding of one envelope list, with errors attributed to the top-level field they are in.
    private static func parse(_ bytes: ArraySlice<UInt8>, type: TransactionType, offsetBase: Int) throws(TransactionError) -> RLPItem {
        let array = Array(bytes)
        do {
            return try RLP.decode(array)
        } catch {
            var located = error
            var field: TransactionField?
            if let offset = error.offset, let index = topLevelFieldIndex(containing: offset, in: array) {
                let order = TransactionField.order(for: type)
                if index < order.count { field = order[index] }
                located = error.inField(index)
            }
            located.offset = error.offset.map { $0 + offsetBase }
            throw .malformed(located, field: field, type: type)
        }
    }

    /// Which item of the outer list contains byte `offset`, found by walking item headers without checks (used
    /// only to say where an RLP error is). Nil when the offset is in the outer header or the input is no list.
    static func topLevelFieldIndex(containing offset: Int, in bytes: [UInt8]) -> Int? {
        guard let first = bytes.first, first >= 0xc0 else { return nil }
        var p = first >= 0xf8 ? 1 + Int(first - 0xf7) : 1
        guard offset >= p else { return nil }
        var index = 0
        while p < bytes.count {
            let size = itemSize(at: p, in: bytes)
            if offset < p + size { return index }
            p += size
            index += 1
        }
        return nil
    }

    /// The size (header and payload) an item's header claims, capped at the end of the input.
    private static func itemSize(at p: Int, in bytes: [UInt8]) -> Int {
        let remaining = bytes.count - p
        let prefix = bytes[p]
        let size: Int
        switch prefix {
        case 0x00...0x7f: size = 1
        case 0x80...0xb7: size = 1 + Int(prefix - 0x80)
        case 0xc0...0xf7: size = 1 + Int(prefix - 0xc0)
        default:
            let lengthOfLength = Int(prefix - (prefix >= 0xf8 ? 0xf7 : 0xb7))
            guard lengthOfLength < remaining else { return remaining }
            var length = 0
            for i in 1...lengthOfLength {
                guard length < (1 << 40) else { return remaining }
                length = length << 8 | Int(bytes[p + i])
            }
            size = 1 + lengthOfLength + length
        }
        return Swift.min(size, remaining)
    }
}
