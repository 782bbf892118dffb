import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// The JSON shapes of blocks, transactions, receipts, logs, fee histories and traces, as geth writes
/// them (quantities as minimal hex, data as hex, addresses lowercase).
enum NodeWire {
    static func q(_ value: UInt64) -> JSONValue { .string(Quantity.encode(value)) }
    static func q(_ value: Int) -> JSONValue { q(UInt64(value)) }
    static func q(_ value: UInt256) -> JSONValue { .string(Quantity.encode(value)) }
    static func data(_ bytes: [UInt8]) -> JSONValue { .string(Hex.encode(bytes)) }
    static func hash(_ value: Bytes32) -> JSONValue { .string(Hex.encode(value.bytes)) }
    static func address(_ value: Address) -> JSONValue { .string(value.lowercasedHex) }
    static func address(_ value: Address?) -> JSONValue { value.map { address($0) } ?? .null }

    static func log(_ entry: LogEntry) -> JSONValue {
        .object([
            ("address", address(entry.address)), ("topics", .array(entry.topics.map(hash))), ("data", data(entry.data)),
            ("blockNumber", q(entry.blockNumber)), ("blockHash", hash(entry.blockHash)),
            ("transactionHash", hash(entry.transactionHash)), ("transactionIndex", q(entry.transactionIndex)),
            ("blockTimestamp", q(entry.blockTimestamp)), ("logIndex", q(entry.logIndex)), ("removed", .bool(entry.removed)),
        ])
    }

    /// A receipt, with exactly the members geth's `MarshalReceipt` gives its type: `root` before Byzantium, else
    /// `status`; `blobGasUsed` and `blobGasPrice` for a blob transaction (type 3) only. A type-4 receipt has no
    /// `authorizationList` (the list is the transaction's, in `eth_getTransactionByHash`).
    static func receipt(_ r: Receipt) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("transactionHash", hash(r.transactionHash)), ("transactionIndex", q(r.transactionIndex)),
            ("blockHash", hash(r.blockHash)), ("blockNumber", q(r.blockNumber)), ("from", address(r.from)),
            ("to", address(r.to)), ("cumulativeGasUsed", q(r.cumulativeGasUsed)), ("gasUsed", q(r.gasUsed)),
            ("contractAddress", address(r.contractAddress)), ("logs", .array(r.logs.map(log))),
            ("logsBloom", data(r.logsBloom.bytes)), ("type", q(UInt64(r.type.rawValue))),
            ("effectiveGasPrice", q(r.effectiveGasPrice)),
        ]
        if let root = r.root { members.append(("root", hash(root))) } else { members.append(("status", q(r.status ? 1 : 0))) }
        if r.type == .blob {
            members.append(("blobGasUsed", q(r.blobGasUsed ?? 0)))
            members.append(("blobGasPrice", q(r.blobGasPrice ?? .zero)))
        }
        return .object(members)
    }

    /// A transaction; `baseFee` (of its block) gives the effective `gasPrice` of a mined EIP-1559 one.
    static func transaction(
        _ signed: SignedTransaction, location: TransactionLocation, baseFee: UInt256?
    ) -> JSONValue {
        let tx = signed.transaction
        let price: UInt256
        if let legacy = tx.gasPrice {
            price = legacy
        } else if !location.isPending, let effective = tx.effectiveGasPrice(baseFee: baseFee) {
            price = effective
        } else {
            price = tx.maxFeePerGas
        }
        var members: [(key: String, value: JSONValue)] = [
            ("blockHash", location.blockHash.map(hash) ?? .null),
            ("blockNumber", location.blockNumber.map { q($0) } ?? .null),
            ("blockTimestamp", location.blockTimestamp.map { q($0) } ?? .null),
            ("from", address(location.sender)), ("gas", q(tx.gasLimit)), ("gasPrice", q(price)),
            ("hash", hash(signed.hash)), ("input", data(tx.data)), ("nonce", q(tx.nonce)), ("to", address(tx.to)),
            ("transactionIndex", location.index.map { q($0) } ?? .null), ("value", q(tx.value)),
            ("type", q(UInt64(tx.type.rawValue))),
        ]
        if tx.type != .legacy {
            members.append(("accessList", CallRequest.json(tx.accessList)))
            if tx.type != .accessList {
                members.append(("maxFeePerGas", q(tx.maxFeePerGas)))
                members.append(("maxPriorityFeePerGas", q(tx.maxPriorityFeePerGas)))
            }
        }
        if let chainId = tx.chainId { members.append(("chainId", q(chainId))) }
        if let blobFee = tx.maxFeePerBlobGas { members.append(("maxFeePerBlobGas", q(blobFee))) }
        if tx.type == .blob { members.append(("blobVersionedHashes", .array(tx.blobVersionedHashes.map(hash)))) }
        if tx.type == .setCode { members.append(("authorizationList", SignedAuthorization.json(tx.authorizationList))) }
        members.append(("v", q(signed.signature.v)))
        members.append(("r", q(signed.signature.r)))
        members.append(("s", q(signed.signature.s)))
        if tx.type != .legacy, let parity = signed.yParity { members.append(("yParity", q(UInt64(parity)))) }
        return .object(members)
    }

    /// A transaction as geth's `types.Transaction` marshals it (`eth_signTransaction`'s and `eth_fillTransaction`'s
    /// `tx`): the type's own fields, the fee fields of the other types as null (`gasPrice` of a typed fee-market
    /// transaction, the caps of a legacy or access-list one), `chainId` of a legacy transaction only when it is
    /// EIP-155 protected, `yParity` for typed transactions, and the hash. An unsigned one has zero `v`, `r`, `s`.
    static func signedTransaction(_ signed: SignedTransaction) -> JSONValue {
        let tx = signed.transaction
        var members: [(key: String, value: JSONValue)] = [("type", q(UInt64(tx.type.rawValue)))]
        // A legacy signature is EIP-155 protected when v = chainId × 2 + 35 or 36 (unprotected: 27, 28; unsigned: 0).
        let protected = tx.type != .legacy || signed.signature.v >= UInt256(35)
        if protected, let chainId = tx.chainId { members.append(("chainId", q(chainId))) }
        let dynamic = tx.type == .dynamicFee || tx.type == .blob || tx.type == .setCode
        members += [
            ("nonce", q(tx.nonce)), ("to", address(tx.to)), ("gas", q(tx.gasLimit)),
            ("gasPrice", dynamic ? .null : q(tx.gasPrice ?? tx.maxFeePerGas)),
            ("maxPriorityFeePerGas", dynamic ? q(tx.maxPriorityFeePerGas) : .null),
            ("maxFeePerGas", dynamic ? q(tx.maxFeePerGas) : .null),
        ]
        if let blobFee = tx.maxFeePerBlobGas { members.append(("maxFeePerBlobGas", q(blobFee))) }
        members += [("value", q(tx.value)), ("input", data(tx.data))]
        if tx.type != .legacy { members.append(("accessList", CallRequest.json(tx.accessList))) }
        if tx.type == .blob { members.append(("blobVersionedHashes", .array(tx.blobVersionedHashes.map(hash)))) }
        if tx.type == .setCode { members.append(("authorizationList", SignedAuthorization.json(tx.authorizationList))) }
        members += [("v", q(signed.signature.v)), ("r", q(signed.signature.r)), ("s", q(signed.signature.s))]
        if tx.type != .legacy { members.append(("yParity", q(signed.signature.v))) }
        members.append(("hash", hash(signed.hash)))
        return .object(members)
    }

    /// A pending block or header as geth answers it: `hash`, `nonce` and `miner` null (the block is not sealed).
    static func pending(_ object: JSONValue) -> JSONValue {
        guard case .object(let members) = object else { return object }
        let nulled: Set<String> = ["hash", "nonce", "miner"]
        return .object(members.map { nulled.contains($0.key) ? (key: $0.key, value: .null) : $0 })
    }

    static func block(_ block: Block, full: Bool) -> JSONValue {
        let h = block.header
        var members: [(key: String, value: JSONValue)] = [
            ("number", q(h.number)), ("hash", hash(block.hash)), ("parentHash", hash(h.parentHash)),
            ("nonce", .string(Hex.encode(h.nonce.bigEndianBytes))),
            ("sha3Uncles", hash(h.ommersHash)), ("logsBloom", data(h.logsBloom.bytes)),
            ("transactionsRoot", hash(h.transactionsRoot)), ("stateRoot", hash(h.stateRoot)),
            ("receiptsRoot", hash(h.receiptsRoot)), ("miner", address(h.coinbase)), ("difficulty", q(h.difficulty)),
            ("extraData", data(h.extraData)), ("size", q(block.size)), ("gasLimit", q(h.gasLimit)),
            ("gasUsed", q(h.gasUsed)), ("timestamp", q(h.timestamp)), ("mixHash", hash(h.mixHash)),
            ("uncles", .array(block.ommers.map { hash($0.hash) })),
        ]
        if let baseFee = h.baseFeePerGas { members.append(("baseFeePerGas", q(baseFee))) }
        if let root = h.withdrawalsRoot {
            members.append(("withdrawalsRoot", hash(root)))
            members.append(("withdrawals", .array((block.withdrawals ?? []).map(withdrawal))))
        }
        if let used = h.blobGasUsed { members.append(("blobGasUsed", q(used))) }
        if let excess = h.excessBlobGas { members.append(("excessBlobGas", q(excess))) }
        if let root = h.parentBeaconBlockRoot { members.append(("parentBeaconBlockRoot", hash(root))) }
        if let requests = h.requestsHash { members.append(("requestsHash", hash(requests))) }
        let transactions: [JSONValue]
        if full {
            transactions = block.transactions.enumerated().map { i, tx in
                transaction(
                    tx,
                    location: TransactionLocation(
                        sender: block.senders[i], blockHash: block.hash, blockNumber: h.number, index: i,
                        blockTimestamp: h.timestamp),
                    baseFee: h.baseFeePerGas)
            }
        } else {
            transactions = block.transactions.map { hash($0.hash) }
        }
        members.append(("transactions", .array(transactions)))
        return .object(members)
    }

    /// A block's header as `eth_subscribe("newHeads")` sends it (geth's header JSON): the block object without
    /// its body members (transactions, uncles, withdrawals) and size.
    static func header(_ block: Block) -> JSONValue {
        guard case .object(let members) = NodeWire.block(block, full: false) else { return .null }
        let body: Set<String> = ["transactions", "uncles", "withdrawals", "size"]
        return .object(members.filter { !body.contains($0.key) })
    }

    /// A withdrawal (EIP-4895): index, validator index and amount (gwei) as quantities.
    static func withdrawal(_ w: Withdrawal) -> JSONValue {
        .object([
            ("index", q(w.index)), ("validatorIndex", q(w.validatorIndex)), ("address", address(w.address)),
            ("amount", q(w.amount)),
        ])
    }

    /// An EIP-7910 fork configuration object: members in alphabetical order, `activationTime` and the blob
    /// schedule's members as JSON numbers, the chain id as a quantity, the fork id as 4 bytes of hex, addresses in
    /// lower case; `blobSchedule` and `systemContracts` left out before Cancun (the EIP leaves those forks open).
    static func forkConfiguration(_ config: ForkConfiguration) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("activationTime", .number(String(config.activationTime)))]
        if let blobs = config.blobSchedule {
            members.append((
                "blobSchedule",
                .object([
                    ("baseFeeUpdateFraction", .number(String(blobs.baseFeeUpdateFraction))),
                    ("max", .number(String(blobs.max))), ("target", .number(String(blobs.target))),
                ])
            ))
        }
        let forkId = (0..<4).map { UInt8(truncatingIfNeeded: config.forkId >> (24 - 8 * UInt32($0))) }
        members.append(("chainId", q(config.chainId)))
        members.append(("forkId", data(forkId)))
        members.append(("precompiles", .object(config.precompiles.map { (key: $0.name, value: address($0.address)) })))
        if !config.systemContracts.isEmpty {
            members.append(("systemContracts", .object(config.systemContracts.map { (key: $0.name, value: address($0.address)) })))
        }
        return .object(members)
    }

    static func feeHistory(_ history: Chain.FeeHistory) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("oldestBlock", q(history.oldestBlock)), ("baseFeePerGas", .array(history.baseFeePerGas.map { q($0) })),
            ("gasUsedRatio", .array(history.gasUsedRatio.map { .number(String($0)) })),
            ("baseFeePerBlobGas", .array(history.baseFeePerBlobGas.map { q($0) })),
            ("blobGasUsedRatio", .array(history.blobGasUsedRatio.map { .number(String($0)) })),
        ]
        if let reward = history.reward { members.append(("reward", .array(reward.map { .array($0.map { q($0) }) }))) }
        return .object(members)
    }

    static func trace(_ trace: StructLogTrace) -> JSONValue {
        let logs: [JSONValue] = trace.structLogs.map { step in
            var members: [(key: String, value: JSONValue)] = [
                ("pc", .number(String(step.pc))), ("op", .string(step.opName)), ("gas", .number(String(step.gas))),
                ("gasCost", .number(String(step.gasCost))), ("depth", .number(String(step.depth))),
            ]
            // geth's struct logger (its legacy JSON form): stack items as quantities; return data, memory (as
            // 32-byte words) and storage (slots and values as 32 bytes) 0x-prefixed, each only when non-empty.
            if let error = step.error { members.append(("error", .string(error))) }
            if let stack = step.stack { members.append(("stack", .array(stack.map { .string($0.hexString) }))) }
            if let data = step.returnData, !data.isEmpty { members.append(("returnData", .string(Hex.encode(data)))) }
            if let memory = step.memory, !memory.isEmpty {
                let words = stride(from: 0, to: memory.count, by: 32).map { start -> JSONValue in
                    var word = Array(memory[start..<Swift.min(start + 32, memory.count)])
                    word += [UInt8](repeating: 0, count: 32 - word.count)
                    return .string(Hex.encode(word))
                }
                members.append(("memory", .array(words)))
            }
            if let storage = step.storage, !storage.isEmpty {
                let slots = storage.sorted { $0.key < $1.key }.map { slot in
                    (key: Hex.encode(slot.key.bigEndianBytes), value: JSONValue.string(Hex.encode(slot.value.bigEndianBytes)))
                }
                members.append(("storage", .object(slots)))
            }
            if step.refund != 0 { members.append(("refund", .number(String(step.refund)))) }
            return .object(members)
        }
        return .object([
            ("gas", .number(String(trace.gas))), ("failed", .bool(trace.failed)),
            ("returnValue", .string(Hex.encode(trace.returnValue))), ("structLogs", .array(logs)),
        ])
    }
}
