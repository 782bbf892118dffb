import Chain
import DevNode
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import Testing

/// EIP-7702 and EIP-7910 through the project's own JSON-RPC client over the in-process transport: what a Swift app
/// sees of a type-4 transaction (its authorization list read back from the node), a call carrying an authorization
/// list, and `eth_config`.
@Suite struct SetCodeClientTests {
    /// SSTORE(0, 42); return ADDRESS as a word.
    static let runtime = "0x602a60005530600052602060" + "00f3"
    static let delegate = "0x00000000000000000000000000000000000c0de0"

    @Test func typeFourThroughTheClient() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.result("anvil_setCode", "[\"\(Self.delegate)\",\"\(Self.runtime)\"]")
        let client = RPCClient(transport: InProcessTransport(handler: h.handler, endpoint: "in-process"))
        let sponsor = try #require(DevAccounts.standard[1].privateKey)
        let authority = try PrivateKey(bytes: [UInt8](repeating: 0x61, count: 32))
        let delegate = try Address(Self.delegate)
        let auth = Authorization(chainId: UInt256(4), address: delegate, nonce: 0).sign(with: authority)

        // A call applying the authorization sees the delegate's code run as the authority.
        let call = CallRequest(from: sponsor.address, to: authority.address, authorizationList: [auth])
        #expect(try await client.call(call) == [UInt8](repeating: 0, count: 12) + authority.address.bytes)
        let gas = try await client.estimateGas(call)

        let tx = Transaction.setCode(
            SetCodeTransaction(
                chainId: 4, nonce: 0, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(10_000_000_000 as UInt64), gasLimit: gas, to: authority.address,
                authorizationList: [auth])
        ).sign(with: sponsor)
        let hash = try await client.sendRawTransaction(tx.encoded)
        #expect(hash == tx.hash)
        let read = try #require(try await client.transaction(hash))
        #expect(read.type == 4)
        #expect(read.authorizationList == [auth])
        let receipt = try #require(try await client.receipt(hash))
        #expect(receipt.status == true)
        #expect(try await client.code(at: authority.address) == Delegation.designator(to: delegate))

        // eth_config: one fork from genesis, its id the CRC-32 of the genesis hash.
        let config = try await h.result("eth_config")
        #expect(config["next"] == .null && config["last"] == .null)
        #expect(config["current"]?["chainId"] == .string("0x4"))
        #expect(config["current"]?["precompiles"]?["P256VERIFY"] == .string("0x0000000000000000000000000000000000000100"))
        let expected = await h.chain.forkConfiguration().forkId
        #expect(config["current"]?["forkId"] == .string("0x" + String(format: "%08x", expected)))
    }

    /// Malformed authorization lists in a call object are -32602 with the field named; a valid shape that cannot
    /// apply (another chain, a bad signature) is skipped, as in a mined transaction.
    @Test func malformedAuthorizationListsAreInvalidParams() async throws {
        let h = try await HandlerHarness.make()
        let good = "{\"chainId\":\"0x4\",\"address\":\"\(Self.delegate)\",\"nonce\":\"0x0\",\"yParity\":\"0x0\",\"r\":\"0x1\",\"s\":\"0x1\"}"
        let cases: [(String, String)] = [
            ("\"nope\"", "authorizationList"),
            ("[\"nope\"]", "authorizationList[0]"),
            ("[{\"chainId\":\"0x4\"}]", "authorizationList[0].nonce: missing"),
            ("[" + good.replacingOccurrences(of: "\"yParity\":\"0x0\"", with: "\"yParity\":\"0x100\"") + "]", "above 255"),
            ("[" + good.replacingOccurrences(of: "\"nonce\":\"0x0\"", with: "\"nonce\":\"0x10000000000000000\"") + "]", "nonce"),
            ("[" + good.replacingOccurrences(of: "\"r\":\"0x1\",", with: "") + "]", "authorizationList[0].r: missing"),
        ]
        for (list, message) in cases {
            let answer = try await h.answer("eth_call", "[{\"to\":\"\(Self.delegate)\",\"authorizationList\":\(list)}]")
            #expect(answer["error"]?["code"] == .number("-32602"), "\(list): \(answer)")
            #expect(answer["error"]?["message"]?.stringValue?.contains(message) == true, "\(list): \(answer)")
        }
        // Well-formed but signed by no key we know (r = s = 1): whatever it recovers to, if anything, is not the
        // callee, so the call runs on an account without code.
        let skipped = try await h.result("eth_call", "[{\"to\":\"0x00000000000000000000000000000000000000aa\",\"authorizationList\":[\(good)]}]")
        #expect(skipped == .string("0x"))
        _ = try await h.result("eth_estimateGas", "[{\"to\":\"0x00000000000000000000000000000000000000aa\",\"authorizationList\":[\(good)]}]")
    }
}
