import EVM
import EthereumPrimitives
import EthereumTransactions

extension ChainStore.BlockWrite {
    /// The block as a ``BlockJournal`` record: everything the database gets from it, as RLP —
    /// `[header, hash, [transaction…], [sender…], [receipt…], [[txIndex, address, [topic…], data]…], diff,
    /// [[[address, exists, nonce, balance, codeHash]…], [cleared address…], [[address, slot, value]…], [[hash, code]…]],
    /// [ommer…], [withdrawal…]]`, then, for a block mined on dev changes, their encoding (``PendingDevState/encoded``; a
    /// record without it, as an earlier build wrote, is a block without them).
    /// Written with ``RLPWriter`` (one buffer, no item tree): a record is built for every mined block.
    var journalRecord: [UInt8] {
        var writer = RLPWriter(reservingCapacity: 1024)
        writer.list { w in
            w.append(header.encoded)
            w.append(hash)
            w.list { w in for transaction in transactions { w.append(transaction.encoded) } }
            w.list { w in for sender in senders { w.append(sender) } }
            w.list { w in for receipt in receipts { w.append(receipt.encoded) } }
            w.list { w in
                for entry in logs {
                    w.list { w in
                        w.append(integer: UInt64(entry.transactionIndex))
                        w.append(entry.log.address)
                        w.list { w in for topic in entry.log.topics { w.append(topic) } }
                        w.append(entry.log.data)
                    }
                }
            }
            w.append(diff.encoded)
            w.list { w in
                w.list { w in
                    for (address, fields) in state.accounts {
                        w.list { w in
                            w.append(address)
                            w.append(fields != nil)
                            w.append(integer: fields?.nonce ?? 0)
                            w.append(integer: fields?.balance ?? .zero)
                            w.append(fields?.codeHash ?? .zero)
                        }
                    }
                }
                w.list { w in for address in state.clearedStorage { w.append(address) } }
                w.list { w in
                    for (address, slot, value) in state.storage {
                        w.list { w in
                            w.append(address)
                            w.append(integer: slot)
                            w.append(integer: value)
                        }
                    }
                }
                w.list { w in
                    for (hash, code) in state.codes {
                        w.list { w in
                            w.append(hash)
                            w.append(code)
                        }
                    }
                }
            }
            w.list { w in for ommer in ommers { w.append(encoded: RLP.encode(ommer.rlp)) } }
            w.list { w in for withdrawal in withdrawals { w.append(encoded: RLP.encode(withdrawal.rlp)) } }
            if let devChanges, !devChanges.isEmpty { w.append(devChanges.encoded) }
        }
        return writer.bytes
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
