import EthereumContracts
import Foundation
import Testing

/// One run over snekmate's five contracts through their generated bindings, on any backend: deployments, mints,
/// transfers, approvals, batch transfers, a vault deposit and redemption, role grants, the events they emit, and the
/// reverts they refuse with. `backends[i]` signs as account `i` (0 deploys and owns). The readings at the end are
/// what web3.py must read from the same contracts (tools/xcheck/contracts_web3.py).
struct SnekmateScenario {
    let compiled: Snekmate.Compiled
    let backends: [any ContractBackend]
    let accounts: [Address]

    struct Deployed: Sendable {
        var token: ERC20Token
        var nft: ERC721Token
        var multi: ERC1155Token
        var vault: ERC4626Vault
        var access: AccessControl
        /// keccak256("MINTER_ROLE"), granted and revoked.
        var role: Bytes32
        /// What the contracts hold at the end, by name, as text.
        var readings: [String: String]
    }

    func bytecode(_ name: String) throws -> [UInt8] {
        try #require(compiled.artifacts[name]?.bytecode, "vyper gave no bytecode for \(name)")
    }

    /// Expects a call or transaction to revert with `Error(string)` whose message contains `words`.
    static func expectRevert(_ words: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected a revert with \(String(reflecting: words))", sourceLocation: sourceLocation)
        } catch let error as ContractError {
            guard case .reverted(let revert) = error, case .error(let message) = revert.reason else {
                Issue.record("expected Error(string) with \(String(reflecting: words)), got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(message.contains(words), "\(message)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a ContractError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    func run() async throws -> Deployed {
        let owner = backends[0], a = accounts
        let (alice, bob, carol) = (a[1], a[2], a[3])

        // ERC-20: mint, transfer, approve, transferFrom; events and their filters; reverts.
        let (token, tokenDeployment) = try await ERC20Token.deploy(
            bytecode: try bytecode("ERC20Token"), name: "Snek Token", symbol: "SNEK", decimals: 18, name_eip712: "Snek Token",
            version_eip712: "1", backend: owner)
        #expect(tokenDeployment.succeeded)
        let minted = try await token.mint(owner: alice, amount: 1_000)
        #expect(try minted.events(ERC20Token.Transfer.self) == [ERC20Token.Transfer(sender: .zero, receiver: alice, value: 1_000)])
        try await token.with(backend: backends[1]).transfer(to: bob, amount: 250)
        let approved = try await token.with(backend: backends[1]).approve(spender: carol, amount: 100)
        #expect(try approved.events(ERC20Token.Approval.self) == [ERC20Token.Approval(owner: alice, spender: carol, value: 100)])
        #expect(try ERC20Token.Event.all(in: approved) == [.approval(ERC20Token.Approval(owner: alice, spender: carol, value: 100))])
        // The return value of a state-changing function comes from simulating it.
        #expect(try await token.contract.call(try ERC20Token.Calls.transferFrom(owner: alice, to: bob, amount: 40), options: CallOptions(from: carol)))
        try await token.with(backend: backends[3]).transferFrom(owner: alice, to: bob, amount: 40)
        #expect(try await token.balanceOf(arg0: alice) == 710)
        #expect(try await token.balanceOf(arg0: bob) == 290)
        #expect(try await token.allowance(arg0: alice, arg1: carol) == 60)
        #expect(try await token.name() == "Snek Token")
        #expect(try await token.decimals() == 18)
        let toBob = try await token.contract.events(try ERC20Token.Transfer.filter(receiver: bob))
        #expect(toBob.map(\.event.value) == [250, 40])
        #expect(toBob.allSatisfy { $0.event.sender == alice && $0.blockNumber != nil && $0.transactionHash != nil })
        let domain = try await token.eip712Domain()
        #expect(domain.field1 == "Snek Token" && domain.field2 == "1" && domain.field4 == token.address)
        await Self.expectRevert("transfer amount exceeds balance") { try await token.with(backend: backends[2]).transfer(to: alice, amount: 10_000) }
        await Self.expectRevert("access is denied") { try await token.with(backend: backends[1]).mint(owner: alice, amount: 1) }

        // ERC-721: mint, approve, transferFrom, the overloaded safeTransferFrom, URIs; a refused transfer.
        let (nft, _) = try await ERC721Token.deploy(
            bytecode: try bytecode("ERC721Token"), name: "Snek NFT", symbol: "SNFT", base_uri: "ipfs://base/", name_eip712: "Snek NFT",
            version_eip712: "1", backend: owner)
        let mint0 = try await nft.safe_mint(owner: alice, uri: "one")
        #expect(try mint0.events(ERC721Token.Transfer.self) == [ERC721Token.Transfer(sender: .zero, receiver: alice, token_id: 0)])
        try await nft.safe_mint(owner: bob, uri: "two")
        try await nft.with(backend: backends[1]).approve(to: carol, token_id: 0)
        try await nft.with(backend: backends[3]).transferFrom(owner: alice, to: carol, token_id: 0)
        try await nft.with(backend: backends[2]).safeTransferFrom_address_address_uint256(owner: bob, to: alice, token_id: 1)
        #expect(try await nft.ownerOf(token_id: 0) == carol)
        #expect(try await nft.ownerOf(token_id: 1) == alice)
        #expect(try await nft.tokenURI(token_id: 0) == "ipfs://base/one")
        #expect(try await nft.supportsInterface(interface_id: [0x80, 0xac, 0x58, 0xcd]))  // ERC-721
        await Self.expectRevert("caller is not token owner or approved") {
            try await nft.with(backend: backends[2]).transferFrom(owner: carol, to: bob, token_id: 0)
        }

        // ERC-1155: single and batch mints and transfers, an operator, arrays in and out.
        let (multi, _) = try await ERC1155Token.deploy(bytecode: try bytecode("ERC1155Token"), base_uri: "https://snek/", backend: owner)
        try await multi.safe_mint(owner: alice, id: 7, amount: 50, data: [])
        try await multi.safe_mint_batch(owner: bob, ids: [1, 2, 3], amounts: [10, 20, 30], data: [])
        let single = try await multi.with(backend: backends[1]).safeTransferFrom(owner: alice, to: bob, id: 7, amount: 5, data: [0xca, 0xfe])
        #expect(try single.events(ERC1155Token.TransferSingle.self) == [
            ERC1155Token.TransferSingle(operator_: alice, from: alice, to: bob, id: 7, value: 5)
        ])
        try await multi.with(backend: backends[2]).setApprovalForAll(operator_: carol, approved: true)
        let batch = try await multi.with(backend: backends[3]).safeBatchTransferFrom(owner: bob, to: carol, ids: [1, 2], amounts: [1, 2], data: [])
        #expect(try batch.events(ERC1155Token.TransferBatch.self) == [
            ERC1155Token.TransferBatch(operator_: carol, from: bob, to: carol, ids: [1, 2], values: [1, 2])
        ])
        #expect(try await multi.balanceOfBatch(owners: [alice, bob, bob, carol], ids: [7, 7, 2, 2]) == [45, 5, 18, 2])
        await Self.expectRevert("caller is not token owner or approved") {
            try await multi.with(backend: backends[1]).safeTransferFrom(owner: bob, to: alice, id: 3, amount: 1, data: [])
        }

        // ERC-4626 over the ERC-20: approve, deposit, redeem to another account.
        let (vault, _) = try await ERC4626Vault.deploy(
            bytecode: try bytecode("ERC4626Vault"), name: "Snek Vault", symbol: "vSNEK", asset: token.address, decimals_offset: 0,
            name_eip712: "Snek Vault", version_eip712: "1", backend: owner)
        try await token.with(backend: backends[1]).approve(spender: vault.address, amount: 100)
        #expect(try await vault.previewDeposit(assets: 100) == 100)
        let deposit = try await vault.with(backend: backends[1]).deposit(assets: 100, receiver: alice)
        #expect(try deposit.events(ERC4626Vault.Deposit.self) == [ERC4626Vault.Deposit(sender: alice, owner: alice, assets: 100, shares: 100)])
        let redeemed = try await vault.with(backend: backends[1]).redeem(shares: 30, receiver: bob, owner: alice)
        #expect(try redeemed.events(ERC4626Vault.Withdraw.self).map(\.assets) == [30])
        #expect(try await vault.totalAssets() == 70)
        #expect(try await vault.asset() == token.address)
        await Self.expectRevert("redeem more than maximum") { try await vault.with(backend: backends[1]).redeem(shares: 1_000, receiver: alice, owner: alice) }

        // Access control: grant, a refused grant, revoke; indexed bytes32 topics.
        let (access, _) = try await AccessControl.deploy(bytecode: try bytecode("AccessControl"), backend: owner)
        let role = Keccak256.hash(Array("MINTER_ROLE".utf8))
        let granted = try await access.grantRole(role: role, account: alice)
        #expect(try granted.events(AccessControl.RoleGranted.self) == [AccessControl.RoleGranted(role: role, account: alice, sender: a[0])])
        #expect(try await access.hasRole(arg0: role, arg1: alice))
        await Self.expectRevert("account is missing role") { try await access.with(backend: backends[1]).grantRole(role: role, account: bob) }
        try await access.revokeRole(role: role, account: alice)
        #expect(try await access.hasRole(arg0: role, arg1: alice) == false)
        let grants = try await access.contract.events(try AccessControl.RoleGranted.filter(role: role))
        #expect(grants.map(\.event.account) == [alice])

        var readings: [String: String] = [:]
        for (i, account) in accounts.prefix(4).enumerated() {
            readings["erc20.balanceOf.\(i)"] = try await token.balanceOf(arg0: account).description
            readings["erc721.balanceOf.\(i)"] = try await nft.balanceOf(owner: account).description
            readings["erc4626.balanceOf.\(i)"] = try await vault.balanceOf(arg0: account).description
        }
        readings["erc20.totalSupply"] = try await token.totalSupply().description
        readings["erc20.allowance.1.3"] = try await token.allowance(arg0: alice, arg1: carol).description
        readings["erc721.ownerOf.0"] = try await nft.ownerOf(token_id: 0).checksummed
        readings["erc721.tokenURI.1"] = try await nft.tokenURI(token_id: 1)
        readings["erc1155.balanceOfBatch"] = try await multi.balanceOfBatch(owners: [alice, bob, carol], ids: [7, 3, 2]).map(\.description).joined(separator: ",")
        readings["erc1155.uri.7"] = try await multi.uri(id: 7)
        readings["erc4626.totalAssets"] = try await vault.totalAssets().description
        readings["erc4626.convertToShares.50"] = try await vault.convertToShares(assets: 50).description
        readings["access.hasRole.admin.0"] = String(try await access.hasRole(arg0: try await access.DEFAULT_ADMIN_ROLE(), arg1: a[0]))
        readings["erc20.transferLogs"] = String(try await token.contract.events(ERC20Token.Transfer.self).count)
        readings["web3.erc20.transfersToBob"] = try await token.contract.events(try ERC20Token.Transfer.filter(receiver: bob))
            .map(\.event.value.description).joined(separator: ",")
        readings["web3.erc1155.batches"] = try await multi.contract.events(ERC1155Token.TransferBatch.self).map {
            $0.event.ids.map(\.description).joined(separator: ",") + "/" + $0.event.values.map(\.description).joined(separator: ",")
        }.joined(separator: ";")
        return Deployed(token: token, nft: nft, multi: multi, vault: vault, access: access, role: role, readings: readings)
    }
}
