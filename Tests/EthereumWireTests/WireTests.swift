import EthereumPrimitives
import EthereumTransactions
import EthereumWire
import Foundation
import Testing

/// Wire types read from real answers (captured from tools/pyevm-node.py) and from malformed ones.
@Suite struct WireTests {
    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    @Test func receiptWithALog() throws {
        let receipt = try RPCReceipt(json: try Self.json(Fixtures.receipt))
        #expect(receipt.status == true)
        #expect(receipt.succeeded)
        #expect(receipt.blockNumber == 3)
        #expect(receipt.gasUsed == 0x175f8)
        #expect(receipt.effectiveGasPrice == UInt256(0x69b8d1c0))
        #expect(receipt.feePaid == UInt256(0x175f8) * UInt256(0x69b8d1c0))
        #expect(receipt.contractAddress == nil)
        #expect(receipt.to == (try Address("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512")))
        #expect(receipt.logs.count == 1)
        #expect(receipt.logs[0].topics.count == 1)
        #expect(receipt.logs[0].data.count == 128)
        #expect(receipt.logsBloom.count == 256)
    }

    @Test func blockWithFullTransactions() throws {
        let block = try RPCBlock(json: try Self.json(Fixtures.block))
        #expect(block.number == 3)
        #expect(block.baseFeePerGas != nil)
        guard case .full(let transactions) = block.transactions else {
            Issue.record("expected full transactions")
            return
        }
        #expect(transactions.count == 1)
        let tx = transactions[0]
        #expect(tx.type == 0)
        #expect(tx.nonce == 2)
        #expect(tx.gas == 100_000)
        #expect(tx.blockNumber == 3)
        #expect(tx.v == UInt256(0x2b))  // EIP-155: 4 * 2 + 35
        #expect(Array(tx.input.prefix(4)) == [0x99, 0x5a, 0xc4, 0xfd])  // registerNewUser(string)
        #expect(block.transactions.hashes == [tx.hash])
    }

    @Test func malformedFieldsAreNamed() throws {
        var text = Fixtures.receipt.replacingOccurrences(of: #""gasUsed":"0x175f8""#, with: #""gasUsed":96760"#)
        #expect(throws: WireError("receipt.gasUsed: expected a string, got 96760")) { try RPCReceipt(json: try Self.json(text)) }
        text = Fixtures.receipt.replacingOccurrences(of: #""status":"0x1""#, with: #""status":"0x7""#)
        #expect(throws: WireError("receipt.status: expected 0x0 or 0x1, got 7")) { try RPCReceipt(json: try Self.json(text)) }
        text = Fixtures.receipt.replacingOccurrences(of: #""blockNumber":"0x3","cumulativeGasUsed""#, with: #""cumulativeGasUsed""#)
        #expect(throws: WireError("receipt.blockNumber: missing")) { try RPCReceipt(json: try Self.json(text)) }
    }

    @Test func feeHistory() throws {
        let json = try Self.json(#"{"oldestBlock":"0x1","baseFeePerGas":["0x3b9aca00","0x342770c0","0x2e1e07c0"],"gasUsedRatio":[0.037,0.0],"reward":[["0x3b9aca00"],["0x0"]]}"#)
        let history = try FeeHistory(json: json)
        #expect(history.oldestBlock == 1)
        #expect(history.nextBaseFee == UInt256(0x2e1e07c0))
        #expect(history.gasUsedRatio == [0.037, 0.0])
        #expect(history.reward == [[UInt256(1_000_000_000)], [.zero]])
    }

    @Test func quantities() throws {
        #expect(Quantity.encode(0 as UInt64) == "0x0")
        #expect(Quantity.encode(255 as UInt64) == "0xff")
        #expect(try Quantity.decodeUInt64("0x0") == 0)
        #expect(try Quantity.decodeUInt64("0x00ff") == 255)  // tolerated on input
        #expect(try Quantity.decodeUInt64("0xffffffffffffffff") == UInt64.max)
        #expect(throws: WireError.self) { try Quantity.decodeUInt64("0x10000000000000000") }
        #expect(throws: WireError.self) { try Quantity.decodeUInt64("12") }
        #expect(throws: WireError.self) { try Quantity.decodeUInt64("0xzz") }
        #expect(try Quantity.decodeUInt256("0x" + String(repeating: "f", count: 64)) == UInt256.max)
    }

    @Test func callRequestAndFilterWireForm() throws {
        let to = try Address("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512")
        let call = CallRequest(from: .zero, to: to, gas: 21_000, value: UInt256(16), data: [0xab])
        #expect(call.json.description == #"{"from":"0x0000000000000000000000000000000000000000","to":"0xe7f1725e7734ce288f8367e1bb143e90bb3f0512","gas":"0x5208","value":"0x10","input":"0xab","data":"0xab"}"#)
        let filter = LogFilter(fromBlock: .earliest, toBlock: .number(16), addresses: [to], topics: [nil, [Bytes32.zero]])
        #expect(filter.json.description == #"{"fromBlock":"earliest","toBlock":"0x10","address":"0xe7f1725e7734ce288f8367e1bb143e90bb3f0512","topics":[null,["0x0000000000000000000000000000000000000000000000000000000000000000"]]}"#)
        #expect(BlockTag(parsing: "pending") == .pending)
        #expect(BlockTag(parsing: "0x10") == .number(16))
        #expect(BlockTag(parsing: "17") == .number(17))
        #expect(BlockTag(parsing: "soon") == nil)
    }

    @Test func batchBodyIsAnArrayOfRequests() {
        let body = JSONRPCRequest.batchBody([
            JSONRPCRequest(id: 1, method: "eth_chainId", params: []),
            JSONRPCRequest(id: 2, method: "eth_getBalance", params: [.string("0x00"), .string("latest")]),
        ])
        #expect(String(decoding: body, as: UTF8.self) == #"[{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]},{"jsonrpc":"2.0","id":2,"method":"eth_getBalance","params":["0x00","latest"]}]"#)
    }
}
