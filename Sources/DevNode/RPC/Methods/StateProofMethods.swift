import Chain
import EthereumPrimitives
import EthereumWire

/// `eth_getProof` (EIP-1186) and `eth_getStorageValues`, answered as geth answers them.
extension RPCRequest {
    /// A storage key of `eth_getProof` as given: geth reads keys leniently (the `0x` optional, odd lengths padded,
    /// at most 32 bytes) and echoes a key given as 32 bytes as 32 bytes, any other as a quantity.
    public struct ProofKey: Sendable, Equatable {
        /// The slot.
        public var slot: UInt256
        /// True when the key was written as 32 bytes.
        public var full: Bool

        /// The key as the answer names it.
        var json: JSONValue { full ? NodeWire.data(slot.bigEndianBytes) : NodeWire.q(slot) }
    }

    /// One account's slots in `eth_getStorageValues`.
    public struct StorageQuery: Sendable, Equatable {
        public var address: Address
        public var slots: [UInt256]
    }

    /// geth's limits: 1024 proof keys per call, 1024 slots per `eth_getStorageValues`.
    static let maxProofKeys = 1024
    static let maxStorageSlots = 1024

    static func proofKeys(_ p: RPCParams, _ i: Int) throws(JSONRPCErrorObject) -> [ProofKey] {
        guard let value = p.optional(i) else { return [] }  // null decodes as no keys, as in geth
        guard case .array(let items) = value else {
            throw .invalidParams("invalid argument \(i): expected an array of storage keys")
        }
        guard items.count <= maxProofKeys else {
            throw JSONRPCErrorObject(
                code: JSONRPCErrorCode.invalidParams,
                message: "too many storage keys requested (max \(maxProofKeys), got \(items.count))")
        }
        var keys: [ProofKey] = []
        for item in items {
            guard case .string(let text) = item else { throw .invalidParams("invalid argument \(i): storage keys are strings") }
            var digits = Substring(text)
            if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
            let padded = digits.utf8.count % 2 == 1 ? "0" + digits : String(digits)
            guard padded.utf8.count <= 64 else {
                throw JSONRPCErrorObject(
                    code: JSONRPCErrorCode.invalidParams, message: "storage key too long (want at most 32 bytes): \(quoted(text))")
            }
            guard let bytes = try? Hex.decode("0x" + padded) else {
                throw JSONRPCErrorObject(code: JSONRPCErrorCode.invalidParams, message: "invalid hex in storage key: \(quoted(text))")
            }
            keys.append(ProofKey(slot: UInt256(truncatingBigEndian: bytes), full: bytes.count == 32))
        }
        return keys
    }

    /// `{address: [slot, ...], ...}`: addresses of 20 bytes, slots of exactly 32 bytes (geth's common.Hash).
    static func storageQueries(_ p: RPCParams, _ i: Int) throws(JSONRPCErrorObject) -> [StorageQuery] {
        guard case .object(let members) = try p.required(i) else {
            throw .invalidParams("invalid argument \(i): expected an object of addresses to storage slots")
        }
        var queries: [StorageQuery] = []
        var total = 0
        for (key, value) in members {
            let address = try RPCParams.wire(i) { () throws(WireError) in try JSONValue.string(key).wireAddress("address") }
            let slots = try RPCParams.wire(i) { () throws(WireError) in
                try value.wireArray("slots").map { v throws(WireError) in UInt256(truncatingBigEndian: try v.wireBytes32("slot").bytes) }
            }
            total += slots.count
            guard total <= maxStorageSlots else {
                throw JSONRPCErrorObject(code: -32005, message: "too many slots (max \(maxStorageSlots))")
            }
            if let index = queries.firstIndex(where: { $0.address == address }) {
                queries[index].slots = slots  // a repeated member: the last wins, as in a Go map
            } else {
                queries.append(StorageQuery(address: address, slots: slots))
            }
        }
        guard queries.contains(where: { !$0.slots.isEmpty }) else {
            throw JSONRPCErrorObject(code: JSONRPCErrorCode.invalidParams, message: "empty request")
        }
        return queries
    }

    private static func quoted(_ text: String) -> String { JSONValue.string(String(text.prefix(80))).description }
}

extension NodeRPCHandler {
    func getProof(_ address: Address, keys: [RPCRequest.ProofKey], at block: BlockID) async throws(JSONRPCErrorObject) -> JSONValue {
        let proof = try await onChain { () async throws(ChainError) in
            try await chain.proof(address, slots: keys.map(\.slot), at: block)
        }
        let storage: [JSONValue] = zip(keys, proof.storageProof).map { key, entry in
            .object([("key", key.json), ("value", NodeWire.q(entry.value)), ("proof", .array(entry.proof.map(NodeWire.data)))])
        }
        return .object([
            ("address", NodeWire.address(proof.address)), ("accountProof", .array(proof.accountProof.map(NodeWire.data))),
            ("balance", NodeWire.q(proof.balance)), ("codeHash", NodeWire.hash(proof.codeHash)),
            ("nonce", NodeWire.q(proof.nonce)), ("storageHash", NodeWire.hash(proof.storageHash)),
            ("storageProof", .array(storage)),
        ])
    }

    func getStorageValues(_ queries: [RPCRequest.StorageQuery], at block: BlockID) async throws(JSONRPCErrorObject) -> JSONValue {
        let values = try await onChain { () async throws(ChainError) in
            try await chain.storageValues(queries.map { (address: $0.address, slots: $0.slots) }, at: block)
        }
        // geth writes a map: addresses in lower case, sorted.
        let rows = zip(queries, values).map { query, row in
            (key: query.address.lowercasedHex, value: JSONValue.array(row.map { NodeWire.data($0.bigEndianBytes) }))
        }
        return .object(rows.sorted { $0.key < $1.key })
    }
}
