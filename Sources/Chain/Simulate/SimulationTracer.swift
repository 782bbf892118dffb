import EVM
import EthereumPrimitives

/// Collects what an `eth_simulateV1` call reports as its logs: the logs its frames emitted and, with
/// `traceTransfers`, each ETH transfer as an ERC-7528 log (address 0xeeee…eeee, topics `Transfer(address,
/// address,uint256)`, sender, recipient; data the value), in execution order. A failed frame takes its logs and
/// transfers with it. Indexes count every log captured in the block, kept or not, as geth's tracer does.
struct SimulationTracer: Tracer {
    static var isEnabled: Bool { true }

    /// keccak256("Transfer(address,address,uint256)").
    static let transferTopic = Keccak256.hash(Array("Transfer(address,address,uint256)".utf8))
    /// ERC-7528's address for the native asset.
    static let transferAddress = Address(bytes: [UInt8](repeating: 0xee, count: 20)) ?? .zero

    /// A log with its index in the block.
    struct IndexedLog: Sendable {
        var log: Log
        var index: Int
    }

    let traceTransfers: Bool
    /// The logs of each open frame, outermost first.
    private var frames: [[IndexedLog]] = []
    /// Logs captured so far in the block.
    private(set) var count = 0

    init(traceTransfers: Bool) {
        self.traceTransfers = traceTransfers
    }

    /// Starts the next call of the block.
    mutating func reset() { frames = [] }

    /// The logs of the call that just ran (empty when it failed).
    var logs: [IndexedLog] { frames.first ?? [] }

    mutating func enterFrame(_ message: Message, to: Address) { frames.append([]) }

    mutating func exitFrame(status: Status, gasUsed: Int64, output: [UInt8]) {
        let reverted = !status.isSuccess
        guard frames.count > 1 else {
            if reverted, !frames.isEmpty { frames[0] = [] }
            return
        }
        let frame = frames.removeLast()
        if !reverted { frames[frames.count - 1].append(contentsOf: frame) }
    }

    mutating func didTransfer(from sender: Address, to recipient: Address, value: UInt256) {
        guard traceTransfers else { return }
        capture(
            Log(
                address: Self.transferAddress,
                topics: [Self.transferTopic, sender.bytes32, recipient.bytes32],
                data: value.bigEndianBytes))
    }

    mutating func didEmitLog(_ log: Log) { capture(log) }

    private mutating func capture(_ log: Log) {
        if frames.isEmpty { frames.append([]) }
        frames[frames.count - 1].append(IndexedLog(log: log, index: count))
        count += 1
    }

    // Instructions are not traced.
    mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
    ) {}
    mutating func didExecute(gasCost: Int64, error: Status?) {}
    mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}
}
