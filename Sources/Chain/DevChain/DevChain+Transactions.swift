import Dispatch
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions

extension DevChain {
    /// 1 gwei: the suggested priority fee.
    static let suggestedTip = UInt256(1_000_000_000 as UInt64)

    /// Decodes, validates and pools a raw transaction, then (with automine) mines it; returns its
    /// hash once it is in the pool (and, with automine, committed in a block).
    ///
    /// Rejected with a clear ``ChainError`` when: the bytes are not a transaction or the signature is
    /// bad; the chain id is another chain's (EIP-155 or the typed field); the nonce is below the
    /// sender's; the pool already has it, or has the same nonce at a fee within 10%; the gas limit is
    /// above the block's or below the intrinsic gas; the fee cap is below the next base fee; the
    /// sender cannot pay gas limit × fee cap + value; the sender has code (EIP-3607) other than an EIP-7702
    /// delegation; the type is not yet valid in the chain's fork (type 4 before Prague); the gas limit is above
    /// EIP-7825's 2^24 (Osaka).
    ///
    /// The bytes are decoded and the sender recovered (secp256k1) before the chain is entered, on the caller's thread,
    /// so that work of concurrent callers runs in parallel and the chain's actor spends its time mining.
    @discardableResult
    public nonisolated func sendRawTransaction(_ raw: [UInt8]) async throws(ChainError) -> Bytes32 {
        let signed: SignedTransaction
        let sidecar: BlobSidecar?
        do { (signed, sidecar) = try SignedTransaction.decodeNetworkForm(raw) } catch {
            throw .invalidTransaction(error.description)
        }
        let recovered = recoveredSenders.take(signed.hash) ?? Self.recover(signed)
        return try await submit(signed, sidecar: sidecar, recovered: recovered)
    }

    /// Starts recovering the senders of `raws` on a worker thread, in order from the second, for the
    /// ``sendRawTransaction(_:)`` calls that follow (a JSON-RPC batch of them), and returns at once: the chain mines the
    /// first transactions while the worker recovers the next, and each call finds its sender ready or recovers it itself
    /// (``RecoveredSenders``). Bytes that do not decode are left for the call to reject.
    public nonisolated func recoverSenders(_ raws: [[UInt8]]) {
        guard raws.count > 1 else { return }
        // The first is the first to be submitted: its call recovers it while the worker starts on the second.
        let decoded = raws.dropFirst().compactMap { try? SignedTransaction.decodeNetworkForm($0).0 }
        // Those queued are the first `capacity`; the worker's claim skips any other.
        let queued = recoveredSenders.enqueue(decoded.map(\.hash)).count
        guard queued > 0 else { return }
        let store = recoveredSenders
        DispatchQueue.global().async {
            for signed in decoded.prefix(queued) where store.claim(signed.hash) {
                store.finish(signed.hash, Self.recover(signed))
            }
        }
    }

    /// The sender of a transaction mined under Homestead or later rules (every fork a dev chain mines).
    nonisolated static func recover(_ signed: SignedTransaction) -> Result<Address, TransactionError> {
        Result { () throws(TransactionError) in try signed.sender(allowHighS: false) }
    }

    private func submit(
        _ signed: SignedTransaction, sidecar: BlobSidecar?, recovered: Result<Address, TransactionError>
    ) throws(ChainError) -> Bytes32 {
        if let sidecar { try check(sidecar, of: signed.transaction) }
        return try submit(signed, recovered: recovered)
    }

    /// A network-form blob transaction's sidecar against its payload and the pending fork: the wrapper version
    /// the fork takes (EIP-7594's cell proofs from Osaka, one proof per blob before), one blob and commitment
    /// per versioned hash, and each commitment hashing to its versioned hash. The KZG proofs are not verified
    /// (a dev node keeps no blobs; the blocks hold only the hashes).
    private func check(_ sidecar: BlobSidecar, of tx: Transaction) throws(ChainError) {
        let wanted: UInt8 = pendingFork >= .osaka ? 1 : 0
        guard sidecar.version == wanted else {
            throw .rejected("blob sidecar version \(sidecar.version) is not accepted under \(pendingFork) (version \(wanted) is)")
        }
        let hashes = tx.blobVersionedHashes
        guard sidecar.commitments.count == hashes.count else {
            throw .rejected("blob sidecar has \(sidecar.commitments.count) commitments for \(hashes.count) versioned hashes")
        }
        for (i, commitment) in sidecar.commitments.enumerated() where PointEvaluation.versionedHash(commitment) != hashes[i].bytes {
            throw .rejected("blob \(i): the commitment does not hash to the versioned hash \(hashes[i].hexString)")
        }
    }

    /// Fills in, signs (with the dev key of `request.from`) and submits a transaction: nonce from the
    /// pending state, gas from ``estimateGas(_:at:)``, fees from ``gasPrice()`` and
    /// ``maxPriorityFeePerGas()``; a gas price selects a legacy (or, with an access list, EIP-2930)
    /// transaction, otherwise EIP-1559.
    /// From an address the chain holds no key for but impersonates (``impersonate(_:)``,
    /// ``setAutoImpersonate(_:)``), the transaction goes to the pool with ``impersonationSignature(for:sender:)``.
    @discardableResult
    public func sendTransaction(_ request: CallRequest) throws(ChainError) -> Bytes32 {
        guard let from = request.from else { throw .invalidParams("sendTransaction needs a from address") }
        if let key = devKeys[from] { return try submit(try fill(request, from: from).sign(with: key)) }
        return try sendImpersonated(request, from: from)
    }

    /// Fills in `request` and pools it from `from`, which the chain impersonates, with ``impersonationSignature(for:sender:)``.
    private func sendImpersonated(_ request: CallRequest, from: Address) throws(ChainError) -> Bytes32 {
        guard isImpersonated(from) else { throw .unknownAccount(from) }
        let transaction = try fill(request, from: from)
        return try submit(SignedTransaction(transaction: transaction, signature: Self.impersonationSignature(for: transaction, sender: from)), impersonating: from)
    }

    /// What ``send(_:signingWith:priceAtBaseFee:)`` did: the transaction's hash and, when it was mined before the call
    /// returned (automine), its receipt and, if it failed, its revert data.
    public struct SentTransaction: Sendable {
        /// The transaction's hash.
        public var hash: Bytes32
        /// Its receipt; nil while it waits in the pool (automine off).
        public var receipt: Receipt?
        /// The revert data of a failed transaction (empty when it reverted without data or halted); nil otherwise.
        public var revertData: [UInt8]?
    }

    /// `eth_sendTransaction` for an in-process backend, in one step on the chain: the request is filled in as
    /// ``sendTransaction(_:)`` fills it (nonce from the pending state, gas from an estimate, when not given), signed with
    /// `key` — which must be `request.from`'s — or, without a key, sent as `request.from` with a dev key or by
    /// impersonation, then pooled and, with automine, mined; the answer carries the receipt and revert data, so a
    /// backend needs no further round trips. Without a gas price in the request the transaction is a legacy one at
    /// ``gasPrice()``, or at the next block's base fee (zero before London) with `priceAtBaseFee`.
    ///
    /// `unsigned` (with no key) sends as `request.from` by impersonation even when the chain holds its dev key, as a
    /// test bench does (forge signs nothing either): the transaction carries ``impersonationSignature(for:sender:)``
    /// instead of an ECDSA signature — so its hash is not the signed one's — and costs the same gas, without the
    /// signature's ~40 µs. `request.from` must be impersonated (``setAutoImpersonate(_:)`` covers every address).
    public func send(
        _ request: CallRequest, signingWith key: PrivateKey?, priceAtBaseFee: Bool = false, unsigned: Bool = false
    ) throws(ChainError) -> SentTransaction {
        guard let from = request.from else { throw .invalidParams("sending a transaction needs a from address") }
        var request = request
        if request.gasPrice == nil, request.maxFeePerGas == nil, request.maxPriorityFeePerGas == nil {
            request.gasPrice = priceAtBaseFee ? nextBaseFee ?? .zero : gasPrice()
        }
        let hash: Bytes32
        if let key {
            // The sender of a transaction signed here is known: a dev account's key is compared, another key's address
            // derived (cheaper than recovering it from the signature).
            guard devKeys[from] == key || key.address == from else {
                throw .invalidParams("the key given does not sign for \(from.checksummed)")
            }
            hash = try submit(try fill(request, from: from).sign(with: key), recovered: .success(from))
        } else if unsigned {
            hash = try sendImpersonated(request, from: from)
        } else {
            hash = try sendTransaction(request)
        }
        guard let receipt = try receipt(hash: hash) else { return SentTransaction(hash: hash) }
        return SentTransaction(hash: hash, receipt: receipt, revertData: receipt.status ? nil : try revertData(transaction: hash))
    }

    /// The revert data of a failed mined transaction (empty when it reverted without data or halted); nil when it
    /// succeeded or is not known. Taken from the block when this chain mined it recently, else by re-executing it
    /// (``trace(transaction:options:limits:traceLimits:)``).
    public func revertData(transaction hash: Bytes32) throws(ChainError) -> [UInt8]? {
        guard let position = try transactionPosition(hash: hash), let mined = try minedBlock(position.block),
            position.index < mined.stored.count
        else { return nil }
        if mined.stored[position.index].status { return nil }
        if let kept = mined.revertData?[position.index] { return kept }
        return try trace(transaction: hash, options: StructLogOptions(disableStack: true, disableStorage: true, limit: 1)).returnValue
    }

    /// Fills in and signs a transaction with the dev key of `request.from` without sending it
    /// (`eth_signTransaction`).
    public func signTransaction(_ request: CallRequest) throws(ChainError) -> SignedTransaction {
        guard let from = request.from else { throw .invalidParams("signTransaction needs a from address") }
        guard let key = devKeys[from] else { throw .unknownAccount(from) }
        return try fill(request, from: from).sign(with: key)
    }

    /// The unsigned transaction `eth_sendTransaction` would sign for `request` (`eth_fillTransaction`): nonce, gas and
    /// fees filled as there, from the request's `from` (the zero address when it names none, as geth's default).
    public func fillTransaction(_ request: CallRequest) throws(ChainError) -> Transaction {
        try fill(request, from: request.from ?? .zero)
    }

    /// The transaction `eth_sendTransaction` / `eth_signTransaction` make of a request.
    private func fill(_ request: CallRequest, from: Address) throws(ChainError) -> Transaction {
        let nonce: UInt64
        if let given = request.nonce { nonce = given } else { nonce = try self.nonce(from, at: .pending) }
        let gas: UInt64
        if let given = request.gas { gas = given } else { gas = try estimateGas(request, at: .pending) }
        let accessList = request.accessList ?? []
        if request.authorizationList != nil || request.type == 4 {
            return try setCodeTransaction(request, nonce: nonce, gas: gas)
        }
        let useLegacyFees = request.gasPrice != nil || pendingFork < .london || request.type == 0 || request.type == 1
        let transaction: Transaction
        if useLegacyFees {
            let price = request.gasPrice ?? gasPrice()
            if (request.type == 1 || !accessList.isEmpty) && pendingFork >= .berlin {
                transaction = .accessList(
                    AccessListTransaction(
                        chainId: chainId, nonce: nonce, gasPrice: price, gasLimit: gas, to: request.to,
                        value: request.value ?? .zero, data: request.data ?? [], accessList: accessList))
            } else {
                transaction = .legacy(
                    LegacyTransaction(
                        nonce: nonce, gasPrice: price, gasLimit: gas, to: request.to, value: request.value ?? .zero,
                        data: request.data ?? [], chainId: chainId))
            }
        } else {
            let (tip, maxFee) = dynamicFees(request)
            transaction = .dynamicFee(
                DynamicFeeTransaction(
                    chainId: chainId, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gasLimit: gas,
                    to: request.to, value: request.value ?? .zero, data: request.data ?? [], accessList: accessList))
        }
        return transaction
    }

    /// The fees of an EIP-1559-style transaction: the request's, else the suggested tip and a fee cap of twice
    /// the next base fee plus the tip (saturating: a tip near 2^256 caps itself); the tip never above the cap.
    private func dynamicFees(_ request: CallRequest) -> (tip: UInt256, maxFee: UInt256) {
        let baseFee = nextBaseFee ?? .zero
        var tip = request.maxPriorityFeePerGas ?? maxPriorityFeePerGas()
        let (doubled, o1) = baseFee.multipliedReportingOverflow(by: UInt256(2))
        let (sum, o2) = doubled.addingReportingOverflow(tip)
        let maxFee = request.maxFeePerGas ?? (o1 || o2 ? UInt256.max : sum)
        if tip > maxFee { tip = maxFee }
        return (tip, maxFee)
    }

    /// The type-4 (EIP-7702) transaction `eth_sendTransaction` sends for a request with an authorization list:
    /// it needs a recipient and at least one authorization, and the chain must be at Prague or later.
    private func setCodeTransaction(_ request: CallRequest, nonce: UInt64, gas: UInt64) throws(ChainError) -> Transaction {
        guard pendingFork >= .prague else {
            throw .rejected("transaction type not supported: set-code (type 4) transactions need Prague, the chain runs \(pendingFork)")
        }
        guard let to = request.to else { throw .invalidParams("a set-code (type 4) transaction cannot create a contract: give `to`") }
        guard let list = request.authorizationList, !list.isEmpty else {
            throw .invalidParams("a set-code (type 4) transaction needs a non-empty authorizationList")
        }
        let (tip, maxFee) = dynamicFees(request)
        return .setCode(
            SetCodeTransaction(
                chainId: chainId, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gasLimit: gas, to: to,
                value: request.value ?? .zero, data: request.data ?? [], accessList: request.accessList ?? [],
                authorizationList: list))
    }

    /// The suggested legacy gas price: the next base fee plus the suggested tip (1 gwei before London).
    public func gasPrice() -> UInt256 {
        guard let baseFee = nextBaseFee else { return Self.suggestedTip }
        return baseFee &+ maxPriorityFeePerGas()
    }

    /// The suggested priority fee (1 gwei).
    public func maxPriorityFeePerGas() -> UInt256 { Self.suggestedTip }

    /// The base fee the next block will have (nil before London).
    public func pendingBaseFee() -> UInt256? { nextBaseFee }

    /// Validates against the chain's rules and the pending state, pools, and automines.
    /// With `impersonating`, that address is the sender and the signature is not checked (every other rule is).
    /// `recovered` is the sender recovered ahead of time under Homestead rules (``recover(_:)``).
    func submit(
        _ signed: SignedTransaction, impersonating: Address? = nil, recovered: Result<Address, TransactionError>? = nil
    ) throws(ChainError) -> Bytes32 {
        let sender: Address
        let fork = pendingFork
        do {
            if let impersonating {
                try signed.validateIgnoringSignature(for: fork, chainID: chainId)
                sender = impersonating
            } else {
                sender = try signed.validate(for: fork, chainID: chainId, recovered: fork >= .homestead ? recovered : nil)
            }
        } catch {
            if case .invalidChainID(_, let found) = error {
                throw .wrongChainId(expected: chainId, got: found.map { $0.low64 })
            }
            if case .typeNotSupported = error { throw .rejected("transaction type not supported: \(error.description)") }
            throw .invalidTransaction(error.description)
        }
        let hash = signed.hash
        if pool.transaction(hash) != nil { throw .alreadyKnown(hash) }
        let tx = signed.transaction
        let account = working.state.account(sender)
        let stateNonce = account?.nonce ?? 0
        if tx.nonce < stateNonce {
            // Only a transaction whose nonce is spent can be mined already, so the store is asked
            // here and not on the hot path. (After anvil_setNonce lowers a nonce, the same bytes
            // can be mined again; the store then points the hash at the newer block.)
            if try transactionPosition(hash: hash) != nil { throw .alreadyKnown(hash) }
            throw .rejected("nonce too low: address \(sender), tx: \(tx.nonce) state: \(stateNonce)")
        }
        // EIP-3607, relaxed by EIP-7702 (Prague) for an account whose code is a delegation designator.
        if let account, account.codeHash != .emptyCodeHash,
            !(fork >= .prague && Delegation.target(of: account.code) != nil)
        {
            throw .rejected("sender not an eoa: address \(sender), codehash: \(account.codeHash)")
        }
        let blockGasLimit = nextGasLimit(fork: fork)
        if tx.gasLimit > blockGasLimit {
            throw .rejected("exceeds block gas limit: gas \(tx.gasLimit), block gas limit \(blockGasLimit)")
        }
        if let minimum = devSettings.minGasPrice, nextBaseFee == nil, tx.maxFeePerGas < minimum {
            throw .rejected("transaction underpriced: gas price \(tx.maxFeePerGas), minimum \(minimum) (anvil_setMinGasPrice)")
        }
        if let baseFee = nextBaseFee, tx.maxFeePerGas < baseFee {
            throw .rejected(
                "max fee per gas less than block base fee: address \(sender), maxFeePerGas: \(tx.maxFeePerGas), baseFee: \(baseFee)")
        }
        if tx.blobGas > 0, fork >= .cancun {
            let blobFee = nextBlobBaseFee(after: head, fork: fork)
            if (tx.maxFeePerBlobGas ?? .zero) < blobFee {
                throw .rejected("max fee per blob gas less than block blob gas fee: have \(tx.maxFeePerBlobGas ?? .zero), want \(blobFee)")
            }
        }
        let balance = account?.balance ?? .zero
        let (gasCost, o1) = UInt256(tx.gasLimit).multipliedReportingOverflow(by: tx.maxFeePerGas)
        var (cost, o2) = gasCost.addingReportingOverflow(tx.value)
        var o3 = false
        if let blobCap = tx.maxFeePerBlobGas {
            (cost, o3) = cost.addingReportingOverflow(UInt256(tx.blobGas) &* blobCap)
        }
        if o1 || o2 || o3 || balance < cost {
            throw .rejected(
                "insufficient funds for gas * price + value: address \(sender) have \(balance) want \(o1 || o2 || o3 ? "more than 2^256" : cost.description)")
        }
        if let existing = pool.transaction(sender: sender, nonce: tx.nonce) {
            let old = existing.signed.transaction
            // The fee must rise by 10%; a bump past 2^256 cannot be paid, so nothing replaces such a fee.
            let bump = { (fee: UInt256) -> UInt256? in
                let (bumped, overflow) = fee.addingReportingOverflow(fee / UInt256(10))
                return overflow ? nil : bumped
            }
            guard let feeCap = bump(old.maxFeePerGas), let tipCap = bump(old.maxPriorityFeePerGas),
                tx.maxFeePerGas >= feeCap, tx.maxPriorityFeePerGas >= tipCap
            else { throw .replacementUnderpriced }
        } else if pool.count >= config.maxPendingTransactions {
            throw .poolFull(limit: config.maxPendingTransactions)
        }
        pool.add(signed, sender: sender)
        pendingHashLog.append(hash)
        if !pendingSubscribers.isEmpty {
            let pending = PendingTransaction(transaction: signed, sender: sender)
            for continuation in pendingSubscribers.values { continuation.yield(pending) }
        }
        if automine {
            let rejected = try mineReady()
            if let error = rejected[hash] { throw .rejected(error.description) }
        }
        return hash
    }
}
