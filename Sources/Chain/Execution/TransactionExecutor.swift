import EVM
import EthereumPrimitives
import EthereumTransactions

/// What executing a valid transaction produced.
public struct TransactionOutcome: Sendable {
    /// How the outermost frame ended.
    public var status: Status
    /// Gas used after the refund: what the sender pays for and the block counts.
    public var gasUsed: UInt64
    /// The refund granted (already subtracted from `gasUsed`).
    public var gasRefunded: UInt64
    /// The logs (empty when the transaction failed).
    public var logs: [Log]
    /// Return data, or revert data.
    public var output: [UInt8]
    /// The new contract, for a successful creation.
    public var createdAddress: Address?
    /// Set when execution needed something this build cannot do; the outcome is then unreliable.
    public var unsupportedReason: String?
    /// The effective gas price paid per gas.
    public var effectiveGasPrice: UInt256
    /// The most gas the transaction had in use at once: the gas used before the refund (at least the EIP-7623
    /// floor); geth's `MaxUsedGas`, what `eth_simulateV1` reports as `maxUsedGas`.
    public var peakGasUsed: UInt64 = 0

    /// True when the outermost frame succeeded (receipt status 1).
    public var isSuccess: Bool { status.isSuccess }
}

/// Which of a transaction's validity checks apply. A mined transaction gets them all; `eth_simulateV1` runs
/// calls as unsigned transactions and relaxes some, as geth's `SkipNonceChecks`, `SkipTransactionChecks` and
/// `NoBaseFee` do.
public struct TransactionChecks: Sendable, Equatable {
    /// The nonce must equal the sender's (and be below 2^64 − 1).
    public var nonce: Bool
    /// The sender must not hold code (EIP-3607) and the gas limit must not pass EIP-7825's cap.
    public var transaction: Bool
    /// Fee caps must cover the base fee and blob base fee, even when a transaction sets every fee field to
    /// zero. When false, such a free transaction skips the fee checks and pays the coinbase nothing (geth's
    /// `NoBaseFee`); one that sets a fee is still checked.
    public var feesWhenFree: Bool

    /// Every check.
    public static let all = TransactionChecks(nonce: true, transaction: true, feesWhenFree: true)

    /// Chooses the checks.
    public init(nonce: Bool, transaction: Bool, feesWhenFree: Bool) {
        self.nonce = nonce
        self.transaction = transaction
        self.feesWhenFree = feesWhenFree
    }
}

/// Applies one transaction to a world state: validation against the state (EIP-1559 fees, blob
/// gas, EIP-3607), buying gas, intrinsic gas, access-list warming, the call or creation, refunds
/// with the fork's cap, the coinbase payment and EIP-161 clean-up.
///
/// A block builder calls it once per transaction with the gas the block has left; the returned
/// `gasUsed` and logs make the receipt.
public enum TransactionExecutor {
    /// Executes `transaction` on `state` and ends the transaction (self-destructs and EIP-161
    /// clean-up). On a validation error `state` is unchanged.
    public static func execute<T: Tracer>(
        _ transaction: ExecutableTransaction, state: inout WorldState, block: BlockEnvironment, fork: Hardfork,
        blockGasAvailable: UInt64? = nil, blockHashes: @escaping @Sendable (UInt64) -> Bytes32 = { _ in .zero },
        tracer: inout T, buffers: ExecutionBuffers = ExecutionBuffers(), deadline: ContinuousClock.Instant? = nil
    ) throws(TransactionValidationError) -> TransactionOutcome {
        var journaled = JournaledState(state: WorldState(), blockHashes: blockHashes)
        swap(&journaled.state, &state)  // move, so the accounts are not copied on first write
        defer { swap(&journaled.state, &state) }
        let outcome = try execute(
            transaction, in: &journaled, block: block, fork: fork, blockGasAvailable: blockGasAvailable,
            tracer: &tracer, buffers: buffers, deadline: deadline)
        journaled.finalize(rules: ForkRules(fork))
        return outcome
    }

    /// Executes without tracing.
    public static func execute(
        _ transaction: ExecutableTransaction, state: inout WorldState, block: BlockEnvironment, fork: Hardfork,
        blockGasAvailable: UInt64? = nil, blockHashes: @escaping @Sendable (UInt64) -> Bytes32 = { _ in .zero },
        buffers: ExecutionBuffers = ExecutionBuffers()
    ) throws(TransactionValidationError) -> TransactionOutcome {
        var tracer = NoTracer()
        return try execute(
            transaction, state: &state, block: block, fork: fork, blockGasAvailable: blockGasAvailable,
            blockHashes: blockHashes, tracer: &tracer, buffers: buffers)
    }

    /// Executes `transaction` in `journaled` without ending the transaction: the caller calls
    /// ``JournaledState/finalize(rules:)`` (after any further changes that belong to the same
    /// transaction, such as a test harness's zero-value coinbase reward). On a validation error
    /// nothing is changed.
    public static func execute<T: Tracer>(
        _ transaction: ExecutableTransaction, in journaled: inout JournaledState, block: BlockEnvironment,
        fork: Hardfork, blockGasAvailable: UInt64? = nil, checks: TransactionChecks = .all, tracer: inout T,
        buffers: ExecutionBuffers = ExecutionBuffers(), deadline: ContinuousClock.Instant? = nil
    ) throws(TransactionValidationError) -> TransactionOutcome {
        let rules = ForkRules(fork)
        let intrinsic = try validate(
            transaction, state: journaled.state, block: block, rules: rules,
            blockGasAvailable: blockGasAvailable ?? block.gasLimit, checks: checks)

        let tx = transaction.transaction
        let sender = transaction.sender
        let gasPrice = effectiveGasPrice(tx, block: block, rules: rules)
        let blobFee = UInt256(tx.blobGas) &* block.blobBaseFee
        journaled.subtractBalance(sender, UInt256(tx.gasLimit) &* gasPrice &+ blobFee)

        MessageExecution.prewarm(&journaled, sender: sender, to: tx.to, accessList: tx.accessList, block: block, rules: rules)
        // validate() checked nonce < 2^64 - 1 and gasLimit <= Int64.max.
        let message = MessageExecution.message(
            &journaled, from: sender, to: tx.to, value: tx.value, data: tx.data, gas: Int64(tx.gasLimit - intrinsic.gas))
        // EIP-7702: authorizations apply after the nonce bump; the callee's delegate, as it stands once they
        // have, starts warm.
        let authorizationRefund = SetCodeAuthorizations.apply(
            tx.authorizationList, in: &journaled, chainID: block.chainID)
        if rules.codeDelegation, let to = tx.to, let delegate = journaled.delegate(of: to) { journaled.prewarm(delegate) }
        let environment = TransactionEnvironment(
            origin: sender, gasPrice: gasPrice, blobHashes: tx.blobVersionedHashes)
        var result = MessageExecution.run(
            message, in: &journaled, rules: rules, block: block, transaction: environment, tracer: &tracer, buffers: buffers,
            deadline: deadline)
        result.gasRefund += authorizationRefund  // kept when the call fails (EIP-7702)
        let (gasUsed, refund) = MessageExecution.settle(gasLimit: tx.gasLimit, result: result, rules: rules, floor: intrinsic.floor)
        // The coinbase receives the priority fee (all of the gas price before London); a free call under relaxed
        // fee checks pays nothing (its price may be below the base fee).
        let tip = checks.feesWhenFree || !Self.isFree(tx) ? MessageExecution.tip(price: gasPrice, block: block, rules: rules) : nil
        MessageExecution.pay(
            &journaled, sender: sender, unusedGas: tx.gasLimit - gasUsed, price: gasPrice, coinbase: block.coinbase,
            gasUsed: gasUsed, tip: tip)

        let usedBeforeRefund = tx.gasLimit - UInt64(Swift.max(0, result.gasLeft))
        return TransactionOutcome(
            status: result.status, gasUsed: gasUsed, gasRefunded: refund, logs: journaled.takeLogs(),
            output: result.output, createdAddress: result.createdAddress, unsupportedReason: result.unsupportedReason,
            effectiveGasPrice: gasPrice, peakGasUsed: Swift.max(usedBeforeRefund, intrinsic.floor))
    }

    /// True when the transaction sets every execution fee field to zero (geth's test for skipping fee checks
    /// under `NoBaseFee`).
    static func isFree(_ tx: Transaction) -> Bool { tx.maxFeePerGas.isZero && tx.maxPriorityFeePerGas.isZero }

    /// The price per gas the sender pays: the gas price, or from London min(fee cap, base fee + tip cap).
    public static func effectiveGasPrice(_ tx: Transaction, block: BlockEnvironment, rules: ForkRules) -> UInt256 {
        guard rules.baseFee, tx.gasPrice == nil else { return tx.maxFeePerGas }
        let (withTip, overflow) = block.baseFee.addingReportingOverflow(tx.maxPriorityFeePerGas)
        return overflow ? tx.maxFeePerGas : Swift.min(tx.maxFeePerGas, withTip)
    }

    /// Checks the transaction against the state and block, in geth's order (so that a transaction
    /// breaking several rules reports the error the test suites expect); returns the intrinsic gas
    /// and the EIP-7623 calldata floor.
    public static func validate(
        _ executable: ExecutableTransaction, state: WorldState, block: BlockEnvironment, rules: ForkRules,
        blockGasAvailable: UInt64, checks: TransactionChecks = .all
    ) throws(TransactionValidationError) -> (gas: UInt64, floor: UInt64) {
        let fork = rules.fork
        let tx = executable.transaction
        if fork < tx.type.introducedIn { throw .typeNotSupported(type: tx.type.rawValue) }
        let sender = state.account(executable.sender)  // on a forked chain, the fork block's account when not written here
        let accountNonce = sender?.nonce ?? 0
        if checks.nonce {
            if accountNonce < tx.nonce { throw .nonceTooHigh(expected: accountNonce, got: tx.nonce) }
            if accountNonce > tx.nonce { throw .nonceTooLow(expected: accountNonce, got: tx.nonce) }
            if accountNonce == UInt64.max { throw .nonceMax }
        }
        // EIP-3607, which EIP-7702 relaxes for a delegation designator.
        if checks.transaction, let sender, sender.codeHash != .emptyCodeHash,
            !(rules.codeDelegation && Delegation.target(of: sender.code) != nil)
        {
            throw .senderNotEOA
        }
        if checks.transaction, let cap = rules.transactionGasLimitCap, tx.gasLimit > cap {
            throw .gasLimitAboveCap(cap: cap, limit: tx.gasLimit)
        }

        if rules.baseFee && (checks.feesWhenFree || !isFree(tx)) {
            if tx.maxFeePerGas < tx.maxPriorityFeePerGas { throw .tipAboveFeeCap }
            if tx.maxFeePerGas < block.baseFee { throw .feeCapBelowBaseFee }
        }
        if tx.type == .blob {
            if tx.to == nil { throw .blobTransactionCreate }
            if tx.blobVersionedHashes.isEmpty { throw .noBlobs }
            let count = UInt64(tx.blobVersionedHashes.count)
            if count > block.blobSchedule.max || rules.maxBlobsPerTransaction.map({ count > $0 }) == true {
                throw .tooManyBlobs(tx.blobVersionedHashes.count)
            }
            for hash in tx.blobVersionedHashes where hash.words.0 >> 56 != 0x01 { throw .invalidBlobVersionedHash }
        }
        if tx.type == .setCode && tx.authorizationList.isEmpty { throw .emptyAuthorizationList }
        let maxFeePerBlobGas = tx.maxFeePerBlobGas ?? .zero
        if rules.blobs && tx.blobGas > 0 && (checks.feesWhenFree || !maxFeePerBlobGas.isZero)
            && maxFeePerBlobGas < block.blobBaseFee
        {
            throw .blobFeeCapTooLow
        }

        // Balance for gasLimit × fee cap + value (+ blob gas × blob fee cap), without overflow.
        let balance = sender?.balance ?? .zero
        let (gasCost, o1) = UInt256(tx.gasLimit).multipliedReportingOverflow(by: tx.maxFeePerGas)
        var (required, o2) = gasCost.addingReportingOverflow(tx.value)
        var o3 = false
        if rules.blobs && tx.blobGas > 0 {
            let (blobCost, o4) = UInt256(tx.blobGas).multipliedReportingOverflow(by: maxFeePerBlobGas)
            (required, o3) = required.addingReportingOverflow(blobCost)
            o3 = o3 || o4
        }
        if o1 || o2 || o3 || balance < required { throw .insufficientFunds }
        if tx.gasLimit > blockGasAvailable || tx.gasLimit > UInt64(Int64.max) { throw .gasLimitExceedsBlock }

        let intrinsic = tx.intrinsicGas(fork: fork)
        if tx.gasLimit < intrinsic.gas { throw .intrinsicGasTooLow(intrinsic: intrinsic.gas, limit: tx.gasLimit) }
        if tx.gasLimit < intrinsic.floor { throw .gasLimitBelowFloor(floor: intrinsic.floor, limit: tx.gasLimit) }

        // The value must still be affordable after buying gas at the effective price.
        let paid = UInt256(tx.gasLimit) &* effectiveGasPrice(tx, block: block, rules: rules)
            &+ UInt256(tx.blobGas) &* block.blobBaseFee
        if !tx.value.isZero && balance &- paid < tx.value { throw .insufficientFunds }
        if let limit = rules.maxInitCodeSize, tx.to == nil, tx.data.count > limit {
            throw .initCodeTooLarge(tx.data.count)
        }
        return intrinsic
    }
}
