import EVM
import EthereumPrimitives
import EthereumTransactions

extension DevChain {
    /// The logs matching `filter` (`eth_getLogs`), in chain order. A block-hash filter first checks
    /// the block's bloom; ranges use the database's topic indexes, and each log's block hash and time
    /// come from the same query.
    public func logs(_ filter: LogFilter) throws(ChainError) -> [LogEntry] {
        let from: UInt64
        let to: UInt64
        if let blockHash = filter.blockHash {
            guard let number = blockNumber(of: blockHash) else { throw .unknownBlock("hash \(blockHash)") }
            if let mined = try minedBlock(number), !mayContain(mined.block.header.logsBloom, filter) { return [] }
            from = number
            to = number
        } else {
            // geth's filter refuses a pending bound: pending logs are not served.
            if filter.fromBlock == .pending || filter.toBlock == .pending { throw .invalidParams("pending logs are not supported") }
            guard let first = resolve(filter.fromBlock ?? .latest) else {
                throw .unknownBlock("fromBlock \(filter.fromBlock ?? .latest)")
            }
            guard let last = resolve(filter.toBlock ?? .latest) else {
                // geth's wording and code for a range past the head.
                if case .number? = filter.toBlock { throw .invalidParams("block range extends beyond current head block") }
                throw .unknownBlock("toBlock \(filter.toBlock ?? .latest)")
            }
            guard first <= last else { throw .invalidParams("invalid block range: fromBlock \(first) > toBlock \(last)") }
            from = first
            to = last
        }
        // Blocks the database does not hold yet are read from the block cache, which has them all.
        let written = store.writtenThrough
        var unwrittenEntries: [LogEntry] = []
        var last = to
        if to > written {
            for number in Swift.max(from, written &+ 1)...to {
                guard let mined = blockCache[number] else {
                    // Not expected (an unwritten block is a recent one); the database answers once it has it.
                    unwrittenEntries = []
                    last = to
                    break
                }
                for receipt in mined.receipts {
                    for entry in receipt.logs where filter.matches(entry.log) { unwrittenEntries.append(entry) }
                }
                last = Swift.min(last, number &- 1)
            }
        }
        let rows = from <= last ? try store.logs(from: from, to: last, addresses: filter.addresses, topics: filter.topics) : []
        var entries: [LogEntry] = []
        entries.reserveCapacity(rows.count + unwrittenEntries.count)
        for row in rows {
            entries.append(
                LogEntry(
                    address: row.log.address, topics: row.log.topics, data: row.log.data, blockNumber: row.blockNumber,
                    blockHash: row.blockHash, transactionHash: row.transactionHash,
                    transactionIndex: row.transactionIndex, logIndex: row.logIndex, blockTimestamp: row.blockTimestamp))
        }
        return entries + unwrittenEntries
    }

    /// False when the bloom proves no log of the block can match.
    private func mayContain(_ bloom: Bloom, _ filter: LogFilter) -> Bool {
        if !filter.addresses.isEmpty && !filter.addresses.contains(where: { bloom.mayContain($0.bytes) }) { return false }
        for allowed in filter.topics where !allowed.isEmpty {
            if !allowed.contains(where: { bloom.mayContain($0.bytes) }) { return false }
        }
        return true
    }

    /// Base fees, gas-use ratios and priority-fee percentiles of up to 1024 blocks ending at
    /// `newest` (`eth_feeHistory`).
    public func feeHistory(blockCount: Int, newest: BlockID, rewardPercentiles: [Double]) throws(ChainError) -> FeeHistory {
        guard blockCount >= 1 else { throw .invalidParams("blockCount must be at least 1") }
        for (i, p) in rewardPercentiles.enumerated() {
            guard p >= 0, p <= 100, i == 0 || rewardPercentiles[i - 1] <= p else {
                throw .invalidParams("reward percentiles must ascend within 0…100")
            }
        }
        guard let last = resolve(newest) else { throw .unknownBlock("\(newest)") }
        let count = UInt64(Swift.min(blockCount, 1024, Int(last) + 1))
        let oldest = last + 1 - count
        var history = FeeHistory(
            oldestBlock: oldest, baseFeePerGas: [], gasUsedRatio: [], baseFeePerBlobGas: [], blobGasUsedRatio: [],
            reward: rewardPercentiles.isEmpty ? nil : [])
        var newestHeader = head
        for number in oldest...last {
            guard let mined = try minedBlock(number) else { throw .unknownBlock("\(number)") }
            let header = mined.block.header
            newestHeader = header
            let baseFee = header.baseFeePerGas ?? .zero
            history.baseFeePerGas.append(baseFee)
            history.gasUsedRatio.append(header.gasLimit == 0 ? 0 : Double(header.gasUsed) / Double(header.gasLimit))
            history.baseFeePerBlobGas.append(
                blobBaseFee(of: header) ?? .zero)
            let maxBlob = Double(blobSchedule(for: fork(of: header)).max) * Double(BlobGas.perBlob)
            history.blobGasUsedRatio.append(header.blobGasUsed == nil ? 0 : Double(header.blobGasUsed ?? 0) / maxBlob)
            if !rewardPercentiles.isEmpty {
                history.reward?.append(rewards(mined, baseFee: baseFee, percentiles: rewardPercentiles))
            }
        }
        let nextFork = newestHeader.number == head.number ? pendingFork
            : fork(number: newestHeader.number + 1, timestamp: newestHeader.timestamp + 1)
        if nextFork >= .london {
            history.baseFeePerGas.append(FeeMarket.nextBaseFee(parent: newestHeader, initialBaseFee: config.initialBaseFee))
        } else {
            history.baseFeePerGas.append(.zero)
        }
        history.baseFeePerBlobGas.append(
            nextFork >= .cancun ? nextBlobBaseFee(after: newestHeader, fork: nextFork) : .zero)
        return history
    }

    /// The priority fee at each percentile of the block's gas (geth's method: transactions sorted by
    /// tip, each weighted by its gas used).
    private func rewards(_ mined: MinedBlock, baseFee: UInt256, percentiles: [Double]) -> [UInt256] {
        guard !mined.stored.isEmpty, mined.block.header.gasUsed > 0 else {
            return percentiles.map { _ in .zero }
        }
        let tips = mined.stored.map { receipt in
            (tip: receipt.effectiveGasPrice > baseFee ? receipt.effectiveGasPrice - baseFee : .zero, gas: receipt.gasUsed)
        }.sorted { $0.tip < $1.tip }
        var out: [UInt256] = []
        var index = 0
        var sum = tips[0].gas
        let total = Double(mined.block.header.gasUsed)
        for p in percentiles {
            let threshold = UInt64(total * p / 100)
            while sum < threshold && index < tips.count - 1 {
                index += 1
                sum += tips[index].gas
            }
            out.append(tips[index].tip)
        }
        return out
    }
}
