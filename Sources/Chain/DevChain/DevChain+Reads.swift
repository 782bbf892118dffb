import EVM
import EthereumPrimitives
import EthereumTransactions

extension DevChain {
    // MARK: Blocks

    /// The head block's number.
    public func blockNumber() -> UInt64 { head.number }

    /// The head block's header.
    public func latestHeader() -> BlockHeader { head }

    /// True while the chain holds nothing but its genesis block: no later block and no dev change pending (a new
    /// chain, or one whose first start stopped before it did anything).
    public func holdsNothingYet() -> Bool { head.number == 0 && base == 0 && working.changes.isEmpty }

    /// The number `id` names, nil when there is no such block.
    public func resolve(_ id: BlockID) -> UInt64? {
        switch id {
        case .latest, .pending: return head.number
        // With no consensus layer, safe and finalized are the head unless set (`--finalized`, ``setFinalized(_:)``).
        case .safe, .finalized: return Swift.min(finalized ?? head.number, head.number)
        // A forked chain holds blocks from the fork block on; earlier ones are the remote's (forwarded by the node).
        case .earliest: return base == 0 ? 0 : nil
        case .number(let n): return n <= head.number && n >= base ? n : nil
        case .hash(let hash): return blockNumber(of: hash)
        }
    }

    /// The hash of block `number` (nil above the head or below the first block the chain holds).
    func blockHash(_ number: UInt64) throws(ChainError) -> Bytes32? {
        guard number >= base, number <= head.number else { return nil }
        if let hash = hashes.hash(number) { return hash }
        return try store.hash(number: number)
    }

    /// The number of the block with `hash`, nil when the chain has no such block (or the database cannot say).
    func blockNumber(of hash: Bytes32) -> UInt64? {
        if let number = hashes.number(hash) { return number }
        // Blocks the database does not hold yet are all recent, so held above.
        guard let number = (try? store.number(hash: hash)) ?? nil, number >= base, number <= head.number else { return nil }
        return number
    }

    /// A block, nil when unknown. `pending` is the block the miner would mine next (DevChain+Pending.swift).
    public func block(_ id: BlockID) throws(ChainError) -> Block? {
        if case .pending = id { return try pending().mined.block }
        guard let number = resolve(id) else { return nil }
        return try minedBlock(number)?.block
    }

    /// A block with its receipts, nil when unknown (`eth_getBlockReceipts`; at `pending`, the pending block's).
    public func blockWithReceipts(_ id: BlockID) throws(ChainError) -> (block: Block, receipts: [Receipt])? {
        let mined: MinedBlock?
        if case .pending = id { mined = try pending().mined } else { mined = try resolve(id).flatMap { n throws(ChainError) in try minedBlock(n) } }
        return mined.map { ($0.block, $0.receipts) }
    }

    /// A block with its receipts, from the cache or the database.
    func minedBlock(_ number: UInt64) throws(ChainError) -> MinedBlock? {
        if let cached = blockCache[number] { return cached }
        guard number <= head.number, let header = try store.header(number: number) else { return nil }
        let transactions = try store.transactions(block: number)
        let body = try store.body(number: number)
        let block = Block(
            header: header, transactions: transactions.map(\.0), senders: transactions.map(\.1), ommers: body.ommers,
            withdrawals: body.withdrawals)
        let logs = try store.logs(block: number).map { (transactionIndex: $0.transactionIndex, log: $0.log) }
        let mined = minedBlock(block, stored: try store.receipts(block: number), logs: logs)
        blockCache[number] = mined
        return mined
    }

    /// The receipts of a block, in order (at `pending`, those the pending block's transactions would get).
    public func receipts(_ id: BlockID) throws(ChainError) -> [Receipt]? {
        if case .pending = id { return try pending().mined.receipts }
        guard let number = resolve(id) else { return nil }
        return try minedBlock(number)?.receipts
    }

    // MARK: Transactions

    /// A transaction by hash: mined (with its block and index) or pending in the pool.
    public func transaction(hash: Bytes32) throws(ChainError) -> (SignedTransaction, TransactionLocation)? {
        if let pooled = pool.transaction(hash) {
            return (pooled.signed, TransactionLocation(sender: pooled.sender))
        }
        guard let position = try transactionPosition(hash: hash), let mined = try minedBlock(position.block),
            position.index < mined.block.transactions.count
        else { return nil }
        let block = mined.block
        return (
            block.transactions[position.index],
            TransactionLocation(
                sender: block.senders[position.index], blockHash: block.hash, blockNumber: block.number,
                index: position.index, blockTimestamp: block.header.timestamp)
        )
    }

    /// The transaction `sender` sent with `nonce` (`eth_getTransactionBySenderAndNonce`, as anvil answers it): the
    /// pool's, else the mined one, found by a binary search for the first block after which the sender's nonce passed
    /// `nonce` and a look through that block. Nil when there is none (the nonce not reached yet, or passed without a
    /// transaction, by `anvil_setNonce`).
    public func transaction(sender: Address, nonce: UInt64) throws(ChainError) -> (SignedTransaction, TransactionLocation)? {
        if let pooled = pool.transaction(sender: sender, nonce: nonce) {
            return (pooled.signed, TransactionLocation(sender: pooled.sender))
        }
        func nonceAfter(_ block: UInt64) throws(ChainError) -> UInt64 { try fields(sender, at: .number(block))?.nonce ?? 0 }
        guard head.number > base, try nonceAfter(head.number) > nonce, try nonceAfter(base) <= nonce else { return nil }
        var low = base + 1
        var high = head.number
        while low < high {
            let mid = low + (high - low) / 2
            if try nonceAfter(mid) > nonce { high = mid } else { low = mid + 1 }
        }
        guard let mined = try minedBlock(low) else { return nil }
        let block = mined.block
        guard let index = block.transactions.indices.first(where: {
            block.senders[$0] == sender && block.transactions[$0].transaction.nonce == nonce
        }) else { return nil }
        return (
            block.transactions[index],
            TransactionLocation(
                sender: sender, blockHash: block.hash, blockNumber: block.number, index: index,
                blockTimestamp: block.header.timestamp)
        )
    }

    /// Where a mined transaction is: in a block the database does not hold yet, else where the database says.
    func transactionPosition(hash: Bytes32) throws(ChainError) -> (block: UInt64, index: Int)? {
        if let position = unwritten.position(hash) { return position }
        return try store.transactionPosition(hash: hash)
    }

    /// A mined transaction's receipt, nil while pending or unknown.
    public func receipt(hash: Bytes32) throws(ChainError) -> Receipt? {
        guard let position = try transactionPosition(hash: hash), let mined = try minedBlock(position.block),
            position.index < mined.stored.count, position.index < mined.block.transactions.count
        else { return nil }
        return mined.receipt(at: position.index)
    }

    /// The pool's transactions with their senders, in arrival order.
    public func pendingTransactions() -> [(SignedTransaction, Address)] {
        pool.all.map { ($0.signed, $0.sender) }
    }

    // MARK: Accounts

    /// The live state: the head's plus dev changes not yet mined (for inspection and simulations).
    public func currentState() -> WorldState { working.state }

    /// The balance at a block.
    public func balance(_ address: Address, at id: BlockID = .latest) throws(ChainError) -> UInt256 {
        try fields(address, at: id)?.balance ?? .zero
    }

    /// The nonce at a block; at `pending`, the live state's counting the pool's consecutive transactions (geth's pool
    /// nonce, which also counts those the pending block leaves out).
    public func nonce(_ address: Address, at id: BlockID = .latest) throws(ChainError) -> UInt64 {
        if case .pending = id {
            return pool.pendingNonce(address, stateNonce: working.state.account(address)?.nonce ?? 0)
        }
        return try fields(address, at: id)?.nonce ?? 0
    }

    /// The code at a block.
    public func code(_ address: Address, at id: BlockID = .latest) throws(ChainError) -> [UInt8] {
        if case .pending = id, let state = try pendingStateForReads() { return state.account(address)?.code ?? [] }
        guard let number = try stateNumber(id) else { return working.state.account(address)?.code ?? [] }
        if working.state.fork != nil { return try state(at: number).account(address)?.code ?? [] }
        guard let hash = try historicalFields(address, at: number)?.codeHash else { return [] }
        return committed.code(hash)
    }

    /// A storage slot at a block.
    public func storage(_ address: Address, slot: UInt256, at id: BlockID = .latest) throws(ChainError) -> UInt256 {
        if case .pending = id, let state = try pendingStateForReads() { return state.slot(address, slot) }
        guard let number = try stateNumber(id) else { return working.state.slot(address, slot) }
        if working.state.fork != nil { return try state(at: number).slot(address, slot) }
        return try historicalStorage(address, slot: slot, at: number)
    }

    func fields(_ address: Address, at id: BlockID) throws(ChainError) -> AccountFields? {
        if case .pending = id, let state = try pendingStateForReads() { return state.account(address).map(AccountFields.init) }
        guard let number = try stateNumber(id) else { return working.state.account(address).map(AccountFields.init) }
        // Forked: an account may be the fork block's, which the tries do not hold.
        if working.state.fork != nil { return try state(at: number).account(address).map(AccountFields.init) }
        return try historicalFields(address, at: number)
    }

    /// Nil for the live state (head and tags, including dev changes not yet mined; `pending` when the pool is empty);
    /// otherwise the earlier block whose state is asked for. A pending block's state is ``pendingStateForReads()``.
    func stateNumber(_ id: BlockID) throws(ChainError) -> UInt64? {
        guard let number = resolve(id) else { throw .unknownBlock("\(id)") }
        return number >= head.number ? nil : number
    }

    // MARK: Historical state

    /// The reverse diff of block `number` (cached).
    func diff(_ number: UInt64) throws(ChainError) -> StateDiff {
        if let cached = diffCache[number] { return cached }
        let loaded = try store.diffs(from: number, to: number)[number] ?? StateDiff()
        diffCache[number] = loaded
        return loaded
    }

    /// Loads the diffs of `from...head` into the cache in one query (for long walks back).
    func prefetchDiffs(after number: UInt64) throws(ChainError) {
        let from = number + 1
        guard from <= head.number else { return }
        var missing = false
        for n in from...head.number where diffCache[n] == nil {
            missing = true
            break
        }
        guard missing else { return }
        for (n, diff) in try store.diffs(from: from, to: head.number) { diffCache[n] = diff }
    }

    /// An account's fields at block `number` < head: the pre-image in the first later block that
    /// changed it, else its committed value at the head.
    func historicalFields(_ address: Address, at number: UInt64) throws(ChainError) -> AccountFields? {
        try prefetchDiffs(after: number)
        var n = number + 1
        while n <= head.number {
            if let change = try diff(n).accounts[address] { return change.pre }
            n += 1
        }
        return committed.fields(address)
    }

    /// A slot's value at block `number` < head (see ``historicalFields(_:at:)``).
    func historicalStorage(_ address: Address, slot: UInt256, at number: UInt64) throws(ChainError) -> UInt256 {
        try prefetchDiffs(after: number)
        var n = number + 1
        while n <= head.number {
            if let change = try diff(n).accounts[address] {
                if change.pre == nil { return .zero }
                if let value = change.slots[slot] { return value }
                if change.storageCleared { return .zero }
            }
            n += 1
        }
        return committed.storage(address, slot)
    }

    /// The whole state after block `number`: the live state with pending dev changes and then each
    /// later block undone.
    func state(at number: UInt64) throws(ChainError) -> WorldState {
        var state = working.state
        committed.reverseDiff(for: working.changes).revert(&state, code: committed.code)
        guard number < head.number else { return state }
        try prefetchDiffs(after: number)
        var n = head.number
        while n > number {
            try diff(n).revert(&state, code: committed.code)
            n -= 1
        }
        return state
    }
}
