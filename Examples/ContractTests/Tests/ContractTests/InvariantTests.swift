import EthereumContracts
import EthereumTesting
import Foundation
import Testing

/// snekmate's ERC-20 under random sequences of calls from four actors (forge's invariant testing): after every call
/// the total supply must equal the sum of the actors' balances (no one else ever holds tokens).
@Suite(.serialized) struct InvariantTests {
    @Test func erc20TotalSupplyIsTheSumOfBalancesOverTenThousandCalls() async throws {
        guard let (t, token) = try await TokenTests.token() else { return }
        defer { Task { await t.close() } }
        let owner = t.accounts[0]  // the deployer: owner and minter
        let actors = [owner, t.makeAddress("alice"), t.makeAddress("bob"), t.makeAddress("carol")]
        let invariants = InvariantTest(
            chain: t, actors: actors,
            actions: [
                // Only the owner may mint: the other actors' mints revert and are skipped, as forge skips them.
                .init("mint") { _ = try await token.mint(owner: $0.target, amount: UInt256($0.value)) },
                .init("transfer") { _ = try await token.transfer(to: $0.target, amount: UInt256($0.value)) },
                .init("approve") { _ = try await token.approve(spender: $0.target, amount: UInt256($0.value)) },
                .init("transferFrom") { _ = try await token.transferFrom(owner: $0.target, to: $0.actor, amount: UInt256($0.value)) },
                .init("burn") { _ = try await token.burn(amount: UInt256($0.value)) },
                .init("burn_from") { _ = try await token.burn_from(owner: $0.target, amount: UInt256($0.value)) },
            ],
            invariants: [
                .init("totalSupply is the sum of balances") { _ in
                    var sum = UInt256.zero
                    for actor in actors { sum = sum &+ (try await token.balanceOf(arg0: actor)) }
                    let supply = try await token.totalSupply()
                    return supply == sum ? nil : "totalSupply \(supply), balances add up to \(sum)"
                }
            ])
        let clock = ContinuousClock()
        let start = clock.now
        // 200 sequences of 1 to 120 calls: 12,100 calls on average, never fewer than 10,000 in practice (σ ≈ 490).
        let outcome = await invariants.run(runs: 200, depth: 120, maxValue: 500)
        let elapsed = clock.now - start
        #expect(outcome.failure == nil)
        #expect(outcome.calls >= 10_000, "only \(outcome.calls) calls in \(outcome.sequences) sequences")
        // Both kinds of step happened: calls that changed balances and calls the token refused.
        #expect(outcome.reverts > 0 && outcome.reverts < outcome.calls, "\(outcome.reverts) of \(outcome.calls) reverted")
        print("ERC-20 invariant run: \(outcome.calls) calls (\(outcome.reverts) reverted) in \(outcome.sequences) sequences, \(elapsed)")
        // Every run started from, and left, the freshly deployed token.
        #expect(try await token.totalSupply() == 0)
    }
}
