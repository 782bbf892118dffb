import EVM
import EthereumPrimitives

/// geth's `4byteTracer`: counts the calls (CALL, CALLCODE, DELEGATECALL, STATICCALL, the transaction's own call
/// among them) by function selector and calldata size, as `"0x<selector>-<bytes after the selector>"`. Calls with
/// less than four bytes of input and calls to the fork's precompiles are not counted; creations are not calls.
struct FourByteTracer: Tracer {
    static var isEnabled: Bool { true }

    /// The fork whose precompiles are left out.
    let fork: Hardfork
    /// The counts by key.
    private(set) var counts: [String: Int] = [:]
    /// About how many bytes of JSON the counts take.
    private(set) var recordedBytes = 2

    init(fork: Hardfork) {
        self.fork = fork
    }

    mutating func enterFrame(_ message: Message, to: Address) {
        guard !message.kind.isCreate, message.input.count >= 4, !Precompiles.isPrecompile(to, fork: fork) else { return }
        let key = Hex.encode(message.input.prefix(4)) + "-" + String(message.input.count - 4)
        if counts[key] == nil { recordedBytes += key.utf8.count + 12 }
        counts[key, default: 0] += 1
    }

    // Instructions are not traced.
    mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
    ) {}
    mutating func didExecute(gasCost: Int64, error: Status?) {}
    mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}
}
