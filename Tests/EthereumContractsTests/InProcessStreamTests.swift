import Chain
import EthereumContracts
import EthereumContractsLocal
import Foundation
import Testing
import TestSupport

/// Typed event streams and Multicall3 batches on the in-process chain (DevChainBackend), with snekmate's ERC-20
/// (compiled by the venv's vyper) through its generated binding, and Multicall3's `aggregate3` from
/// testdata/contracts/multicall/Multicall3.vy.
@Suite struct InProcessStreamTests {
    @Test func eventStreamsReplayFollowConfirmAndSeeARevert() async throws {
        guard let compiled = try await Snekmate.compiled() else { return }
        let chain = try await DevChain(config: .deterministic())
        let accounts = Array(chain.accounts.prefix(3))
        let (alice, bob) = (accounts[1], accounts[2])
        let owner = try DevChainBackend(chain: chain, defaultSender: accounts[0])
        let (token, _) = try await ERC20Token.deploy(
            bytecode: try #require(compiled.artifacts["ERC20Token"]?.bytecode), name: "Snek", symbol: "S", decimals: 18,
            name_eip712: "Snek", version_eip712: "1", backend: owner)
        let mint = try await token.mint(owner: alice, amount: 1_000)
        let next = await chain.blockNumber() + 1

        let (replayed, replaying) = Streams.collect(token.contract.stream(try ERC20Token.Transfer.filter(), options: .init(fromBlock: mint.blockNumber)))
        let (live, following) = Streams.collect(token.contract.stream(try ERC20Token.Transfer.filter(receiver: bob), options: .init(fromBlock: next)))
        let (confirmed, confirming) = Streams.collect(
            token.contract.stream(try ERC20Token.Transfer.filter(), options: .init(fromBlock: next, confirmations: 2)))
        defer { [replaying, following, confirming].forEach { $0.cancel() } }

        let asAlice = token.with(backend: try owner.sending(as: alice))
        var receipts: [ContractReceipt] = []
        for amount in [UInt256(10), 20, 30] { receipts.append(try await asAlice.transfer(to: bob, amount: amount)) }

        #expect(await replayed.wait(for: 4))
        #expect(await replayed.items.map(\.event) == [
            ERC20Token.Transfer(sender: .zero, receiver: alice, value: 1_000), ERC20Token.Transfer(sender: alice, receiver: bob, value: 10),
            ERC20Token.Transfer(sender: alice, receiver: bob, value: 20), ERC20Token.Transfer(sender: alice, receiver: bob, value: 30),
        ])
        let replayedHashes = await replayed.items.map(\.transactionHash)
        #expect(replayedHashes == ([mint.transactionHash] + receipts.map(\.transactionHash)).map { Optional($0) })
        #expect(await live.wait(for: 3))
        #expect(await live.items.map(\.event.value) == [10, 20, 30])
        let liveBlocks = await live.items.map(\.blockNumber)
        #expect(liveBlocks == receipts.map { Optional($0.blockNumber) })
        // Two confirmations: the last transfer's block has none on top yet.
        #expect(await confirmed.wait(for: 2))
        try await Task.sleep(for: .milliseconds(200))
        #expect(await confirmed.items.map(\.event.value) == [10, 20])
        _ = try await chain.mine()
        #expect(await confirmed.wait(for: 3))
        #expect(await confirmed.items.map(\.event.value) == [10, 20, 30])

        // A revert takes a block away; the transfer mined at its number instead is delivered too.
        let snapshot = try await chain.snapshot()
        let dropped = try await asAlice.transfer(to: bob, amount: 40)
        #expect(await live.wait(for: 4))
        #expect(try await chain.revert(to: snapshot))
        let replacing = try await asAlice.transfer(to: bob, amount: 41)
        #expect(replacing.blockNumber == dropped.blockNumber && replacing.transactionHash != dropped.transactionHash)
        #expect(await live.wait(for: 5))
        try await Task.sleep(for: .milliseconds(200))
        #expect(await live.items.map(\.event.value) == [10, 20, 30, 40, 41])
        #expect(await live.items.last?.transactionHash == replacing.transactionHash)
        #expect(await replayed.error == nil)
        #expect(await live.error == nil)
        #expect(await confirmed.error == nil)
        await chain.close()
    }

    @Test func multicallBatchesTypedCallsWithPerCallFailures() async throws {
        guard let compiled = try await Snekmate.compiled(), let multicall3 = try await RuntimeContracts.multicall3() else { return }
        let chain = try await DevChain(config: .deterministic())
        defer { Task { await chain.close() } }
        try await MulticallScenario.run(
            backend: try DevChainBackend(chain: chain), accounts: Array(chain.accounts.prefix(3)),
            tokenBytecode: try #require(compiled.artifacts["ERC20Token"]?.bytecode), multicallArtifact: multicall3,
            ethBalance: { try await chain.balance($0) })
    }
}

/// Multicall3's `aggregate3` on any backend: a token's typed reads and a failing transfer batched with the
/// multicall's own `getEthBalance`, each result decoded as its call says; the whole batch reverting when a call
/// that may not fail does; the canonical address without a contract there.
enum MulticallScenario {
    static func run(
        backend: any ContractBackend, accounts: [Address], tokenBytecode: [UInt8], multicallArtifact: ContractArtifact,
        ethBalance: (Address) async throws -> UInt256
    ) async throws {
        let (alice, bob) = (accounts[1], accounts[2])
        let (token, _) = try await ERC20Token.deploy(
            bytecode: tokenBytecode, name: "Snek", symbol: "S", decimals: 18, name_eip712: "Snek", version_eip712: "1", backend: backend)
        try await token.mint(owner: alice, amount: 500)
        let (deployed, _) = try await Contract.deploy(multicallArtifact, backend: backend)
        let multicall = Multicall(backend: backend, address: deployed.address)

        // Different output types in one eth_call: a tuple of typed results.
        let (balance, name, failing, decimals, aliceEth) = try await multicall.aggregate3(
            token.contract.multicall(try ERC20Token.Calls.balanceOf(arg0: alice)),
            token.contract.multicall(try ERC20Token.Calls.name()),
            // msg.sender is the multicall, which holds no tokens: this transfer reverts, and may.
            token.contract.multicall(try ERC20Token.Calls.transfer(to: bob, amount: 1)),
            token.contract.multicall(try ERC20Token.Calls.decimals()),
            try multicall.ethBalance(of: alice))
        #expect(try balance.get() == 500)
        #expect(try name.get() == "Snek")
        #expect(try decimals.get() == 18)
        #expect(try aliceEth.get() == (try await ethBalance(alice)))
        guard case .failure(let error) = failing, case .reverted(let revert) = error, case .error(let message) = revert.reason else {
            Issue.record("the transfer should fail with Error(string), got \(failing)")
            return
        }
        #expect(message.contains("transfer amount exceeds balance"), "\(message)")
        #expect(revert.function == "transfer(address,uint256)")

        // One output type: an array of results, in order; each equal to the call made alone.
        let owners = [alice, bob, accounts[0]]
        let balances = try await multicall.aggregate3(try owners.map { token.contract.multicall(try ERC20Token.Calls.balanceOf(arg0: $0)) })
        #expect(try balances.map { try $0.get() } == [500, 0, 0])
        for (owner, result) in zip(owners, balances) { #expect(try await token.balanceOf(arg0: owner) == (try result.get())) }
        #expect(try await multicall.aggregate3([Multicall.Call<UInt256>]()).isEmpty)

        // A failing call that may not fail reverts the whole batch.
        do {
            _ = try await multicall.aggregate3([token.contract.multicall(try ERC20Token.Calls.transfer(to: bob, amount: 1), allowFailure: false)])
            Issue.record("the batch should revert")
        } catch let error as ContractError {
            guard case .reverted(let revert) = error, case .error(let message) = revert.reason else {
                Issue.record("expected Error(string), got \(error)")
                return
            }
            #expect(message == "Multicall3: call failed" && revert.function == "aggregate3((address,bool,bytes)[])")
        }

        // The canonical address holds nothing on a fresh chain: said so, with the way out.
        do {
            _ = try await Multicall(backend: backend).aggregate3([token.contract.multicall(try ERC20Token.Calls.name())])
            Issue.record("no multicall at the canonical address")
        } catch let error as ContractError {
            #expect("\(error)".hasPrefix("no Multicall3 at 0xcA11bde05977b3631167028862bE2a173976CA11 on this chain"), "\(error)")
        }
    }
}
