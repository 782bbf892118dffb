import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Testing

/// The consensus encoding of a receipt is written straight into one buffer; here it is checked against the same
/// receipt built as an `RLPItem` tree and encoded by the item codec (itself checked on the ethereum/tests RLP
/// vectors), across the header boundaries: no logs, topics from none to four, data below and above 55 bytes, a list
/// of logs longer than 55 bytes and than 255, typed and legacy, a status or a pre-Byzantium root.
@Suite struct ReceiptEncodingTests {
    static func itemEncoding(type: TransactionType, status: Bool, root: Bytes32?, gas: UInt64, bloom: Bloom, logs: [Log]) -> [UInt8] {
        let logItems = logs.map { log in
            RLPItem.list([.bytes(log.address.bytes), .list(log.topics.map { .bytes($0.bytes) }), .bytes(log.data)])
        }
        let first: RLPItem = root.map { .bytes($0.bytes) } ?? .bytes(status ? [1] : [])
        let body = RLP.encode(.list([first, RLPItem(unsignedInteger: gas), .bytes(bloom.bytes), .list(logItems)]))
        return type == .legacy ? body : [type.rawValue] + body
    }

    @Test(arguments: [0, 1, 2, 3, 7, 40])
    func flatEncodingIsTheItemEncoding(logCount: Int) throws {
        var generator = SystemRandomNumberGenerator()
        func word() -> Bytes32 {
            Bytes32(words: (.random(in: 0...UInt64.max, using: &generator), .random(in: 0...UInt64.max, using: &generator),
                            .random(in: 0...UInt64.max, using: &generator), .random(in: 0...UInt64.max, using: &generator)))
        }
        for round in 0..<20 {
            let logs = (0..<logCount).map { i in
                Log(
                    address: Address(bytes32: word()),
                    topics: (0..<((i + round) % 5)).map { _ in word() },
                    data: [UInt8](repeating: UInt8(i & 0xff), count: [0, 1, 31, 55, 56, 300][(i + round) % 6]))
            }
            let bloom = Bloom(logs: logs)
            let gas = [0, 1, 0x7f, 0x80, 21_000, UInt64.max][round % 6]
            for type in [TransactionType.legacy, .accessList, .dynamicFee, .blob, .setCode] {
                for (status, root) in [(true, nil), (false, nil), (true, word())] as [(Bool, Bytes32?)] {
                    let flat = Receipt.consensusEncoding(
                        type: type, status: status, root: root, cumulativeGasUsed: gas, bloom: bloom, logs: logs)
                    #expect(flat == Self.itemEncoding(type: type, status: status, root: root, gas: gas, bloom: bloom, logs: logs))
                }
            }
        }
    }
}
