import EthereumPrimitives
import EthereumTransactions

// The byte-level decoders: each harness feeds the input to the public decoder and, when it accepts the bytes,
// checks what a strict decoder promises — the canonical encoding is the only one accepted, so encoding what was
// decoded gives the input back.

extension FuzzHarness {
    /// `RLP.decode`: accepted input is canonical, so `encode(decode(x)) == x`; the typed readers used by the
    /// transaction and trie decoders run on every item and may throw but never trap.
    static func rlp(_ data: [UInt8]) throws(FuzzInvariantFailure) {
        let item: RLPItem
        do { item = try RLP.decode(data) } catch {
            _ = String(describing: error)
            return
        }
        let encoded = RLP.encode(item)
        guard encoded == data else {
            throw FuzzInvariantFailure(.rlp, "decode→encode differs: \(Hex.encode(data)) → \(Hex.encode(encoded))")
        }
        guard RLP.encodedSize(item) == data.count else {
            throw FuzzInvariantFailure(.rlp, "encodedSize \(RLP.encodedSize(item)) for \(data.count) bytes")
        }
        var budget = 4096  // typed reads per input, so a list of 100,000 items stays fast
        readTyped(item, budget: &budget)
    }

    private static func readTyped(_ item: RLPItem, budget: inout Int) {
        guard budget > 0 else { return }
        budget -= 1
        _ = try? UInt64(rlp: item)
        _ = try? UInt8(rlp: item)
        _ = try? Int(rlp: item)
        _ = try? Bool(rlp: item)
        _ = try? String(rlp: item)
        _ = try? Bytes32(rlp: item)
        _ = try? [Bytes32](rlp: item)
        _ = try? [UInt64](rlp: item)
        if let items = item.listValue {
            if let reader = try? RLPListReader(item, expectedCount: items.count) { _ = try? reader.finish() }
            for child in items { readTyped(child, budget: &budget) }
        }
    }

    /// `SignedTransaction.decode`: an accepted envelope re-encodes from its fields to the same bytes (the decoder
    /// is strict), decodes again to an equal value, survives the block-body form, and sender recovery, signing
    /// hash and intrinsic gas for every fork do not trap.
    static func transaction(_ data: [UInt8]) throws(FuzzInvariantFailure) {
        let decoded: SignedTransaction
        do { decoded = try SignedTransaction.decode(data) } catch {
            _ = String(describing: error)
            return
        }
        let rebuilt = SignedTransaction(transaction: decoded.transaction, signature: decoded.signature)
        guard rebuilt.encoded == data else {
            throw FuzzInvariantFailure(
                .transaction, "decode→encode differs: \(Hex.encode(data)) → \(Hex.encode(rebuilt.encoded))")
        }
        guard rebuilt.hash == decoded.hash else { throw FuzzInvariantFailure(.transaction, "hash differs after re-encoding") }
        let again: SignedTransaction
        do { again = try SignedTransaction.decode(rebuilt.encoded) } catch {
            throw FuzzInvariantFailure(.transaction, "re-encoded transaction does not decode: \(error)")
        }
        guard again == decoded else { throw FuzzInvariantFailure(.transaction, "decode(encode(tx)) != tx") }
        do {
            let body = try SignedTransaction.decode(blockBodyItem: decoded.blockBodyItem)
            guard body == decoded else { throw FuzzInvariantFailure(.transaction, "block-body form decodes differently") }
        } catch let failure as FuzzInvariantFailure {
            throw failure
        } catch {
            throw FuzzInvariantFailure(.transaction, "block-body form does not decode: \(error)")
        }
        _ = decoded.signingHash
        _ = decoded.yParity
        _ = try? decoded.sender()
        _ = try? decoded.sender(allowHighS: true)
        for fork in Hardfork.allCases {
            _ = decoded.transaction.intrinsicGas(fork: fork)
            _ = try? decoded.validate(for: fork, chainID: 1)
        }
    }
}
