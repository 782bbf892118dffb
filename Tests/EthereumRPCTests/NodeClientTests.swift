import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import Testing
import TestSupport

/// The typed reads against tools/pyevm-node.py (skipped without the Python venv).
@Suite(.serialized) struct NodeClientTests {
    static let devAccount0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

    @Test func readsFromAFreshNode() async throws {
        guard let node = try ProcessPyEVMNode.start(for: "NodeClientTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try RPCClient(url: node.url, timeout: 20)
        #expect(try await client.chainID() == 4)
        #expect(try await client.netVersion() == "4")
        #expect(try await client.clientVersion().contains("pyevm-node"))
        #expect(try await client.blockNumber() == 0)
        let accounts = try await client.accounts()
        #expect(accounts.count == 10)
        #expect(accounts.first == (try Address(Self.devAccount0)))
        let tenThousandEther = try Units.parse("10000 ether")
        #expect(try await client.balance(of: accounts[0]) == tenThousandEther)
        #expect(try await client.transactionCount(of: accounts[0], at: .pending) == 0)
        #expect(try await client.code(at: accounts[0]).isEmpty)
        #expect(try await client.storage(at: accounts[0], slot: .zero) == .zero)
        #expect(try await client.gasPrice() > .zero)
        #expect(try await client.maxPriorityFeePerGas() > .zero)
        let genesis = try #require(try await client.block(.latest))
        #expect(genesis.number == 0)
        #expect(genesis.baseFeePerGas != nil)
        #expect(try await client.block(hash: genesis.hash)?.hash == genesis.hash)
        #expect(try await client.block(.number(5)) == nil)
        let history = try await client.feeHistory(blockCount: 1, rewardPercentiles: [50])
        #expect(history.baseFeePerGas.count == 2)
        #expect(try await client.transaction(.zero) == nil)
        #expect(try await client.receipt(.zero) == nil)
        #expect(try await client.logs(LogFilter(fromBlock: .earliest)).isEmpty)
        // A plain transfer's estimate is the intrinsic gas.
        #expect(try await client.estimateGas(CallRequest(from: accounts[0], to: accounts[1], value: UInt256(1))) == 21_000)

        let balances = try await client.batch(accounts.map { RPCMethods.balance(of: $0) })
        #expect(try balances.map { try $0.get() } == Array(repeating: tenThousandEther, count: 10))
    }

    @Test func nodeErrorsKeepTheirCodes() async throws {
        guard let node = try ProcessPyEVMNode.start(for: "NodeClientTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try RPCClient(url: node.url, timeout: 20)
        do {
            _ = try await client.request("eth_noSuchMethod")
            Issue.record("expected an error")
        } catch {
            guard case .jsonRPC(-32601, _, _, "eth_noSuchMethod") = error else { Issue.record("got \(error)"); return }
        }
        do {
            _ = try await client.request("eth_getBalance", [.string("0x12")])
            Issue.record("expected an error")
        } catch {
            guard case .jsonRPC(-32602, let message, _, _) = error else { Issue.record("got \(error)"); return }
            #expect(message.contains("address"))
        }
        // An unprotected (pre-EIP-155) legacy transaction is refused: v = 27, any signature.
        do {
            _ = try await client.sendRawTransaction(Self.unprotectedTransaction)
            Issue.record("expected a refusal")
        } catch {
            guard case .jsonRPC(-32000, let message, _, _) = error else { Issue.record("got \(error)"); return }
            #expect(message == "only replay-protected (EIP-155) transactions allowed over RPC")
        }
    }

    @Test func wrongChainIDNodeReportsIt() async throws {
        guard let node = try ProcessPyEVMNode.start(["--chain-id", "5"], for: "NodeClientTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try RPCClient(url: node.url, timeout: 20)
        #expect(try await client.chainID() == 5)
    }

    @Test func hangingNodeTimesOut() async throws {
        guard let node = try ProcessPyEVMNode.start(["--hang"], for: "NodeClientTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try RPCClient(url: node.url, timeout: 0.5)
        let start = ContinuousClock.now
        await #expect(throws: RPCError.transport(.timeout(seconds: 0.5), method: "eth_chainId", endpoint: node.url)) {
            _ = try await client.chainID()
        }
        // The bound only has to tell the 0.5 s setting from the 30 s default; a loaded 2-core CI took 3.6 s.
        #expect(ContinuousClock.now - start < .seconds(15))
    }

    /// rlp([0, 1, 21000, 0x00…01, 0, "", 27, 1, 1]): a legacy transaction signed without a chain id.
    static let unprotectedTransaction: [UInt8] = {
        let items: [RLPItem] = [
            .bytes([]), .bytes([1]), RLPItem(unsignedInteger: 21_000), .bytes([UInt8](repeating: 0, count: 19) + [1]),
            .bytes([]), .bytes([]), .bytes([27]), .bytes([1]), .bytes([1]),
        ]
        return RLP.encode(.list(items))
    }()
}
