import EVM
import EthereumPrimitives
import EthereumTransactions

extension ChainStore.BlockWrite {
    /// The block as a ``BlockJournal`` record: everything the database gets from it, as RLP —
    /// `[header, hash, [transaction…], [sender…], [receipt…], [[txIndex, address, [topic…], data]…], diff,
    /// [[[address, exists, nonce, balance, codeHash]…], [cleared address…], [[address, slot, value]…], [[hash, code]…]],
    /// [ommer…], [withdrawal…]]`, then, for a block mined on dev changes, their encoding (``PendingDevState/encoded``; a
    /// record without it, as an earlier build wrote, is a block without them).
    var journalRecord: [UInt8] {
        let state = RLPItem.list([
            .list(
                self.state.accounts.map { address, fields in
                    .list([
                        .bytes(address.bytes), .bytes(fields == nil ? [] : [1]), RLPItem(unsignedInteger: fields?.nonce ?? 0),
                        .bytes(fields?.balance.minimalBigEndianBytes ?? []), .bytes((fields?.codeHash ?? .zero).bytes),
                    ])
                }),
            .list(self.state.clearedStorage.map { .bytes($0.bytes) }),
            .list(
                self.state.storage.map { address, slot, value in
                    .list([.bytes(address.bytes), .bytes(slot.minimalBigEndianBytes), .bytes(value.minimalBigEndianBytes)])
                }),
            .list(self.state.codes.map { .list([.bytes($0.0.bytes), .bytes($0.1)]) }),
        ])
        var fields: [RLPItem] = [
            .bytes(header.encoded), .bytes(hash.bytes), .list(transactions.map { .bytes($0.encoded) }),
            .list(senders.map { .bytes($0.bytes) }), .list(receipts.map { .bytes($0.encoded) }),
            .list(
                logs.map { entry in
                    .list([
                        RLPItem(unsignedInteger: UInt64(entry.transactionIndex)), .bytes(entry.log.address.bytes),
                        .list(entry.log.topics.map { .bytes($0.bytes) }), .bytes(entry.log.data),
                    ])
                }),
            .bytes(diff.encoded), state, .list(ommers.map(\.rlp)), .list(withdrawals.map(\.rlp)),
        ]
        if let devChanges, !devChanges.isEmpty { fields.append(.bytes(devChanges.encoded)) }
        return RLP.encode(.list(fields))
    }

    /// Decodes ``journalRecord``.
    init(journalRecord bytes: [UInt8]) throws(ChainError) {
        do {
            let decoded = try RLP.decode(bytes)
            var count = 10
            if case .list(let items) = decoded, items.count == 11 { count = 11 }
            let f = try decoded.list(expectedCount: count)
            header = try BlockHeader(encoded: try f[0].byteString())
            hash = try Bytes32(rlp: f[1])
            guard case .list(let txItems) = f[2], case .list(let senderItems) = f[3], case .list(let receiptItems) = f[4],
                case .list(let logItems) = f[5], case .list(let ommerItems) = f[8], case .list(let withdrawalItems) = f[9]
            else { throw RLPError(.expectedList) }
            transactions = []
            for item in txItems { transactions.append(try SignedTransaction.decode(try item.byteString())) }
            senders = []
            for item in senderItems { senders.append(try Address(rlp: item)) }
            receipts = []
            for item in receiptItems { receipts.append(try StoredReceipt(encoded: try item.byteString())) }
            logs = []
            for item in logItems {
                let l = try item.list(expectedCount: 4)
                guard case .list(let topicItems) = l[2] else { throw RLPError(.expectedList) }
                var topics: [Bytes32] = []
                for topic in topicItems { topics.append(try Bytes32(rlp: topic)) }
                let index = try UInt64(rlp: l[0])
                guard index <= UInt64(Int.max) else { throw RLPError(.expectedList) }
                logs.append((Int(index), Log(address: try Address(rlp: l[1]), topics: topics, data: try l[3].byteString())))
            }
            diff = try StateDiff(encoded: try f[6].byteString())
            let s = try f[7].list(expectedCount: 4)
            guard case .list(let accountItems) = s[0], case .list(let clearedItems) = s[1], case .list(let slotItems) = s[2],
                case .list(let codeItems) = s[3]
            else { throw RLPError(.expectedList) }
            var writes = CommittedState.Writes()
            for item in accountItems {
                let a = try item.list(expectedCount: 5)
                let address = try Address(rlp: a[0])
                guard try Bool(rlp: a[1]) else {
                    writes.accounts.append((address, nil))
                    continue
                }
                let balance = UInt256(truncatingBigEndian: try a[3].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
                writes.accounts.append(
                    (address, AccountFields(nonce: try UInt64(rlp: a[2]), balance: balance, codeHash: try Bytes32(rlp: a[4]))))
            }
            for item in clearedItems { writes.clearedStorage.append(try Address(rlp: item)) }
            for item in slotItems {
                let w = try item.list(expectedCount: 3)
                writes.storage.append(
                    (
                        try Address(rlp: w[0]),
                        UInt256(truncatingBigEndian: try w[1].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256")),
                        UInt256(truncatingBigEndian: try w[2].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
                    ))
            }
            for item in codeItems {
                let c = try item.list(expectedCount: 2)
                writes.codes.append((try Bytes32(rlp: c[0]), try c[1].byteString()))
            }
            state = writes
            ommers = []
            for item in ommerItems { ommers.append(try BlockHeader(encoded: RLP.encode(item))) }
            withdrawals = []
            for item in withdrawalItems { withdrawals.append(try Withdrawal(rlp: item)) }
            if f.count == 11 { devChanges = try PendingDevState(encoded: try f[10].byteString()) }
        } catch let error as ChainError {
            throw error
        } catch {
            throw .storage("a journal record does not decode: \(error)")
        }
    }
}
