import Crypto
import EVM
import EthereumPrimitives

/// EIP-7685's execution-layer requests: the typed byte strings a Prague block commits to in its header's
/// `requestsHash` — deposits read from the deposit contract's logs (EIP-6110, type 0), withdrawal requests
/// (EIP-7002, type 1) and consolidation requests (EIP-7251, type 2) dequeued by their system contracts.
public enum ExecutionRequests {
    /// EIP-6110's DEPOSIT_REQUEST_TYPE.
    public static let depositType: UInt8 = 0x00
    /// EIP-7002's WITHDRAWAL_REQUEST_TYPE.
    public static let withdrawalType: UInt8 = 0x01
    /// EIP-7251's CONSOLIDATION_REQUEST_TYPE.
    public static let consolidationType: UInt8 = 0x02
    /// The mainnet deposit contract (EIP-6110's DEPOSIT_CONTRACT_ADDRESS), the default of a chain's config.
    public static let mainnetDepositContract = (try? Address("0x00000000219ab540356cbb839cbe05303d7705fa")) ?? .zero
    /// keccak256("DepositEvent(bytes,bytes,bytes,bytes,bytes)"): the first topic of a deposit log.
    public static let depositEventTopic = Keccak256.hash(Array("DepositEvent(bytes,bytes,bytes,bytes,bytes)".utf8))

    /// The block's requests, in type order and without empty ones: the deposits in `logs` (every log of the
    /// block's receipts, in order) emitted by `depositContract`, then the EIP-7002 and EIP-7251 queues,
    /// whose system calls run here on `journaled`.
    public static func collect(
        logs: [Log], depositContract: Address, in journaled: inout JournaledState, block: BlockEnvironment, fork: Hardfork
    ) throws(BlockValidationError) -> [[UInt8]] {
        var requests: [[UInt8]] = []
        var deposits: [UInt8] = []
        for log in logs where log.address == depositContract && log.topics.first == depositEventTopic {
            deposits += try depositData(log.data)
        }
        if !deposits.isEmpty { requests.append([depositType] + deposits) }
        let withdrawals = try SystemCalls.dequeueRequests(
            from: SystemCalls.withdrawalRequests, in: &journaled, block: block, fork: fork)
        if !withdrawals.isEmpty { requests.append([withdrawalType] + withdrawals) }
        let consolidations = try SystemCalls.dequeueRequests(
            from: SystemCalls.consolidationRequests, in: &journaled, block: block, fork: fork)
        if !consolidations.isEmpty { requests.append([consolidationType] + consolidations) }
        return requests
    }

    /// `sha256(sha256(r₀) ‖ sha256(r₁) ‖ …)` over the non-empty requests (EIP-7685); with none it is
    /// sha256 of nothing, ``BlockHeader/emptyRequestsHash``.
    public static func hash(_ requests: [[UInt8]]) -> Bytes32 {
        if requests.isEmpty { return BlockHeader.emptyRequestsHash }
        var outer = SHA256()
        for request in requests { outer.update(data: Array(SHA256.hash(data: request))) }
        return Bytes32(Array(outer.finalize())) ?? .zero
    }

    /// The fields of an ABI-encoded `DepositEvent(pubkey, withdrawal_credentials, amount, signature,
    /// index)`, concatenated (48 + 32 + 8 + 96 + 8 bytes). EIP-6110 fixes the layout: 576 bytes, the five
    /// offsets 160, 256, 320, 384, 512 and each field's length; anything else makes the block invalid.
    public static func depositData(_ data: [UInt8]) throws(BlockValidationError) -> [UInt8] {
        guard data.count == 576 else { throw .invalidDepositEvent("\(data.count) bytes of log data, not 576") }
        let layout: [(name: String, offset: Int, size: Int)] = [
            ("pubkey", 160, 48), ("withdrawal_credentials", 256, 32), ("amount", 320, 8), ("signature", 384, 96),
            ("index", 512, 8),
        ]
        var out: [UInt8] = []
        out.reserveCapacity(192)
        for (slot, field) in layout.enumerated() {
            guard word(data, at: slot * 32) == UInt64(field.offset) else {
                throw .invalidDepositEvent("the \(field.name) offset is not \(field.offset)")
            }
            guard word(data, at: field.offset) == UInt64(field.size) else {
                throw .invalidDepositEvent("the \(field.name) length is not \(field.size)")
            }
            out += data[(field.offset + 32)..<(field.offset + 32 + field.size)]
        }
        return out
    }

    /// The 32-byte big-endian word at `offset` if it fits 64 bits (nil otherwise); `offset + 32 <= count`.
    private static func word(_ data: [UInt8], at offset: Int) -> UInt64? {
        guard data[offset..<(offset + 24)].allSatisfy({ $0 == 0 }) else { return nil }
        return data[(offset + 24)..<(offset + 32)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
