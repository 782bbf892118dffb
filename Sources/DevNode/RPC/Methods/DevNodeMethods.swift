import Chain
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// The answers to ``DevNodeRequest``, in anvil's shape (`null` where anvil's method returns `()`), Hardhat's
/// `true` for its own spellings, and geth's shape for `txpool_inspect`.
extension NodeRPCHandler {
    func execute(_ request: DevNodeRequest) async throws(JSONRPCErrorObject) -> JSONValue {
        switch request {
        case .impersonate(let address, let hardhat):
            await chain.impersonate(address)
            return hardhat ? .bool(true) : .null
        case .stopImpersonating(let address, let hardhat):
            await chain.stopImpersonating(address)
            return hardhat ? .bool(true) : .null
        case .autoImpersonate(let on):
            await chain.setAutoImpersonate(on)
            return .null
        case .reset(let hardhat, let forking):
            if let forking { try await refork(forking) } else {
                try await onChain { () async throws(ChainError) in try await chain.reset() }
            }
            return hardhat ? .bool(true) : .null
        case .dumpState:
            return NodeWire.data(await chain.dumpState().encoded)
        case .loadState(let bytes):
            let dump: StateDump
            do { dump = try StateDump(encoded: bytes) } catch { throw .invalidParams("invalid argument 0: \(error.description)") }
            try await onChain { () async throws(ChainError) in try await chain.loadState(dump) }
            return .bool(true)
        case .setBlockGasLimit(let gas):
            try await onChain { () async throws(ChainError) in try await chain.setBlockGasLimit(gas) }
            return .bool(true)
        case .setCoinbase(let address, let hardhat):
            try await onChain { () async throws(ChainError) in try await chain.setCoinbase(address) }
            return hardhat ? .bool(true) : .null
        case .dropTransaction(let hash, let hardhat):
            let dropped = await chain.dropTransaction(hash)
            if hardhat { return .bool(dropped != nil) }
            return dropped.map(NodeWire.hash) ?? .null
        case .setMinGasPrice(let price, let hardhat):
            try await onChain { () async throws(ChainError) in try await chain.setMinGasPrice(price) }
            return hardhat ? .bool(true) : .null
        case .setNextBlockBaseFee(let fee, let hardhat):
            try await onChain { () async throws(ChainError) in try await chain.setNextBlockBaseFee(fee) }
            return hardhat ? .bool(true) : .null
        case .nodeInfo: return await nodeInfo()
        case .metadata(let hardhat): return await metadata(hardhat: hardhat)
        case .txpoolInspect: return await txpoolInspect()
        case .signTypedData(let address, let data):
            guard let key = devKeys[address] else { throw JSONRPCErrorObject(ChainError.unknownAccount(address)) }
            do { return NodeWire.data(try data.sign(with: key).rsv) } catch { throw .invalidParams("invalid argument 1: \(error.description)") }
        case .signTransaction(let call):
            // geth's shape: the EIP-2718 bytes and the signed transaction as an object.
            let signed = try await onChain { () async throws(ChainError) in try await chain.signTransaction(call) }
            return .object([("raw", NodeWire.data(signed.encoded)), ("tx", NodeWire.signedTransaction(signed))])
        case .callWithOverrides(let call, let block, let overrides):
            let result = try await onChain { () async throws(ChainError) in
                try await chain.call(call, at: block, overrides: overrides, limits: limits.calls)
            }
            if let error = result.error { throw JSONRPCErrorObject(error) }
            return NodeWire.data(result.output)
        case .estimateGasWithOverrides(let call, let block, let overrides):
            return NodeWire.q(try await onChain { () async throws(ChainError) in
                try await chain.estimateGas(call, at: block, overrides: overrides, limits: limits.calls)
            })
        case .newPendingTransactionFilter:
            let sequence = await chain.pendingSequence()
            return .string(await filters.install(.pendingTransactions, head: sequence))
        case .dropAllTransactions:
            await chain.dropAllTransactions()
            return .null
        case .setChainId(let id):
            try await onChain { () async throws(ChainError) in try await chain.setChainId(id) }
            return .null
        case .setTime(let timestamp):
            return .number(String(try await onChain { () async throws(ChainError) in try await chain.setTime(timestamp) }))
        case .getAutomine:
            return .bool(await chain.isAutomining)
        case .getIntervalMining:
            // anvil answers whole seconds; a --block-time under a second (or not whole) is written as a decimal.
            guard let interval = await chain.intervalMining() else { return .null }
            let (seconds, attoseconds) = interval.components
            if attoseconds == 0 { return .number(String(seconds)) }
            return .number(String(Double(seconds) + Double(attoseconds) / 1e18))
        case .addBalance(let address, let amount):
            try await onChain { () async throws(ChainError) in try await chain.addBalance(address, amount) }
            return .null
        case .dealERC20(let owner, let token, let amount):
            _ = try await onChain { () async throws(ChainError) in try await chain.dealERC20(owner: owner, token: token, amount: amount) }
            return .null
        case .setERC20Allowance(let owner, let spender, let token, let amount):
            _ = try await onChain { () async throws(ChainError) in
                try await chain.setERC20Allowance(owner: owner, spender: spender, token: token, amount: amount)
            }
            return .null
        }
    }

    /// `anvil_reset` with forking parameters: a new fork of the remote (the current one unless a URL is given) at the
    /// block asked for (its latest unless given), opened as the node's was (cache directory, time limits, chain id).
    private func refork(_ forking: ResetForking) async throws(JSONRPCErrorObject) {
        guard let current = chain.forkCache else {
            throw .invalidParams("forking parameters need a forked node: this node was not started with --fork-url")
        }
        let cache: ForkCache
        do { cache = try await current.remote.reopen(url: forking.url, blockNumber: forking.blockNumber) } catch {
            throw JSONRPCErrorObject(ChainError.fork(error))
        }
        try await onChain { () async throws(ChainError) in try await chain.refork(cache) }
    }

    /// `eth_getFilterChanges` of a pending-transaction filter: the hashes the pool accepted since the last poll.
    func pendingTransactionChanges(_ id: String) async -> JSONValue {
        let sequence = await chain.pendingSequence()
        guard let range = await filters.advance(id, to: sequence) else { return .array([]) }
        return .array(await chain.pendingHashes(range).map(NodeWire.hash))
    }

    /// anvil's `anvil_nodeInfo`: the head, the fork, the fee settings (JSON numbers, as anvil writes them) and
    /// the fork configuration (nulls unless the node forks a remote).
    private func nodeInfo() async -> JSONValue {
        let number = await chain.blockNumber()
        let head = try? await chain.block(.number(number))
        let baseFee = await chain.pendingBaseFee() ?? .zero
        return .object([
            ("currentBlockNumber", .number(String(number))),
            ("currentBlockTimestamp", .number(String(head?.header.timestamp ?? 0))),
            ("currentBlockHash", head.map { NodeWire.hash($0.hash) } ?? .null),
            ("hardFork", .string(chain.hardfork.name.lowercased())),
            ("transactionOrder", .string("fees")),
            ("environment", .object([
                ("baseFee", .number(baseFee.description)),
                ("chainId", .number(String(chain.chainId))),
                ("gasLimit", .number(String(await chain.pendingGasLimit()))),
                ("gasPrice", .number(await chain.gasPrice().description)),
            ])),
            ("forkConfig", .object([
                // The remote's scheme, host and port only: a provider's key in its path never leaves the node.
                ("forkUrl", chain.forkCache.map { JSONValue.string($0.remote.endpoint) } ?? .null),
                ("forkBlockNumber", chain.forkPoint.map { JSONValue.number(String($0.number)) } ?? .null),
                ("forkRetryBackoff", .null),
            ])),
            ("network", .string("ethereum")),
        ])
    }

    /// anvil's `anvil_metadata` (with its snapshots: id → [block number, block hash]) or Hardhat's
    /// `hardhat_metadata` (no snapshots, `forkedNetwork` only when forked).
    private func metadata(hardhat: Bool) async -> JSONValue {
        let number = await chain.blockNumber()
        let hash = (try? await chain.block(.number(number)))?.hash ?? .zero
        var members: [(key: String, value: JSONValue)] = [
            ("clientVersion", .string(clientVersion)),
            ("chainId", .number(String(chain.chainId))),
            ("instanceId", NodeWire.hash(await chain.instanceID())),
            ("latestBlockNumber", .number(String(number))),
            ("latestBlockHash", NodeWire.hash(hash)),
        ]
        let forked: JSONValue? = chain.forkPoint.map { point in
            .object([
                ("chainId", .number(String(point.chainId))), ("forkBlockNumber", .number(String(point.number))),
                ("forkBlockHash", NodeWire.hash(point.hash)),
            ])
        }
        if hardhat, let forked { members.append(("forkedNetwork", forked)) }
        if !hardhat {
            members.append(("forkedNetwork", forked ?? .null))
            let snapshots = await chain.snapshotHeads().map { snapshot in
                (key: String(snapshot.id), value: JSONValue.array([.number(String(snapshot.number)), NodeWire.hash(snapshot.hash)]))
            }
            members.append(("snapshots", .object(snapshots)))
        }
        return .object(members)
    }

    /// geth's `txpool_inspect`: per sender (checksummed) and nonce (decimal), a one-line summary
    /// "TO: VALUE wei + GAS gas × PRICE wei" ("contract creation: ..." without a recipient), the price being
    /// the fee cap of an EIP-1559 transaction.
    private func txpoolInspect() async -> JSONValue {
        let content = await chain.poolContent()
        func summaries(_ bySender: [Address: [UInt64: SignedTransaction]]) -> JSONValue {
            .object(bySender.sorted { $0.key.lowercasedHex < $1.key.lowercasedHex }.map { sender, byNonce in
                (key: sender.checksummed, value: JSONValue.object(byNonce.sorted { $0.key < $1.key }.map { nonce, signed in
                    let tx = signed.transaction
                    let to = tx.to.map { $0.checksummed } ?? "contract creation"
                    return (key: String(nonce), value: .string("\(to): \(tx.value) wei + \(tx.gasLimit) gas × \(tx.maxFeePerGas) wei"))
                }))
            })
        }
        return .object([("pending", summaries(content.pending)), ("queued", summaries(content.queued))])
    }
}
