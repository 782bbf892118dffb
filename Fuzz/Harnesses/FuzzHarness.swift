import Dispatch

/// The fuzz targets, one per libFuzzer executable (`Fuzz/Sources/Fuzz<Name>`), with their corpus and regression
/// folders named by `rawValue` (`Fuzz/corpus/rlp`, `Fuzz/regressions/rlp`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `RLP.decode` and the typed RLP readers.
    case rlp
    /// `SignedTransaction.decode` (types 0–4).
    case transaction
    /// `ABIDecoder.decode` against fixed signatures, the type and signature parsers, JSON ABIs, revert data.
    case abi
    /// `Keystore(json:)` and decryption.
    case keystore
    /// The JSON-RPC request parser and the handler's request checks on raw bytes.
    case jsonrpc
    /// The node's whole handler on an in-memory chain, structured calls of every method.
    case node
    /// The auth service's REST handler (`AuthEmulator.handle`).
    case auth
}

/// The harness bodies: one function per ``FuzzTarget``, shared by the libFuzzer executables and the regression
/// tests (`Tests/FuzzRegressionTests`), so a saved input is replayed through exactly the code that found it.
///
/// A harness returns normally when the input was handled (accepted or refused with an error value), throws a
/// ``FuzzInvariantFailure`` when a checked property does not hold, and traps — the crashes libFuzzer looks for —
/// when the code under test does.
public enum FuzzHarness {
    /// Runs one input through `target`'s harness.
    public static func run(_ target: FuzzTarget, _ data: [UInt8]) async throws(FuzzInvariantFailure) {
        switch target {
        case .rlp, .transaction, .abi, .keystore: try syncRun(target, data)
        case .jsonrpc: try await jsonrpc(data)
        case .node: try await node(data)
        case .auth: try await auth(data)
        }
    }

    /// The libFuzzer entry: runs one input and stops the process on a failed invariant, so libFuzzer saves the
    /// input as a crash. Blocks the calling thread (libFuzzer's, not one of Swift's cooperative pool) while the
    /// async harnesses run.
    public static func fuzzOne(_ target: FuzzTarget, _ start: UnsafeRawPointer?, _ count: Int) -> Int32 {
        let data = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        let failure: FuzzInvariantFailure?
        switch target {
        case .rlp, .transaction, .abi, .keystore:
            do { try syncRun(target, data); failure = nil } catch { failure = error }
        case .jsonrpc, .node, .auth:
            let box = FailureBox()
            let done = DispatchSemaphore(value: 0)
            Task {
                do throws(FuzzInvariantFailure) { try await run(target, data) } catch { box.failure = error }
                done.signal()
            }
            done.wait()
            failure = box.failure
        }
        if let failure { fatalError("invariant failed: \(failure)") }
        return 0
    }

    private static func syncRun(_ target: FuzzTarget, _ data: [UInt8]) throws(FuzzInvariantFailure) {
        switch target {
        case .rlp: try rlp(data)
        case .transaction: try transaction(data)
        case .abi: try abi(data)
        case .keystore: try keystore(data)
        case .jsonrpc, .node, .auth: break
        }
    }
}

/// Carries an async harness's failure back to the blocked libFuzzer thread (written before the semaphore is
/// signalled, read after it is waited on).
private final class FailureBox: @unchecked Sendable {
    var failure: FuzzInvariantFailure?
}
