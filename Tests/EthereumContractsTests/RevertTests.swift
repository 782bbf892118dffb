import Chain
import EthereumContracts
import EthereumContractsLocal
import Testing

/// Reverts decoded to Swift errors: custom errors of a real contract's ABI (an OpenZeppelin governor, through its
/// generated `Governor.Error`), `Panic(uint256)` and `Error(string)`, in a call, in a gas estimate (nothing sent)
/// and on chain (a fixed gas limit, so the failing transaction is mined and its data recovered by replay).
@Suite struct RevertTests {
    /// Creation code whose runtime reverts with `data` on every call (MSTORE the words, REVERT).
    static func reverter(_ data: [UInt8]) -> [UInt8] {
        var runtime: [UInt8] = []
        var offset = 0
        while offset < data.count {
            var chunk = Array(data[offset..<min(offset + 32, data.count)])
            chunk += [UInt8](repeating: 0, count: 32 - chunk.count)
            runtime += [0x7f] + chunk + [0x61, UInt8(offset >> 8), UInt8(offset & 0xff), 0x52]
            offset += 32
        }
        runtime += [0x61, UInt8(data.count >> 8), UInt8(data.count & 0xff), 0x60, 0x00, 0xfd]
        let n = runtime.count
        let initCode: [UInt8] = [0x61, UInt8(n >> 8), UInt8(n & 0xff), 0x61, 0x00, 0x0f, 0x60, 0x00, 0x39, 0x61, UInt8(n >> 8), UInt8(n & 0xff), 0x60, 0x00, 0xf3]
        return initCode + runtime
    }

    @Test func customErrorsOfAGovernorDecodeToItsErrorEnum() async throws {
        let chain = try await DevChain(config: .deterministic())
        defer { Task { await chain.close() } }
        let backend = try DevChainBackend(chain: chain)
        let error = try #require(Governor.abi.error(named: "GovernorUnexpectedProposalState"))
        let state = Keccak256.hash(Array("expected".utf8))
        let data = try error.encode([.uint(42), .uint(3), .fixedBytes(state.bytes)])
        let (governor, _) = try await Governor.deploy(bytecode: Self.reverter(data), backend: backend)

        // In a call.
        do {
            _ = try await governor.state(proposalId: 42)
            Issue.record("state(42) should revert")
        } catch {
            #expect(Governor.Error(error) == .governorUnexpectedProposalState(proposalId: 42, current: 3, expectedStates: state))
            let revert = try #require((error as? ContractError)?.revert)
            #expect(revert.stage == .call)
            #expect(revert.function == "state(uint256)")
            #expect(revert.customError?.name == "GovernorUnexpectedProposalState")
            #expect("\(error)".contains("GovernorUnexpectedProposalState(proposalId=42, current=3"))
        }
        // In the gas estimate of a transaction: nothing is sent.
        let before = await chain.blockNumber()
        do {
            try await governor.castVote(proposalId: 42, support: 1)
            Issue.record("castVote should revert")
        } catch {
            #expect((error as? ContractError)?.revert?.stage == .estimate)
            #expect(Governor.Error(error) == .governorUnexpectedProposalState(proposalId: 42, current: 3, expectedStates: state))
        }
        #expect(await chain.blockNumber() == before)
        // On chain, with a fixed gas limit: mined, failed, its revert data recovered.
        do {
            try await governor.castVote(proposalId: 42, support: 1, options: TransactOptions(gasLimit: 100_000))
            Issue.record("castVote should revert on chain")
        } catch {
            let revert = try #require((error as? ContractError)?.revert)
            #expect(revert.stage == .mined)
            #expect(revert.outcome?.succeeded == false)
            #expect((revert.outcome?.gasUsed ?? 0) > 21_000)
            #expect(Governor.Error(error) == .governorUnexpectedProposalState(proposalId: 42, current: 3, expectedStates: state))
        }
        #expect(await chain.blockNumber() == before + 1)
    }

    @Test func panicsAndReasonsAndUnknownData() async throws {
        let chain = try await DevChain(config: .deterministic())
        defer { Task { await chain.close() } }
        let backend = try DevChainBackend(chain: chain)
        let cases: [([UInt8], RevertReason)] = [
            (RevertReason.encodePanic(UInt256(0x11)), .panic(PanicCode(UInt256(0x11)))),
            (RevertReason.encodeError("not today"), .error("not today")),
            ([], .empty),
            ([0xde, 0xad, 0xbe, 0xef, 0x01], .unrecognized([0xde, 0xad, 0xbe, 0xef, 0x01])),
        ]
        for (data, expected) in cases {
            let (weth, _) = try await WETH9.deploy(bytecode: Self.reverter(data), backend: backend)
            do {
                _ = try await weth.balanceOf(arg0: .zero)
                Issue.record("balanceOf should revert with \(expected)")
            } catch let error as ContractError {
                #expect(error.revert?.reason == expected)
                #expect(Governor.Error(error) == nil)
            }
        }
    }
}
