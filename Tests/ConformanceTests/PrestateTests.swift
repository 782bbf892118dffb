import Conformance
import Chain
import EVM
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// Prestate files (a state test's `pre`, or burntpix.json's shape) and messages run on them.
@Suite struct PrestateTests {
    @Test func bareAccountsObject() throws {
        let text = """
            {"0x00000000000000000000000000000000000000aa": {"code": "0x6001", "nonce": "0x2", "balance": "1000",
              "storage": {"0x01": "0x2a", "0x02": "0x00"}},
             "0x00000000000000000000000000000000000000bb": {}}
            """
        let file = try PrestateFile(json: Array(text.utf8))
        let a = try #require(file.state[Address("0x00000000000000000000000000000000000000aa")])
        #expect(a.code == [0x60, 0x01] && a.nonce == 2 && a.balance == UInt256(1000))
        #expect(a.storage == [.one: UInt256(42)])  // zero slots are absent
        #expect(file.state.accounts.count == 2)
        #expect(file.to == nil && file.input == nil && file.gas == nil)
    }

    @Test func malformedFilesAreRejectedWithTheReason() {
        let cases: [(String, String)] = [
            ("[1]", "not a JSON object"),
            ("{\"pre\": {\"0x12\": {}}}", "bad address"),
            ("{\"0x00000000000000000000000000000000000000aa\": {\"code\": \"0xzz\"}}", "bad hex"),
            ("{\"0x00000000000000000000000000000000000000aa\": {\"storage\": {\"0x01\": \"x\"}}}", "bad number"),
            ("{\"pre\": {}, \"gas\": \"0x10000000000000000\"}", "64-bit"),
            ("{\"0x00000000000000000000000000000000000000aa\": 5}", "not an object"),
            ("{", "not valid JSON"),
        ]
        for (text, reason) in cases {
            do {
                _ = try PrestateFile(json: Array(text.utf8))
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.contains(reason), "\(text): \(error.description)")
            }
        }
    }

    /// BurntPix (../shared/bench/burntpix.json): 159,033,567 gas under Cancun with the transaction's
    /// 21,344 intrinsic gas (the bench README; evmone 0.15 agrees), 192,288 bytes returned.
    @Test func burntPixUsesTheReferenceGas() throws {
        guard let url = TestPaths.shared("bench/burntpix.json", what: "BurntPix prestate") else { return }
        let file = try PrestateFile(json: Array(try Data(contentsOf: url)))
        #expect(file.state.accounts.count == 4)
        let to = try #require(file.to)
        let gas = try #require(file.gas)
        let call = PrestateCall(
            state: file.state, caller: Address(uint32: 0xca), to: to, input: file.input ?? [], gas: Int64(gas),
            fork: .cancun)
        let buffers = ExecutionBuffers()
        for _ in 0..<2 {  // the second run starts again from the prestate: same gas
            let result = call.run(buffers: buffers)
            #expect(result.isSuccess)
            #expect(call.gasUsed(result) == 159_033_567 - 21_344)
            #expect(result.output.count == 192_288)
        }
    }
}
