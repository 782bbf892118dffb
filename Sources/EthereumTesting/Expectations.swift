import Chain
import EthereumContracts

/// A failed expectation of the test bench: what was expected, what happened (the decoded revert), and the call trace
/// of the transaction involved, with labels. Thrown, so it fails an XCTest or a Swift Testing test alike.
public struct TestFailure: Error, Sendable, CustomStringConvertible {
    /// The whole message.
    public var description: String

    public init(_ description: String) { self.description = description }
}

extension TestChain {
    /// Runs `body`, which must revert (forge's `expectRevert()`); returns the decoded revert.
    @discardableResult
    public func expectRevert(_ body: () async throws -> Void) async throws -> ContractRevert {
        try await expectRevert(describing: "a revert", matches: { _ in true }, body)
    }

    /// Runs `body`, which must revert with `Error(message)` (Solidity's `require(…, message)`, Vyper's
    /// `assert …, message`).
    @discardableResult
    public func expectRevert(_ message: String, _ body: () async throws -> Void) async throws -> ContractRevert {
        try await expectRevert(describing: "a revert with Error(\(JSONValue.quote(message)))", matches: { $0.reason == .error(message) }, body)
    }

    /// Runs `body`, which must revert with the custom error `error` (a generated binding's `Contract.Error` case,
    /// arguments included).
    @discardableResult
    public func expectRevert<E: ContractCustomError & Equatable>(_ error: E, _ body: () async throws -> Void) async throws
        -> ContractRevert
    {
        try await expectRevert(describing: "a revert with \(error)", matches: { E(revert: $0.reason) == error }, body)
    }

    /// Runs `body`, which must revert with `Panic(code)` (`0x11` for checked arithmetic, …).
    @discardableResult
    public func expectRevert(panic code: UInt64, _ body: () async throws -> Void) async throws -> ContractRevert {
        try await expectRevert(
            describing: "a revert with Panic(\(PanicCode(UInt256(code))))", matches: { $0.reason == .panic(PanicCode(UInt256(code))) }, body)
    }

    private func expectRevert(
        describing expected: String, matches: (ContractRevert) -> Bool, _ body: () async throws -> Void
    ) async throws -> ContractRevert {
        do {
            try await body()
        } catch let error as ContractError {
            guard let revert = error.revert else { throw TestFailure("expected \(expected), got: \(error)") }
            guard matches(revert) else {
                throw TestFailure("expected \(expected), got: \(revert)" + (await traceSection(revert.outcome?.transactionHash)))
            }
            return revert
        }
        throw TestFailure("expected \(expected), but the call succeeded" + (await traceSection(transactions.last?.outcome.transactionHash)))
    }

    /// Runs `body`, whose transactions must emit `event` (every field equal; forge's `expectEmit` checking all
    /// topics and data), from `emitter` when given. Returns the events of that type the transactions emitted.
    @discardableResult
    public func expectEmit<E: ContractEvent>(_ event: E, from emitter: Address? = nil, _ body: () async throws -> Void) async throws -> [E] {
        let before = transactions.count
        try await body()
        let sent = transactions.dropFirst(before)
        var seen: [E] = []
        for transaction in sent {
            for log in transaction.outcome.logs where emitter == nil || log.address == emitter {
                if let decoded = try E(log: log) { seen.append(decoded) }
            }
        }
        guard seen.contains(event) else {
            let what = seen.isEmpty ? "no \(E.event.name) event" : "only " + seen.map { "\($0)" }.joined(separator: ", ")
            throw TestFailure(
                "expected the event \(event)\(emitter.map { " from \(name(of: $0))" } ?? ""), the transactions emitted \(what)"
                    + (await traceSection(sent.last?.outcome.transactionHash)))
        }
        return seen
    }

    /// `\n` and the call trace of `hash`, or nothing when there is no transaction to show.
    func traceSection(_ hash: Bytes32?) async -> String {
        guard let hash, let trace = try? await callTrace(hash) else { return "" }
        return "\ncall trace:\n" + trace
    }
}
