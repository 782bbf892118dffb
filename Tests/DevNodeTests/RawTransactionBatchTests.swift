import Chain
import DevNode
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Testing

/// A JSON-RPC batch of raw transactions has their senders recovered on a worker thread while the chain mines the first
/// ones (``DevChain/recoverSenders(_:)``). Whatever the worker and the submissions do first, the batch must answer
/// exactly what the same requests answer one at a time — the independent truth here — and leave nothing behind.
@Suite struct RawTransactionBatchTests {
    static func transfer(_ key: PrivateKey, nonce: UInt64, to: Address) -> SignedTransaction {
        Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainId: 4, nonce: nonce, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gasLimit: 21_000, to: to,
                value: UInt256(UInt64(1_000 + nonce)), data: [])
        ).sign(with: key)
    }

    /// Twelve transfers from three senders, interleaved; bytes that are not a transaction; a transaction sent twice;
    /// and one whose signature was altered (it recovers to an account with nothing to pay with).
    static func requests() -> (raws: [String], senders: [Bytes32: Address]) {
        let keys = DevAccounts.standard.prefix(3).compactMap(\.privateKey)
        let recipient = DevAccounts.standard[5].address
        var raws: [String] = []
        var senders: [Bytes32: Address] = [:]
        for nonce in 0..<4 as Range<UInt64> {
            for key in keys {
                let signed = transfer(key, nonce: nonce, to: recipient)
                raws.append(Hex.encode(signed.encoded))
                senders[signed.hash] = key.address
            }
        }
        raws.insert("0x1234", at: 5)
        raws.insert(raws[2], at: 8)
        var altered = transfer(keys[0], nonce: 4, to: recipient).encoded
        altered[altered.count - 40] ^= 0x01  // a byte of r
        raws.append(Hex.encode(altered))
        return (raws, senders)
    }

    static func body(_ raws: [String]) -> String {
        "[" + raws.enumerated().map { i, raw in
            "{\"jsonrpc\":\"2.0\",\"id\":\(i),\"method\":\"eth_sendRawTransaction\",\"params\":[\"\(raw)\"]}"
        }.joined(separator: ",") + "]"
    }

    /// `workerFirst`: the senders are recovered by the worker before the batch is sent (the batch's own call then queues
    /// nothing new), so every submission takes the worker's answer; otherwise the batch runs as a client's would, and
    /// which of the worker and the submissions comes first is up to the scheduler (where the tests' threads are all
    /// busy, the submissions recover every sender themselves).
    @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
    func aBatchAnswersWhatSingleRequestsAnswer(automine: Bool, workerFirst: Bool) async throws {
        let (raws, senders) = Self.requests()
        let batched = try await HandlerHarness.make()
        let single = try await HandlerHarness.make()
        if workerFirst {
            batched.chain.recoverSenders(raws.map { (try? Hex.decode($0)) ?? [] })
            let deadline = ContinuousClock.now + .seconds(10)
            while batched.chain.recoveredSenders.unfinished > 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            // Every transaction but the first (its submission recovers it) and the bytes that do not decode.
            #expect(batched.chain.recoveredSenders.count == senders.count)
            #expect(batched.chain.recoveredSenders.unfinished == 0)
        }
        if !automine {
            _ = try await batched.result("evm_setAutomine", "[false]")
            _ = try await single.result("evm_setAutomine", "[false]")
        }
        let answers = try #require(try await batched.raw(Self.body(raws)).arrayValue)
        var expected: [JSONValue] = []
        for (i, raw) in raws.enumerated() {
            expected.append(try await single.raw(
                "{\"jsonrpc\":\"2.0\",\"id\":\(i),\"method\":\"eth_sendRawTransaction\",\"params\":[\"\(raw)\"]}"))
        }
        #expect(answers == expected)
        // Twelve accepted, the other three refused (not a transaction, already known, nothing to pay with).
        #expect(answers.filter { $0["result"] != nil }.count == 12)
        #expect(answers.filter { $0["error"] != nil }.count == 3)

        if !automine {
            _ = try await batched.result("evm_mine")
            _ = try await single.result("evm_mine")
        }
        for harness in [batched, single] {
            for (hash, sender) in senders {
                let receipt = try await harness.result("eth_getTransactionReceipt", "[\"\(hash.hexString)\"]")
                #expect(receipt["from"]?.stringValue == sender.checksummed.lowercased())
                #expect(receipt["status"] == .string("0x1"))
            }
        }
        #expect(try await batched.result("eth_blockNumber") == (try await single.result("eth_blockNumber")))
        // The worker's entries all went to their submissions (the worker may still be finishing the last one).
        let deadline = ContinuousClock.now + .seconds(5)
        while batched.chain.recoveredSenders.count > 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(batched.chain.recoveredSenders.count == 0)
    }
}
