import Benchmark
import EthereumPrimitives

/// RLP encode and decode of a typical signed legacy transaction (9 fields, 173 bytes): an ERC-20
/// `transfer(address,uint256)` call, whose 68-byte calldata is the usual case on mainnet.
func registerRLPBenchmarks() {
    let item = RLPBenchmarkTransaction.sample.encodeRLP()
    let encoded = RLP.encode(item)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )

    Benchmark("RLP encode legacy tx (RLPItem)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(RLP.encode(item))
        }
    }

    Benchmark("RLP encode legacy tx (typed fields)", configuration: configuration) { benchmark in
        let tx = RLPBenchmarkTransaction.sample
        for _ in benchmark.scaledIterations {
            blackHole(RLP.encode(tx))
        }
    }

    Benchmark("RLP decode legacy tx (RLPItem)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? RLP.decode(encoded))
        }
    }

    Benchmark("RLP decode legacy tx (typed fields)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? RLP.decode(RLPBenchmarkTransaction.self, from: encoded))
        }
    }
}

/// The nine fields of a legacy transaction (r and s as minimal big-endian bytes, as integers are).
struct RLPBenchmarkTransaction: RLPEncodable, RLPDecodable {
    var nonce: UInt64
    var gasPrice: UInt64
    var gasLimit: UInt64
    var to: Address
    var value: UInt64
    var data: [UInt8]
    var v: UInt64
    var r: [UInt8]
    var s: [UInt8]

    static let sample: RLPBenchmarkTransaction = {
        let to = Address(bytes: (0..<20).map { UInt8(0xa0 &+ $0) }) ?? .zero
        // transfer(address,uint256): selector a9059cbb, a 32-byte address word, a 32-byte amount.
        let data = [0xa9, 0x05, 0x9c, 0xbb] + [UInt8](repeating: 0, count: 12) + (0..<20).map { UInt8(0x10 &+ $0) }
            + [UInt8](repeating: 0, count: 24) + [0x00, 0x00, 0x00, 0x00, 0x3b, 0x9a, 0xca, 0x00]
        return RLPBenchmarkTransaction(
            nonce: 1_234, gasPrice: 30_000_000_000, gasLimit: 65_000, to: to, value: 0, data: data, v: 38,
            r: (0..<32).map { UInt8(0x80 &+ $0) }, s: (0..<32).map { UInt8(0x40 &+ $0) })
    }()

    init(nonce: UInt64, gasPrice: UInt64, gasLimit: UInt64, to: Address, value: UInt64, data: [UInt8],
         v: UInt64, r: [UInt8], s: [UInt8]) {
        self.nonce = nonce
        self.gasPrice = gasPrice
        self.gasLimit = gasLimit
        self.to = to
        self.value = value
        self.data = data
        self.v = v
        self.r = r
        self.s = s
    }

    func encodeRLP() -> RLPItem {
        .list([
            nonce.encodeRLP(), gasPrice.encodeRLP(), gasLimit.encodeRLP(), to.encodeRLP(), value.encodeRLP(),
            .bytes(data), v.encodeRLP(), .bytes(r), .bytes(s),
        ])
    }

    init(rlp: RLPItem) throws(RLPError) {
        var fields = try RLPListReader(rlp, expectedCount: 9)
        nonce = try fields.next()
        gasPrice = try fields.next()
        gasLimit = try fields.next()
        to = try fields.next()
        value = try fields.next()
        data = try fields.next()
        v = try fields.next()
        r = try fields.next()
        s = try fields.next()
    }
}
