import Hummingbird
import NIOCore
import NIOPosix
import Synchronization

/// Why a request body could not be read in full.
public enum RequestBodyError: Error, Sendable, Equatable {
    /// The body is larger than the limit (the rest is left unread: the connection cannot carry another request).
    case tooLarge(limit: Int)
    /// The body did not arrive within the deadline (a client that sends headers and then trickles or stops).
    case timedOut(Duration)
}

extension Request {
    /// The body, at most `limit` bytes, received within `timeout` of the call. The one way the servers on the
    /// node's port (JSON-RPC and the auth routes) read a body, so no route can be held open by a slow client.
    ///
    /// The deadline is a timer of the event loop serving the request (``EventLoopSleep``), not `Task.sleep`: every
    /// request arms and cancels one, and a `Task.sleep` is a Dispatch timer whose cancellation wakes Dispatch's
    /// threads — a fifth of the node's CPU time on a request as small as `eth_chainId`.
    public func collectBody(upTo limit: Int, within timeout: Duration) async throws(RequestBodyError) -> [UInt8] {
        // nil: the deadline passed first; .some(nil): the body was too large.
        let outcome: [UInt8]?? = await withTaskGroup(of: [UInt8]??.self) { group in
            group.addTask {
                var request = self
                do {
                    let buffer = try await request.collectBody(upTo: limit)
                    return .some(Array(buffer.readableBytesView))
                } catch {
                    return .some(nil)  // too large (or the connection failed): nothing more can be read
                }
            }
            group.addTask {
                _ = await EventLoopSleep.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        switch outcome {
        case .some(.some(let body)): return body
        case .some(.none): throw .tooLarge(limit: limit)
        case .none: throw .timedOut(timeout)
        }
    }
}

/// A cancellable sleep on a NIO event loop's timer heap (the loop of the calling thread when it is one of the shared
/// group's, as a request's task is): arming and cancelling it touch no other thread.
public enum EventLoopSleep {
    /// Sleeps for `duration`; true when it elapsed, false when the task was cancelled first.
    public static func sleep(for duration: Duration) async -> Bool {
        let delay = TimeAmount(duration)  // clamped to Int64.max nanoseconds
        let timer = Timer()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                timer.start(continuation, on: MultiThreadedEventLoopGroup.singleton.any(), after: delay)
            }
        } onCancel: {
            timer.finish(elapsed: false)
        }
    }

    private final class Timer: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Bool, Never>?
            var scheduled: Scheduled<Void>?
            var finished = false
        }
        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<Bool, Never>, on loop: any EventLoop, after delay: TimeAmount) {
            let cancelledAlready = state.withLock { state in
                if state.finished { return true }
                state.continuation = continuation
                return false
            }
            if cancelledAlready { return continuation.resume(returning: false) }
            let scheduled = loop.scheduleTask(in: delay) { [self] in finish(elapsed: true) }
            let orphaned = state.withLock { state in
                if state.finished { return true }
                state.scheduled = scheduled
                return false
            }
            // Cancelled while the timer was being armed: the cancellation found no timer to cancel.
            if orphaned { scheduled.cancel() }
        }

        func finish(elapsed: Bool) {
            let (continuation, scheduled) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, Scheduled<Void>?) in
                state.finished = true
                defer {
                    state.continuation = nil
                    state.scheduled = nil
                }
                return (state.continuation, state.scheduled)
            }
            if !elapsed { scheduled?.cancel() }
            continuation?.resume(returning: elapsed)
        }
    }
}
