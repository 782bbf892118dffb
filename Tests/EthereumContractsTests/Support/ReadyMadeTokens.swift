import EthereumContracts
import EthereumTokens
import Testing

/// The ready-made bindings of EthereumTokens (generated from the standards' ABIs, not from snekmate's) on the
/// contracts a ``SnekmateScenario`` deployed: what they read must be what the contracts' own bindings read (and, on
/// `carchain node`, what web3.py reads).
enum ReadyMadeTokens {
    /// The scenario's readings of ERC-20, ERC-721 and ERC-1155 state, read through ``ERC20``, ``ERC721`` and ``ERC1155``.
    static func readings(_ deployed: SnekmateScenario.Deployed, backend: any ContractBackend, accounts: [Address]) async throws -> [String: String] {
        let token = ERC20(address: deployed.token.address, backend: backend)
        let nft = ERC721(address: deployed.nft.address, backend: backend)
        let multi = ERC1155(address: deployed.multi.address, backend: backend)
        let (alice, bob, carol) = (accounts[1], accounts[2], accounts[3])
        var readings: [String: String] = [:]
        for (i, account) in accounts.prefix(4).enumerated() {
            readings["erc20.balanceOf.\(i)"] = try await token.balanceOf(owner: account).description
            readings["erc721.balanceOf.\(i)"] = try await nft.balanceOf(owner: account).description
        }
        readings["erc20.totalSupply"] = try await token.totalSupply().description
        readings["erc20.allowance.1.3"] = try await token.allowance(owner: alice, spender: carol).description
        readings["erc721.ownerOf.0"] = try await nft.ownerOf(tokenId: 0).checksummed
        readings["erc721.tokenURI.1"] = try await nft.tokenURI(tokenId: 1)
        readings["erc1155.balanceOfBatch"] = try await multi.balanceOfBatch(owners: [alice, bob, carol], ids: [7, 3, 2]).map(\.description).joined(separator: ",")
        readings["erc1155.uri.7"] = try await multi.uri(id: 7)
        readings["erc20.transferLogs"] = String(try await token.contract.events(ERC20.Transfer.self).count)
        readings["web3.erc20.transfersToBob"] = try await token.contract.events(try ERC20.Transfer.filter(to: bob))
            .map(\.event.value.description).joined(separator: ",")
        readings["web3.erc1155.batches"] = try await multi.contract.events(ERC1155.TransferBatch.self).map {
            $0.event.ids.map(\.description).joined(separator: ",") + "/" + $0.event.values.map(\.description).joined(separator: ",")
        }.joined(separator: ";")
        #expect(try await nft.supportsInterface(interfaceID: [0x80, 0xac, 0x58, 0xcd]))  // ERC-721
        #expect(try await multi.supportsInterface(interfaceID: [0xd9, 0xb6, 0x7a, 0x26]))  // ERC-1155
        return readings
    }

    /// Transfers through the ready-made bindings, their events decoded as the standards' types.
    static func transfers(_ deployed: SnekmateScenario.Deployed, backends: [any ContractBackend], accounts: [Address]) async throws {
        let (alice, bob, carol) = (accounts[1], accounts[2], accounts[3])
        let sent = try await ERC20(address: deployed.token.address, backend: backends[2]).transfer(to: alice, value: 5)
        #expect(try sent.events(ERC20.Transfer.self) == [ERC20.Transfer(from: bob, to: alice, value: 5)])
        #expect(try ERC20.Event.all(in: sent) == [.transfer(ERC20.Transfer(from: bob, to: alice, value: 5))])
        let moved = try await ERC721(address: deployed.nft.address, backend: backends[3])
            .safeTransferFrom_address_address_uint256(from: carol, to: bob, tokenId: 0)
        #expect(try moved.events(ERC721.Transfer.self) == [ERC721.Transfer(from: carol, to: bob, tokenId: 0)])
        #expect(try await ERC721(address: deployed.nft.address, backend: backends[0]).ownerOf(tokenId: 0) == bob)
        let batch = try await ERC1155(address: deployed.multi.address, backend: backends[3])
            .safeBatchTransferFrom(from: carol, to: alice, ids: [2], values: [1], data: [])
        #expect(try batch.events(ERC1155.TransferBatch.self) == [ERC1155.TransferBatch(operator_: carol, from: carol, to: alice, ids: [2], values: [1])])
        // An ERC-20 log is no ERC-721 Transfer (same topic 0, one topic fewer), and the other way round.
        #expect(try sent.events(ERC721.Transfer.self).isEmpty)
        #expect(try moved.events(ERC20.Transfer.self).isEmpty)
    }
}
