import Hummingbird

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
                try? await Task.sleep(for: timeout)
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
