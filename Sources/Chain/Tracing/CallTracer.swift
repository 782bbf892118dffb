import EVM
import EthereumPrimitives

/// geth's `callTracer`: builds the tree of call frames from the interpreter's frame hooks. Each message becomes a
/// ``CallFrame`` when it starts and is closed, with its gas used, output and error, when it ends; a SELFDESTRUCT
/// becomes a frame of its own inside the frame that ran it (as geth reports it: no gas, the contract's balance as
/// value). With `withLog`, logs are attached to the frame that emitted them, numbered as the block numbers them.
///
/// Bounded like the struct logger: past `maxBytes` of estimated JSON it stops recording and sets ``overflowed``.
struct CallTracer: Tracer {
    static var isEnabled: Bool { true }

    let options: CallTracerOptions
    /// The transaction's (or call's) gas limit: the outermost frame's `gas`, as geth reports it.
    let gasLimit: UInt64
    /// The most estimated JSON bytes to record (0: no limit).
    let maxBytes: Int
    private(set) var recordedBytes = 0
    private(set) var overflowed = false

    /// The recorded frames still open, outermost first.
    private var open: [CallFrame] = []
    /// The outermost frame once it ended.
    private var finished: CallFrame?
    /// For every open message (recorded or not): the logs it and its ended children emitted that still stand. A
    /// failed message's logs are undone, and their indexes given out again, as the chain numbers logs.
    private var logCounts: [Int] = []
    /// The block-wide index the next log gets.
    private var nextLogIndex: Int
    /// A SELFDESTRUCT about to run: its frame, recorded once the instruction succeeds.
    private var pendingSelfDestruct: CallFrame?
    /// Whether ``pendingSelfDestruct`` is set: the per-step test reads this flag, not the frame.
    private var selfDestructPending = false

    /// `logIndex`: how many logs the block's earlier transactions emitted.
    init(options: CallTracerOptions, gasLimit: UInt64, logIndex: Int = 0, maxBytes: Int = 0) {
        self.options = options
        self.gasLimit = gasLimit
        self.nextLogIndex = logIndex
        self.maxBytes = maxBytes
    }

    /// The trace: the outermost frame with `gasUsed` (the transaction's, after the refund); nil if it never ended
    /// (an aborted run). With `withLog`, failed frames lose their logs and their children's.
    func result(gasUsed: UInt64) -> CallFrame? {
        guard var top = finished else { return nil }
        top.gasUsed = gasUsed
        if options.withLog { Self.dropFailedLogs(&top, parentFailed: false) }
        return top
    }

    private static func dropFailedLogs(_ frame: inout CallFrame, parentFailed: Bool) {
        let failed = parentFailed || frame.error != nil
        if failed { frame.logs = [] }
        for i in frame.calls.indices { dropFailedLogs(&frame.calls[i], parentFailed: failed) }
    }

    // MARK: Frame hooks

    mutating func enterFrame(_ message: Message, to: Address) {
        logCounts.append(0)
        guard !overflowed, !options.onlyTopCall || message.depth == 0 else { return }
        let type: CallFrame.Kind
        switch message.kind {
        case .call: type = .call
        case .callCode: type = .callCode
        case .delegateCall: type = .delegateCall
        case .staticCall: type = .staticCall
        case .create: type = .create
        case .create2: type = .create2
        }
        // A DELEGATECALL's message keeps its caller's caller; geth names the delegating contract as `from`.
        let from = message.kind == .delegateCall ? message.recipient : message.caller
        let gas = message.depth == 0 ? gasLimit : UInt64(Swift.max(0, message.gas))
        guard record(230 + 2 * message.input.count) else { return }
        open.append(
            CallFrame(
                type: type, from: from, to: to, value: message.kind == .staticCall ? nil : message.value, gas: gas,
                input: message.input))
    }

    mutating func exitFrame(status: Status, gasUsed: Int64, output: [UInt8]) {
        let depth = logCounts.count - 1
        let emitted = logCounts.removeLast()
        if status.isSuccess {
            if depth > 0 { logCounts[depth - 1] += emitted }
        } else {
            nextLogIndex -= emitted
        }
        guard !overflowed, !options.onlyTopCall || depth == 0, var frame = open.popLast() else { return }
        frame.gasUsed = UInt64(Swift.max(0, gasUsed))
        Self.close(&frame, status: status, output: output)
        guard record(2 * frame.output.count + (frame.error?.utf8.count ?? 0) + (frame.revertReason?.utf8.count ?? 0))
        else { return }
        if open.isEmpty {
            finished = frame
        } else {
            open[open.count - 1].calls.append(frame)
        }
    }

    /// Output and error as geth's call tracer sets them: a success keeps its output; a failure gets its error,
    /// loses a created address, and keeps output only when it reverted (with the decoded reason).
    static func close(_ frame: inout CallFrame, status: Status, output: [UInt8]) {
        if status.isSuccess {
            frame.output = output
            return
        }
        frame.error = status.errorDescription ?? "execution failed"
        if frame.type == .create || frame.type == .create2 { frame.to = nil }
        guard status == .reverted, !output.isEmpty else { return }
        frame.output = output
        frame.revertReason = CallResult.reason(output)
    }

    mutating func didEmitLog(_ log: Log) {
        let index = nextLogIndex
        nextLogIndex += 1
        if !logCounts.isEmpty { logCounts[logCounts.count - 1] += 1 }
        guard options.withLog, !overflowed, !options.onlyTopCall || logCounts.count == 1, !open.isEmpty else { return }
        guard record(150 + 70 * log.topics.count + 2 * log.data.count) else { return }
        let last = open.count - 1
        open[last].logs.append(CallFrameLog(log: log, index: index, position: open[last].calls.count))
    }

    // MARK: SELFDESTRUCT

    // The interpreter has no frame hook for SELFDESTRUCT (it ends the frame rather than starting one): the frame is
    // taken from the instruction's step, its value from the transfer it makes, and kept if the step succeeds. The
    // step hooks run for every instruction, so they are inlined tests with the work out of line.

    @inline(__always)
    mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
    ) {
        if opcode == 0xff { noteSelfDestruct(stack: stack, address: address) }
    }

    @inline(never)
    private mutating func noteSelfDestruct(stack: UnsafeBufferPointer<UInt256>, address: Address) {
        guard !options.onlyTopCall, let beneficiary = stack.last else { return }
        selfDestructPending = true
        pendingSelfDestruct = CallFrame(
            type: .selfDestruct, from: address, to: Address(bytes32: beneficiary.bytes32), value: .zero, gas: 0,
            input: [])
    }

    mutating func didTransfer(from sender: Address, to recipient: Address, value: UInt256) {
        if selfDestructPending, pendingSelfDestruct?.from == sender { pendingSelfDestruct?.value = value }
    }

    @inline(__always)
    mutating func didExecute(gasCost: Int64, error: Status?) {
        if selfDestructPending { closeSelfDestruct(error: error) }
    }

    @inline(never)
    private mutating func closeSelfDestruct(error: Status?) {
        selfDestructPending = false
        guard let frame = pendingSelfDestruct else { return }
        pendingSelfDestruct = nil
        guard error == nil, !overflowed, !open.isEmpty, record(230) else { return }
        open[open.count - 1].calls.append(frame)
    }

    mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}

    /// Counts `bytes` against the limit; false (and ``overflowed``) past it.
    private mutating func record(_ bytes: Int) -> Bool {
        recordedBytes += bytes
        if maxBytes > 0 && recordedBytes > maxBytes { overflowed = true }
        return !overflowed
    }
}
