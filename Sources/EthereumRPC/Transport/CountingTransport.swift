import EthereumWire
import Synchronization

/// A transport that counts the request bodies it carries (each one a round trip: a single call or a whole batch)
/// before handing them to another. It is how a fork's traffic to its remote is measured: the round trips of a
/// first `eth_call` on a fresh fork, none for what the cache holds (ForkRemoteTests, TestChainForkTests, `make
/// bench`'s fork benchmarks).
public final class CountingTransport: RPCTransport {
    private let inner: any RPCTransport
    private let count = Atomic<Int>(0)

    public init(_ inner: any RPCTransport) { self.inner = inner }

    public var endpoint: String { inner.endpoint }

    /// Request bodies sent so far.
    public var roundTrips: Int { count.load(ordering: .relaxed) }

    public func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8] {
        count.wrappingAdd(1, ordering: .relaxed)
        return try await inner.send(body)
    }
}
