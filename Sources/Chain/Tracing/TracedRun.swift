import EVM
import EthereumPrimitives
import EthereumTransactions

/// One execution to trace: a mined transaction being replayed, or `debug_traceCall`'s call. It runs once under
/// whichever tracer a ``TracerConfiguration`` names (the interpreter is generic over the tracer, so each runs
/// specialised: the no-op tracer's hooks compile away).
protocol TraceTarget {
    /// What the tracers need to know before the run.
    var context: TraceContext { get }
    /// Runs once with `tracer`; with `capturingStates`, the outcome holds the state before and after (the prestate
    /// tracer reads both).
    mutating func run<T: Tracer>(_ tracer: inout T, capturingStates: Bool) throws(ChainError) -> TracedOutcome
}

/// What a traced transaction is, for the tracers that report it whole.
struct TraceContext {
    /// Its gas limit (the outermost call frame's `gas`).
    var gasLimit: UInt64
    var sender: Address
    var coinbase: Address
    /// EIP-7702 authorizations (their authorities count as touched by the prestate tracer).
    var authorizations: [SignedAuthorization]
    var fork: Hardfork
    /// How many logs the block's earlier transactions emitted (the index of the first log).
    var logIndex: Int
}

/// How a traced run ended.
struct TracedOutcome {
    var status: Status
    /// Gas used after the refund (the receipt's).
    var gasUsed: UInt64
    var output: [UInt8]
    /// The logs it emitted.
    var logCount: Int
    /// The state before the run and after it (transaction ended: self-destructed and touched empty accounts gone),
    /// when asked for.
    var states: (pre: JournaledState, post: JournaledState)?
}

extension TracerConfiguration {
    /// Runs `target` under this tracer and returns its result and the estimated size of its JSON, which may not pass
    /// `maxBytes` (0: no limit; ``ChainError/traceTooLarge(_:)`` past it). A run stopped by its deadline is
    /// ``ChainError/executionTimeout(_:)`` after `timeout`.
    func trace<Target: TraceTarget>(
        _ target: inout Target, maxBytes: Int, timeout: Duration?
    ) throws(ChainError) -> (result: TraceResult, bytes: Int, logCount: Int) {
        let context = target.context
        func ran(_ outcome: TracedOutcome) throws(ChainError) -> TracedOutcome {
            if outcome.status == .aborted { throw .executionTimeout(timeout ?? .zero) }
            return outcome
        }
        func tooLarge(_ what: String, _ remedy: String) -> ChainError {
            .traceTooLarge("the \(what) passed \(maxBytes) bytes; \(remedy)")
        }
        switch self {
        case .structLogger(let options):
            var tracer = StructLogTracer(options: options, maxBytes: maxBytes)
            let outcome = try ran(target.run(&tracer, capturingStates: false))
            if tracer.overflowed {
                throw .traceTooLarge(
                    "the struct logs passed \(maxBytes) bytes after \(tracer.logs.count) steps; ask for less with the "
                        + "tracer options limit, disableStack, disableStorage or enableMemory: false")
            }
            let trace = StructLogTrace(
                gas: outcome.gasUsed, failed: !outcome.status.isSuccess, returnValue: outcome.output,
                structLogs: tracer.logs)
            return (.structLogs(trace), tracer.recordedBytes, outcome.logCount)
        case .callTracer(let options):
            var tracer = CallTracer(options: options, gasLimit: context.gasLimit, logIndex: context.logIndex, maxBytes: maxBytes)
            let outcome = try ran(target.run(&tracer, capturingStates: false))
            if tracer.overflowed {
                throw tooLarge("call frames", "ask for less with the callTracer option onlyTopCall (or withLog: false)")
            }
            guard let frame = tracer.result(gasUsed: outcome.gasUsed) else {
                throw .executionFailed("the call tracer saw no outermost frame end")
            }
            return (.callFrame(frame), tracer.recordedBytes, outcome.logCount)
        case .prestateTracer(let options):
            let authorities = context.authorizations.compactMap { try? $0.authority() }
            var tracer = PrestateTracer(fork: context.fork, initial: [context.sender, context.coinbase] + authorities)
            let outcome = try ran(target.run(&tracer, capturingStates: true))
            guard let states = outcome.states else { throw .executionFailed("the prestate tracer got no state to read") }
            let trace = tracer.result(pre: states.pre, post: states.post, options: options)
            let bytes = trace.estimatedJSONSize
            if maxBytes > 0 && bytes > maxBytes {
                throw tooLarge("prestate", "ask for less with the prestateTracer options disableCode or disableStorage")
            }
            return (.prestate(trace), bytes, outcome.logCount)
        case .fourByteTracer:
            var tracer = FourByteTracer(fork: context.fork)
            let outcome = try ran(target.run(&tracer, capturingStates: false))
            if maxBytes > 0 && tracer.recordedBytes > maxBytes { throw tooLarge("4byte counts", "trace fewer calls") }
            return (.fourByte(tracer.counts), tracer.recordedBytes, outcome.logCount)
        case .noopTracer:
            var tracer = NoTracer()
            let outcome = try ran(target.run(&tracer, capturingStates: false))
            return (.noop, 2, outcome.logCount)
        }
    }
}
