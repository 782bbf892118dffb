import EVM
import EthereumPrimitives
import EthereumTransactions

/// The node settings the dev methods change while the chain runs (anvil's `anvil_impersonateAccount`,
/// `evm_setBlockGasLimit`, `anvil_setCoinbase`, `anvil_setMinGasPrice`, `anvil_setNextBlockBaseFeePerGas`).
/// On a chain on disk the gas limit, coinbase and fees are kept in the dev-state journal (Store/DevJournal.swift), so
/// a restarted node mines as the stopped one would have; impersonation is not (a restarted node starts from its
/// options, as anvil does).
struct DevSettings: Sendable {
    /// Addresses `eth_sendTransaction` may send from without a key.
    var impersonated: Set<Address> = []
    /// Every address is impersonated (`anvil_autoImpersonateAccount(true)`).
    var autoImpersonate = false
    /// The gas limit of the blocks mined from now on, replacing the configured one.
    var gasLimit: UInt64?
    /// The fee recipient of the blocks mined from now on.
    var coinbase: Address?
    /// The least gas price the pool accepts, before London only (anvil refuses it on EIP-1559 chains).
    var minGasPrice: UInt256?
    /// The base fee of the next block only; cleared once a block is made.
    var nextBaseFee: UInt256?
    /// anvil's `instanceId`: random, and new after every reset. Drawn when first asked for (a chain made for one test
    /// never asks, and the draw is 32 bytes from the system's generator).
    var instanceID: Bytes32?
}

extension DevChain {
    // MARK: Impersonation

    /// Lets `eth_sendTransaction` send from `address` without its key (anvil_impersonateAccount).
    public func impersonate(_ address: Address) { devSettings.impersonated.insert(address) }

    /// Ends ``impersonate(_:)`` for `address` (auto-impersonation, when on, still covers it).
    public func stopImpersonating(_ address: Address) { devSettings.impersonated.remove(address) }

    /// Impersonates every address, or goes back to the ones named (anvil_autoImpersonateAccount).
    public func setAutoImpersonate(_ on: Bool) { devSettings.autoImpersonate = on }

    /// Whether `eth_sendTransaction` may send from `address` without its key.
    public func isImpersonated(_ address: Address) -> Bool {
        devSettings.autoImpersonate || devSettings.impersonated.contains(address)
    }

    /// The placeholder signature of an impersonated sender's transaction: r = 1 and s = the sender's address,
    /// v a valid y parity (EIP-155's for legacy transactions). It recovers to no one, but the transaction keeps
    /// the standard hash, keccak256 of its encoding, and the sender in s makes that hash differ between two
    /// senders of the same fields. (anvil signs with r = s = 1 and hashes the encoding followed by the sender
    /// instead; carchain keeps one hash rule so the stored raw bytes decode to the same hash.)
    static func impersonationSignature(for transaction: Transaction, sender: Address) -> TransactionSignature {
        var v = UInt256.zero
        if case .legacy(let legacy) = transaction { v = legacy.v(recoveryID: 0) }
        return TransactionSignature(v: v, r: .one, s: UInt256(truncatingBigEndian: sender.bytes))
    }

    // MARK: Block settings

    /// The smallest block gas limit `evm_setBlockGasLimit` takes (geth's minimum gas limit).
    public static let minBlockGasLimit: UInt64 = 5000

    /// Sets the gas limit of the blocks mined from now on (evm_setBlockGasLimit): 5000 to 2^63 − 1 (SQLite's
    /// integers). Pool transactions above it wait until the limit is raised again.
    public func setBlockGasLimit(_ gasLimit: UInt64) throws(ChainError) {
        guard gasLimit >= Self.minBlockGasLimit, gasLimit <= UInt64(Int64.max) else {
            throw .invalidParams("gas limit \(gasLimit) is not in \(Self.minBlockGasLimit)...\(Int64.max)")
        }
        devSettings.gasLimit = gasLimit
        try journalSettings()
    }

    /// The gas limit of the next block.
    public func pendingGasLimit() -> UInt64 { nextGasLimit(fork: pendingFork) }

    /// Sets the fee recipient of the blocks mined from now on (anvil_setCoinbase).
    public func setCoinbase(_ address: Address) throws(ChainError) {
        devSettings.coinbase = address
        try journalSettings()
    }

    /// The fee recipient of the next block.
    public func pendingCoinbase() -> Address { devSettings.coinbase ?? config.coinbase }

    /// Sets the least gas price the pool accepts (anvil_setMinGasPrice). Refused on a chain whose next block
    /// has a base fee, as anvil refuses it: there the base fee is the floor.
    public func setMinGasPrice(_ price: UInt256) throws(ChainError) {
        guard nextBaseFee == nil else {
            throw .invalidParams("anvil_setMinGasPrice is not supported when EIP-1559 is active")
        }
        devSettings.minGasPrice = price
        try journalSettings()
    }

    /// Sets the base fee of the next block (anvil_setNextBlockBaseFeePerGas); later blocks follow EIP-1559
    /// from it. Refused before London, as anvil refuses it.
    public func setNextBlockBaseFee(_ fee: UInt256) throws(ChainError) {
        guard pendingFork >= .london else {
            throw .invalidParams("anvil_setNextBlockBaseFeePerGas is only supported when EIP-1559 is active")
        }
        // EIP-1559 computes the next base fee as fee × (1 + 1/8) at most, so a fee beyond 2^255 could not
        // be followed; the header field is any 256-bit number, but no one can pay more than 2^128 anyway.
        guard fee <= UInt256(UInt64.max) * UInt256(UInt64.max) else {
            throw .invalidParams("base fee \(fee) is above 2^128 - 1")
        }
        devSettings.nextBaseFee = fee
        try journalSettings()
    }

    /// Sets the chain id (`anvil_setChainId`): transactions signed from now on must name it, and `eth_chainId` answers
    /// it; pooled transactions stay. At most EIP-2294's bound; kept across a restart and a reset.
    public func setChainId(_ id: UInt64) throws(ChainError) {
        guard (1...ChainConfig.maxChainId).contains(id) else {
            throw .invalidParams("chain id \(id) is not in 1...\(ChainConfig.maxChainId) (EIP-2294)")
        }
        chainIdBox.withLock { $0 = id }
        try journalSettings()
    }

    // MARK: Information (anvil_nodeInfo, anvil_metadata)

    /// A random id of this chain instance; a new one after ``reset()``.
    public func instanceID() -> Bytes32 {
        if let id = devSettings.instanceID { return id }
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes += $0 } }
        let id = Bytes32(bytes) ?? .zero
        devSettings.instanceID = id
        return id
    }

    /// The live snapshots: id → the head block (number, hash) each returns to.
    public func snapshotHeads() -> [(id: UInt64, number: UInt64, hash: Bytes32)] {
        snapshots.keys.sorted().compactMap { id in
            guard let number = snapshots[id]?.headNumber, let hash = (try? blockHash(number)) ?? nil else { return nil }
            return (id, number, hash)
        }
    }

    // MARK: Pool

    /// Removes a transaction from the pool (anvil_dropTransaction); its hash when it was there, else nil.
    @discardableResult
    public func dropTransaction(_ hash: Bytes32) -> Bytes32? {
        guard pool.transaction(hash) != nil else { return nil }
        pool.remove(hash)
        return hash
    }

    /// Empties the pool (anvil_dropAllTransactions).
    public func dropAllTransactions() { pool = TransactionPool() }

    /// The hashes of the pooled transactions, in arrival order.
    public func pooledTransactionHashes() -> [Bytes32] { pool.all.map(\.signed.hash) }

    // MARK: Mining mode (anvil_getAutomine, anvil_getIntervalMining)

    /// The interval between blocks while interval mining runs (`--block-time`, `evm_setIntervalMining`); nil otherwise.
    public func intervalMining() -> Duration? { miningInterval }
}

extension DevChain {
    /// The number of the last transaction the pool accepted (a pending-transaction filter starts after it).
    public func pendingSequence() -> UInt64 { pendingHashLog.last }

    /// The hashes of the pool's arrivals numbered `range` (the newest ``PendingHashLog/capacity`` are kept).
    public func pendingHashes(_ range: ClosedRange<UInt64>) -> [Bytes32] { pendingHashLog.hashes(range) }
}
