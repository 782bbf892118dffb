import Chain
import EthereumContracts
import EthereumTesting
import Foundation
import Testing
import TestSupport

/// EthereumTesting's bench and cheatcodes on contracts nobody here wrote (snekmate's ERC-20 and ERC-4626, compiled by
/// the venv's vyper) and on the small bank of testdata/contracts/testing, through their generated bindings.
@Suite(.serialized) struct TestChainTests {
    static let ether = UInt256(1_000_000_000_000_000_000 as UInt64)

    /// snekmate's ERC-20 on a fresh bench, labelled, and three key-less actors.
    static func token() async throws -> (TestChain, ERC20Token, alice: Address, bob: Address, carol: Address)? {
        guard let compiled = try await Snekmate.compiled() else { return nil }
        let t = try await TestChain()
        let bytecode = try #require(compiled.artifacts["ERC20Token"]?.bytecode)
        let (token, _) = try await ERC20Token.deploy(
            bytecode: bytecode, name: "Snek Token", symbol: "SNEK", decimals: 18, name_eip712: "Snek Token", version_eip712: "1",
            backend: t)
        t.label(token.address, "ERC20Token", abi: ERC20Token.abi)
        return (t, token, t.makeAddress("alice"), t.makeAddress("bob"), t.makeAddress("carol"))
    }

    @Test func erc20WithPranksDealsSnapshotsAndExpectations() async throws {
        guard let (t, token, alice, bob, carol) = try await Self.token() else { return }
        defer { Task { await t.close() } }

        // expectEmit: the mint's Transfer from the zero address, decoded and compared field by field.
        let minted = try await t.expectEmit(ERC20Token.Transfer(sender: .zero, receiver: alice, value: 1_000), from: token.address) {
            try await token.mint(owner: alice, amount: 1_000)
        }
        #expect(minted.count == 1)

        // prank: alice has no key and no ether, yet sends (gas is free on the bench).
        try await t.prank(alice) { _ = try await token.transfer(to: bob, amount: 250) }
        #expect(try await token.balanceOf(arg0: bob) == 250)
        #expect(try await token.balanceOf(arg0: alice) == 750)
        #expect(try await t.balance(alice) == .zero)
        let revert = try await t.expectRevert("erc20: transfer amount exceeds balance") {
            try await t.prank(alice) { _ = try await token.transfer(to: bob, amount: 751) }
        }
        #expect(revert.stage == .mined && revert.function == "transfer(address,uint256)")
        // Only the owner mints: a prank of bob is refused with snekmate's message.
        try await t.expectRevert("erc20: access is denied") { try await t.prank(bob) { _ = try await token.mint(owner: bob, amount: 1) } }

        // startPrank lasts until stopPrank; calls see the pranked sender too.
        t.startPrank(bob)
        try await token.approve(spender: carol, amount: 100)
        #expect(t.defaultSender == bob)
        t.stopPrank()
        #expect(t.defaultSender == t.accounts[0])
        #expect(try await token.allowance(arg0: bob, arg1: carol) == 100)
        try await t.prank(carol) { _ = try await token.transferFrom(owner: bob, to: carol, amount: 60) }
        #expect(try await token.balanceOf(arg0: carol) == 60)
        try await t.expectRevert("erc20: insufficient allowance") {
            try await t.prank(carol) { _ = try await token.transferFrom(owner: bob, to: carol, amount: 41) }
        }

        // deal: ether, and token balances by storage-slot search (vyper's layout, found by tracing balanceOf).
        try await t.deal(alice, 3 * Self.ether)
        #expect(try await t.balance(alice) == 3 * Self.ether)
        let dave = t.makeAddress("dave")
        try await t.deal(token: token.address, to: dave, amount: 5_000)
        #expect(try await token.balanceOf(arg0: dave) == 5_000)
        #expect(try await token.totalSupply() == 1_000)
        try await t.deal(token: token.address, to: dave, amount: 7_000, adjustTotalSupply: true)
        #expect(try await token.balanceOf(arg0: dave) == 7_000)
        #expect(try await token.totalSupply() == 3_000)  // moved by 7,000 − 5,000
        try await t.prank(dave) { _ = try await token.transfer(to: alice, amount: 1) }  // the dealt balance is real
        #expect(try await token.balanceOf(arg0: alice) == 751)

        // snapshot / revert: state, blocks and time come back.
        let block = await t.blockNumber()
        let id = try await t.snapshot()
        try await t.prank(bob) { _ = try await token.transfer(to: alice, amount: 190) }
        #expect(try await token.balanceOf(arg0: bob) == 0)
        try await t.revert(to: id)
        #expect(try await token.balanceOf(arg0: bob) == 190)
        #expect(await t.blockNumber() == block)
        await #expect(throws: TestFailure.self) { try await t.revert(to: id) }  // forgotten once used

        // recordLogs: every log of the bench's transactions, consumed by recordedLogs().
        t.recordLogs()
        try await token.mint(owner: bob, amount: 1)
        try await t.prank(bob) { _ = try await token.approve(spender: alice, amount: 9) }
        let logs = t.recordedLogs()
        #expect(logs.count == 2)
        #expect(try logs.first.flatMap { try ERC20Token.Transfer(log: $0) } == ERC20Token.Transfer(sender: .zero, receiver: bob, value: 1))
        #expect(try logs.last.flatMap { try ERC20Token.Approval(log: $0) } == ERC20Token.Approval(owner: bob, spender: alice, value: 9))
        #expect(t.recordedLogs().isEmpty)

        // store / load / setNonce / setCode / roll.
        let slot = UInt256(7)
        try await t.store(carol, slot: slot, value: 42)
        #expect(try await t.load(carol, slot: slot) == 42)
        try await t.setNonce(carol, 5)
        #expect(try await t.chain.nonce(carol) == 5)
        try await t.setCode(carol, [0x60, 0x00])
        #expect(try await t.code(at: carol, block: .latest) == [0x60, 0x00])
        let head = await t.blockNumber()
        try await t.roll(head + 25)
        #expect(await t.blockNumber() == head + 25)
        await #expect(throws: TestFailure.self) { try await t.roll(head) }
    }

    @Test func vaultDepositsAndRedemptionsUnderPranks() async throws {
        guard let (t, token, alice, bob, _) = try await Self.token(), let compiled = try await Snekmate.compiled() else { return }
        defer { Task { await t.close() } }
        let (vault, _) = try await ERC4626Vault.deploy(
            bytecode: try #require(compiled.artifacts["ERC4626Vault"]?.bytecode), name: "Snek Vault", symbol: "vSNEK",
            asset: token.address, decimals_offset: 0, name_eip712: "Snek Vault", version_eip712: "1", backend: t)
        t.label(vault.address, "ERC4626Vault", abi: ERC4626Vault.abi)
        try await t.deal(token: token.address, to: alice, amount: 1_000, adjustTotalSupply: true)
        try await t.prank(alice) {
            _ = try await token.approve(spender: vault.address, amount: 400)
            _ = try await vault.deposit(assets: 400, receiver: alice)
        }
        #expect(try await vault.balanceOf(arg0: alice) == 400)
        #expect(try await token.balanceOf(arg0: vault.address) == 400)
        try await t.expectRevert("erc4626: redeem more than maximum") {
            try await t.prank(alice) { _ = try await vault.redeem(shares: 401, receiver: alice, owner: alice) }
        }
        // bob redeems alice's shares only with an allowance.
        try await t.expectRevert("erc20: insufficient allowance") {
            try await t.prank(bob) { _ = try await vault.redeem(shares: 100, receiver: bob, owner: alice) }
        }
        try await t.prank(alice) { _ = try await vault.approve(spender: bob, amount: 100) }
        try await t.prank(bob) { _ = try await vault.redeem(shares: 100, receiver: bob, owner: alice) }
        #expect(try await token.balanceOf(arg0: bob) == 100)
        #expect(try await vault.totalAssets() == 300)
    }

    @Test func bankCustomErrorsWarpAndFailureTraces() async throws {
        guard let artifact = try await TestContracts.bank() else { return }
        let t = try await TestChain()
        defer { Task { await t.close() } }
        let opens = await t.timestamp() + 3_600
        let (bank, _) = try await Bank.deploy(bytecode: try #require(artifact.bytecode), opens_at: UInt256(opens), backend: t)
        t.label(bank.address, "Bank", abi: Bank.abi)
        let alice = t.makeAddress("alice")
        // testdata/abi/testing/Bank.json is still what vyper writes, plus the custom error vyper does not list.
        #expect(artifact.abi.functions == Bank.abi.functions && artifact.abi.events == Bank.abi.events)
        #expect(Bank.abi.errors.map(\.name) == ["InsufficientBalance"])

        // warp: closed until `opens`, open at exactly `opens` (calls see the warped time).
        try await t.expectRevert("bank: closed") { try await t.prank(alice) { _ = try await bank.deposit(amount: 5) } }
        try await t.warp(opens)
        #expect(await t.timestamp() == opens)
        try await t.expectEmit(Bank.Deposited(owner: alice, amount: 5), from: bank.address) {
            try await t.prank(alice) { _ = try await bank.deposit(amount: 5) }
        }
        await #expect(throws: (any Error).self) { try await t.warp(opens) }  // time only moves forward
        try await t.skip(100)
        #expect(await t.timestamp() == opens + 1 + 100)  // the deposit's block was opens + 1

        // A custom error, arguments included (raised by vyper's raw_revert, decoded through the binding's ABI).
        try await t.expectRevert(Bank.Error.insufficientBalance(available: 5, requested: 6)) {
            try await t.prank(alice) { _ = try await bank.withdraw(amount: 6) }
        }

        // A wrong expectation fails with the decoded revert and the failing transaction's call trace, labelled.
        do {
            try await t.expectRevert(Bank.Error.insufficientBalance(available: 5, requested: 7)) {
                try await t.prank(alice) { _ = try await bank.withdraw(amount: 6) }
            }
            Issue.record("a wrong expectRevert passed")
        } catch let failure as TestFailure {
            let text = failure.description
            #expect(text.contains("expected a revert with InsufficientBalance(available=5, requested=7), got: withdraw(uint256) reverted with InsufficientBalance(available=5, requested=6)"), "\(text)")
            #expect(text.contains("call trace:"), "\(text)")
            #expect(text.contains("alice → Bank.withdraw(amount: 6)"), "\(text)")
            #expect(text.contains("← reverted with InsufficientBalance(available=5, requested=6)"), "\(text)")
        }
        // A call that does not revert fails expectRevert, with its trace and decoded events.
        do {
            try await t.expectRevert { try await t.prank(alice) { _ = try await bank.move(receiver: t.accounts[1], amount: 2) } }
            Issue.record("expectRevert passed on a successful call")
        } catch let failure as TestFailure {
            #expect(failure.description.contains("but the call succeeded"), "\(failure)")
            #expect(failure.description.contains("alice → Bank.move(receiver: account1, amount: 2)"), "\(failure)")
            #expect(failure.description.contains("emit Moved(sender: alice, receiver: account1, amount: 2)"), "\(failure)")
        }
        // expectEmit with a different value fails and says what was emitted.
        do {
            try await t.expectEmit(Bank.Moved(sender: alice, receiver: alice, amount: 1)) {
                try await t.prank(alice) { _ = try await bank.move(receiver: t.accounts[1], amount: 1) }
            }
            Issue.record("expectEmit passed on another event")
        } catch let failure as TestFailure {
            #expect(failure.description.contains("only Moved("), "\(failure)")
        }
    }
}
