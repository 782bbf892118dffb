import EthereumContracts
import EthereumTesting
import Foundation
import Testing

/// snekmate's ERC-20 and ERC-4626 (contracts nobody here wrote) on the in-process bench, through the bindings the
/// ContractBindings plugin generated from ABIs/: pranks of key-less addresses, warps against a permit's deadline,
/// expected reverts and events, snapshots.
@Suite(.serialized) struct TokenTests {
    /// A fresh bench with snekmate's ERC-20 deployed by account 0 (its owner and minter), labelled.
    static func token() async throws -> (TestChain, ERC20Token)? {
        guard let bytecode = try await Compiled.bytecode("ERC20Token") else { return nil }
        let t = try await TestChain()
        let (token, _) = try await ERC20Token.deploy(
            bytecode: bytecode, name: "Snek Token", symbol: "SNEK", decimals: 18, name_eip712: "Snek Token", version_eip712: "1",
            backend: t)
        t.label(token.address, "ERC20Token", abi: ERC20Token.abi)
        return (t, token)
    }

    @Test func theBindingsAreWhatVyperCompiles() async throws {
        guard let artifacts = try await Compiled.artifacts() else { return }
        // The ABIs the bindings were generated from are still what vyper writes for the sources compiled here.
        #expect(artifacts["ERC20Token"]?.abi.functions == ERC20Token.abi.functions)
        #expect(artifacts["ERC4626Vault"]?.abi.functions == ERC4626Vault.abi.functions)
        #expect(artifacts["FeeVault"]?.abi.functions == FeeVault.abi.functions)
        #expect(artifacts["FeeVault"]?.abi.events == FeeVault.abi.events)
    }

    @Test func transfersAllowancesAndRevertsUnderPranks() async throws {
        guard let (t, token) = try await Self.token() else { return }
        defer { Task { await t.close() } }
        let alice = t.makeAddress("alice")
        let bob = t.makeAddress("bob")

        try await t.expectEmit(ERC20Token.Transfer(sender: .zero, receiver: alice, value: 1_000), from: token.address) {
            _ = try await token.mint(owner: alice, amount: 1_000)
        }
        // alice has no key and no ether: the prank sends as her, gas is free on the bench.
        try await t.prank(alice) { _ = try await token.transfer(to: bob, amount: 400) }
        #expect(try await token.balanceOf(arg0: alice) == 600)
        #expect(try await token.balanceOf(arg0: bob) == 400)
        #expect(try await t.balance(alice) == .zero)

        let revert = try await t.expectRevert("erc20: transfer amount exceeds balance") {
            try await t.prank(alice) { _ = try await token.transfer(to: bob, amount: 601) }
        }
        #expect(revert.function == "transfer(address,uint256)")
        try await t.expectRevert("erc20: access is denied") { try await t.prank(bob) { _ = try await token.mint(owner: bob, amount: 1) } }
        try await t.expectRevert("erc20: transfer to the zero address") {
            try await t.prank(alice) { _ = try await token.transfer(to: .zero, amount: 1) }
        }

        // Allowances: bob spends what alice approved, and not a unit more.
        try await t.prank(alice) { _ = try await token.approve(spender: bob, amount: 150) }
        try await t.prank(bob) { _ = try await token.transferFrom(owner: alice, to: bob, amount: 100) }
        #expect(try await token.allowance(arg0: alice, arg1: bob) == 50)
        try await t.expectRevert("erc20: insufficient allowance") {
            try await t.prank(bob) { _ = try await token.transferFrom(owner: alice, to: bob, amount: 51) }
        }

        // A snapshot brings balances back.
        let id = try await t.snapshot()
        try await t.prank(bob) { _ = try await token.burn(amount: 500) }
        #expect(try await token.totalSupply() == 500)
        try await t.revert(to: id)
        #expect(try await token.totalSupply() == 1_000)
        #expect(try await token.balanceOf(arg0: bob) == 500)
    }

    @Test func permitsExpireWhenTimeIsWarpedPastTheirDeadline() async throws {
        guard let (t, token) = try await Self.token() else { return }
        defer { Task { await t.close() } }
        // The owner signs off-chain (EIP-712), a relayer without the key submits: permit's whole point.
        let ownerKey = try PrivateKey(bytes: Keccak256.hash(Array("contract-tests permit owner".utf8)).bytes)
        let owner = ownerKey.address
        t.label(owner, "owner")
        let relayer = t.makeAddress("relayer")
        let spender = t.makeAddress("spender")
        let deadline = await t.timestamp() + 3_600
        let chainID = try await t.chainID()
        let domainSeparator = try await token.DOMAIN_SEPARATOR()

        func permit(amount: UInt256, nonce: UInt256) throws -> Signature {
            let document = """
                {"types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                                            {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                           "Permit": [{"name": "owner", "type": "address"}, {"name": "spender", "type": "address"},
                                      {"name": "value", "type": "uint256"}, {"name": "nonce", "type": "uint256"},
                                      {"name": "deadline", "type": "uint256"}]},
                 "primaryType": "Permit",
                 "domain": {"name": "Snek Token", "version": "1", "chainId": "\(chainID)",
                            "verifyingContract": "\(token.address)"},
                 "message": {"owner": "\(owner)", "spender": "\(spender)", "value": "\(amount)", "nonce": "\(nonce)",
                             "deadline": "\(deadline)"}}
                """
            let typed = try TypedData(jsonText: document)
            // Our EIP-712 domain is the contract's.
            #expect(try typed.domainSeparator() == domainSeparator)
            return try typed.sign(with: ownerKey)
        }

        let first = try permit(amount: 300, nonce: 0)
        try await t.prank(relayer) {
            _ = try await token.permit(
                owner: owner, spender: spender, amount: 300, deadline: UInt256(deadline), v: 27 + first.recoveryID, r: first.r, s: first.s)
        }
        #expect(try await token.allowance(arg0: owner, arg1: spender) == 300)
        #expect(try await token.nonces(arg0: owner) == 1)
        // The same signature again: the nonce has moved on, so it recovers another signer.
        try await t.expectRevert("erc20: invalid signature") {
            try await t.prank(relayer) {
                _ = try await token.permit(
                    owner: owner, spender: spender, amount: 300, deadline: UInt256(deadline), v: 27 + first.recoveryID, r: first.r, s: first.s)
            }
        }
        // A fresh permit is valid up to its deadline inclusive: warp to the deadline, then one second past it.
        let second = try permit(amount: 500, nonce: 1)
        let id = try await t.snapshot()
        try await t.warp(deadline - 1)  // the permit's block is the next second: exactly the deadline
        try await t.prank(relayer) {
            _ = try await token.permit(
                owner: owner, spender: spender, amount: 500, deadline: UInt256(deadline), v: 27 + second.recoveryID, r: second.r, s: second.s)
        }
        #expect(try await token.allowance(arg0: owner, arg1: spender) == 500)
        try await t.revert(to: id)
        try await t.warp(deadline)
        try await t.expectRevert("erc20: expired deadline") {
            try await t.prank(relayer) {
                _ = try await token.permit(
                    owner: owner, spender: spender, amount: 500, deadline: UInt256(deadline), v: 27 + second.recoveryID, r: second.r,
                    s: second.s)
            }
        }
        #expect(try await token.allowance(arg0: owner, arg1: spender) == 300)
    }

    @Test func vaultSharesUnderPranksAndAllowances() async throws {
        guard let (t, token) = try await Self.token(), let bytecode = try await Compiled.bytecode("ERC4626Vault") else { return }
        defer { Task { await t.close() } }
        let (vault, _) = try await ERC4626Vault.deploy(
            bytecode: bytecode, name: "Snek Vault", symbol: "vSNEK", asset: token.address, decimals_offset: 0, name_eip712: "Snek Vault",
            version_eip712: "1", backend: t)
        t.label(vault.address, "ERC4626Vault", abi: ERC4626Vault.abi)
        let alice = t.makeAddress("alice")
        let bob = t.makeAddress("bob")
        // deal finds the ERC-20's balance slot by tracing balanceOf, as forge's stdstore does.
        try await t.deal(token: token.address, to: alice, amount: 1_000, adjustTotalSupply: true)
        #expect(try await token.totalSupply() == 1_000)

        try await t.expectRevert("erc20: insufficient allowance") {
            try await t.prank(alice) { _ = try await vault.deposit(assets: 400, receiver: alice) }
        }
        try await t.prank(alice) {
            _ = try await token.approve(spender: vault.address, amount: 400)
            _ = try await vault.deposit(assets: 400, receiver: alice)
        }
        #expect(try await vault.balanceOf(arg0: alice) == 400)
        #expect(try await vault.totalAssets() == 400)
        // Assets given to the vault without shares raise every share's worth: 400 shares now redeem 800 assets.
        try await t.deal(token: token.address, to: vault.address, amount: 800)
        #expect(try await vault.previewRedeem(shares: 400) == 799)  // 400 × (800 + 1) / (400 + 1), rounded down (snekmate counts one virtual asset and share)
        try await t.expectRevert("erc4626: redeem more than maximum") {
            try await t.prank(alice) { _ = try await vault.redeem(shares: 401, receiver: alice, owner: alice) }
        }
        try await t.expectRevert("erc20: insufficient allowance") {
            try await t.prank(bob) { _ = try await vault.redeem(shares: 100, receiver: bob, owner: alice) }
        }
        try await t.prank(alice) { _ = try await vault.approve(spender: bob, amount: 100) }
        try await t.prank(bob) { _ = try await vault.redeem(shares: 100, receiver: bob, owner: alice) }
        #expect(try await token.balanceOf(arg0: bob) == 199)
        #expect(try await vault.balanceOf(arg0: alice) == 300)
    }
}
