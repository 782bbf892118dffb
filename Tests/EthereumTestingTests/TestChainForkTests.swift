import Chain
import EthereumContracts
import EthereumContractsLocal
import EthereumTesting
import Foundation
import Testing
import TestSupport

/// A bench forked from a `carchain node` process over HTTP (Foundry's `vm.createSelectFork(url, block)`): snekmate's
/// ERC-20 is deployed and minted on the node; the fork reads it through its generated binding at the fork block,
/// pranks, deals, warps, sends and snapshots on top while the node stays unchanged, and rolls to the node's latest
/// block; a second fork of the first block with the cache directory answers the same reads without a request.
@Suite(.serialized) struct TestChainForkTests {
    static let ether = UInt256(1_000_000_000_000_000_000 as UInt64)

    /// A key-less address, as `TestChain.makeAddress` derives it.
    static func address(_ name: String) -> Address { Address(bytes32: Keccak256.hash(Array(name.utf8))) }

    @Test func forkOfANodeReadsItsContractKeepsWritesLocalAndCachesWhatItRead() async throws {
        guard let compiled = try await Snekmate.compiled(), let executable = ProcessRunner.carchainExecutable() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("testchain-fork-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cacheDirectory = dir.appendingPathComponent("fork-cache")

        // The remote: a node with the token deployed by its first account and 1,000 minted to alice at block n; one
        // more minted after n, so the fork's pinning shows.
        let node = try BackgroundProcess(executable, ["node", "--port", "0", "--ephemeral"], home: dir.appendingPathComponent("home"))
        defer { node.stop() }
        let url = try #require(node.waitFor("listening on "), "carchain node did not start: \(node.stderr)").trimmingCharacters(in: .whitespaces)
        let client = try RPCClient(url: url)
        let chainID = try await client.chainID()
        let owner = try #require(try await client.accounts().first)
        let remote = RPCContractBackend(
            client: client, signing: .node(account: owner, options: SendOptions(expectedChainID: chainID, receiptTimeout: 30)))
        let bytecode = try #require(compiled.artifacts["ERC20Token"]?.bytecode)
        let (remoteToken, _) = try await ERC20Token.deploy(
            bytecode: bytecode, name: "Snek Token", symbol: "SNEK", decimals: 18, name_eip712: "Snek Token", version_eip712: "1",
            backend: remote)
        let alice = Self.address("alice"), bob = Self.address("bob"), carol = Self.address("carol")
        try await remoteToken.mint(owner: alice, amount: 1_000)
        let n = try await client.blockNumber()
        try await remoteToken.mint(owner: alice, amount: 1)

        // Clear errors for a block the remote does not have.
        do {
            _ = try await TestChain(forkURL: url, blockNumber: n + 1_000_000)
            Issue.record("a fork past the remote's head was made")
        } catch let error as ForkError {
            guard case .blockNotAvailable = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("no block \(n + 1_000_000)"), "\(error)")
        }

        // 1. The fork at n, every request to the node counted.
        let counted = CountingTransport(try HTTPTransport(url: url))
        let t = try await TestChain(fork: ForkSettings(url: url, blockNumber: n, cacheDirectory: cacheDirectory, transport: counted))
        let token = ERC20Token(address: remoteToken.address, backend: t)
        t.label(token.address, "ERC20Token", abi: ERC20Token.abi)
        #expect(t.forkPoint?.number == n && t.forkPoint?.chainId == chainID)
        #expect(try await t.chainID() == chainID)
        #expect(t.accounts.first == owner)  // the same mnemonic: the node's first account owns the token on the fork too
        try await Self.reads(t, token, alice: alice)
        #expect(counted.roundTrips > 0 && t.forkFetches > 0)

        // Writes stay local: a pranked transfer, a revert decoded from the remote's code, ether and tokens dealt, time.
        try await Self.transfer(t, token, alice: alice, bob: bob)
        try await t.expectRevert("erc20: transfer amount exceeds balance") {
            try await t.prank(alice) { _ = try await token.transfer(to: bob, amount: 701) }
        }
        try await t.deal(bob, 2 * Self.ether)
        #expect(try await t.balance(bob) == 2 * Self.ether)
        try await t.deal(token: token.address, to: carol, amount: 50, adjustTotalSupply: true)
        #expect(try await token.balanceOf(arg0: carol) == 50)
        #expect(try await token.totalSupply() == 1_050)
        try await token.mint(owner: carol, amount: 5)  // the remote's owner sends on the fork
        #expect(try await token.balanceOf(arg0: carol) == 55)
        let now = await t.timestamp()
        try await t.warp(now + 3_600)
        #expect(await t.timestamp() == now + 3_600)

        // Snapshots and reverts on top of the fork.
        let id = try await t.snapshot()
        try await t.prank(bob) { _ = try await token.transfer(to: carol, amount: 300) }
        #expect(try await token.balanceOf(arg0: bob) == 0)
        try await t.revert(to: id)
        #expect(try await token.balanceOf(arg0: bob) == 300)
        #expect(try await token.balanceOf(arg0: alice) == 700)

        // The node is unchanged: its latest state, and its state at n.
        #expect(try await remoteToken.balanceOf(arg0: alice) == 1_001)
        #expect(try await remoteToken.balanceOf(arg0: bob) == 0)
        #expect(try await remoteToken.balanceOf(arg0: carol) == 0)
        #expect(try await remoteToken.totalSupply() == 1_001)
        #expect(try await client.balance(of: bob) == .zero)

        // rollFork: the bench continues the node's latest block instead; what it did locally is gone.
        let latest = try await client.blockNumber()
        try await t.rollFork(to: nil)
        #expect(t.forkPoint?.number == latest)
        #expect(try await token.balanceOf(arg0: alice) == 1_001)
        #expect(try await token.balanceOf(arg0: bob) == 0)
        try await t.prank(alice) { _ = try await token.transfer(to: bob, amount: 1) }
        #expect(try await token.balanceOf(arg0: bob) == 1)
        await t.close()

        // 2. The same block forked again with the cache directory: the fork starts from the file and the same reads
        // send nothing to the node; what the file lacks (a later block's system-call slots) is still fetched.
        let second = CountingTransport(try HTTPTransport(url: url))
        let again = try await TestChain(
            fork: ForkSettings(url: url, blockNumber: n, chainID: chainID, cacheDirectory: cacheDirectory, transport: second))
        let cachedToken = ERC20Token(address: remoteToken.address, backend: again)
        try await Self.reads(again, cachedToken, alice: alice)
        #expect(second.roundTrips == 0 && again.forkFetches == 0, "\(second.roundTrips) round trips")
        try await Self.transfer(again, cachedToken, alice: alice, bob: bob)
        await again.close()
    }

    /// The token's state at the fork block, through the generated binding.
    static func reads(_ t: TestChain, _ token: ERC20Token, alice: Address) async throws {
        #expect(try await token.name() == "Snek Token")
        #expect(try await token.balanceOf(arg0: alice) == 1_000)
        #expect(try await token.totalSupply() == 1_000)
        #expect(try await token.owner() == t.accounts[0])
    }

    /// alice (no key, no ether) sends 300 to bob on the fork.
    static func transfer(_ t: TestChain, _ token: ERC20Token, alice: Address, bob: Address) async throws {
        try await t.prank(alice) { _ = try await token.transfer(to: bob, amount: 300) }
        #expect(try await token.balanceOf(arg0: alice) == 700)
        #expect(try await token.balanceOf(arg0: bob) == 300)
    }

    @Test func anUnreachableRemoteIsAClearErrorWithoutItsCredentials() async throws {
        let port = try #require(RefusingPort())
        let secretURL = "http://tester:hunter2@127.0.0.1:\(port.port)/v3/SECRETKEY?apikey=SECRET2"
        do {
            _ = try await TestChain(forkURL: secretURL, blockNumber: 1)
            Issue.record("a fork of a refusing port was made")
        } catch let error as ForkError {
            guard case .unreachable = error else { Issue.record("\(error)"); return }
            let text = error.description
            #expect(text.hasPrefix("fork remote http://127.0.0.1:\(port.port)/… unreachable"), "\(text)")
            for secret in ["hunter2", "tester", "SECRETKEY", "SECRET2"] { #expect(!text.contains(secret), "\(text)") }
        }
        do {
            _ = try await TestChain(forkURL: "ftp://node.example/KEY")
            Issue.record("a fork of an ftp URL was made")
        } catch let error as ForkError {
            #expect(error.description.contains("the scheme must be http or https") && !error.description.contains("KEY"), "\(error)")
        }
    }
}
