import EVM
import EthereumPrimitives
import EthereumTransactions

/// A call made ready to run: the fields of a ``CallRequest`` with defaults filled in.
struct PreparedCall: Sendable {
    var from: Address
    var to: Address?
    var gas: UInt64
    /// The effective price per gas (zero for a free call).
    var gasPrice: UInt256
    var value: UInt256
    var data: [UInt8]
    var accessList: AccessList
    var blobHashes: [Bytes32]
    /// EIP-7702 authorizations to apply before the call (nil: none, as for a type 0–3 transaction).
    var authorizations: [SignedAuthorization]? = nil

    /// A transaction with these fields, for the intrinsic gas (EIP-2028/2930/3860/7623 rules, and EIP-7702's
    /// 25,000 per authorization).
    var transaction: Transaction {
        if let authorizations, let to {
            return .setCode(
                SetCodeTransaction(
                    nonce: 0, maxPriorityFeePerGas: .zero, maxFeePerGas: gasPrice, gasLimit: gas, to: to, value: value,
                    data: data, accessList: accessList, authorizationList: authorizations))
        }
        return .dynamicFee(
            DynamicFeeTransaction(
                nonce: 0, maxPriorityFeePerGas: .zero, maxFeePerGas: gasPrice, gasLimit: gas, to: to, value: value,
                data: data, accessList: accessList))
    }

    /// Checks what a type-4 transaction requires of its authorization list, in the words geth uses: the fork
    /// has set-code transactions, there is a recipient, and the list is not empty.
    func checkAuthorizations(fork: Hardfork) throws(ChainError) {
        guard let authorizations else { return }
        guard fork >= .prague else {
            throw .executionFailed("transaction type not supported: authorizationList needs Prague, the chain runs \(fork)")
        }
        guard to != nil else { throw .executionFailed("set code transaction must not be a create transaction") }
        guard !authorizations.isEmpty else { throw .executionFailed("EIP-7702 transaction with empty auth list") }
    }
}

/// Runs a call like a transaction — intrinsic gas, access-list warming, gas purchase, the message,
/// refunds — without nonce, fee-cap or EOA checks (as geth's `eth_call`), and undoes every change
/// afterwards, so it can run directly on the chain's live state.
enum CallExecutor {
    /// `inspect` sees the state the call left, and its result, before the call is undone (`debug_traceCall` reads
    /// the state after the call there); whatever it changes is undone too.
    static func run<T: Tracer>(
        _ call: PreparedCall, on journaled: inout JournaledState, block: BlockEnvironment, fork: Hardfork,
        tracer: inout T, buffers: ExecutionBuffers, deadline: ContinuousClock.Instant? = nil,
        inspect: (inout JournaledState, CallResult) -> Void = { _, _ in }
    ) throws(ChainError) -> CallResult {
        let rules = ForkRules(fork)
        try call.checkAuthorizations(fork: fork)
        let intrinsic = call.transaction.intrinsicGas(fork: fork)
        let needed = Swift.max(intrinsic.gas, intrinsic.floor)
        guard call.gas >= needed else {
            throw .executionFailed("intrinsic gas too low: have \(call.gas), want \(needed)")
        }
        if let limit = rules.maxInitCodeSize, call.to == nil, call.data.count > limit {
            throw .executionFailed("max initcode size exceeded: code size \(call.data.count), limit \(limit)")
        }
        let gasCost = UInt256(call.gas).multipliedReportingOverflow(by: call.gasPrice)
        let (required, overflow) = gasCost.partialValue.addingReportingOverflow(call.value)
        let balance = journaled.balance(of: call.from)
        if gasCost.overflow || overflow || balance < required {
            throw .executionFailed(
                "insufficient funds for gas * price + value: address \(call.from) have \(balance) want \(required)")
        }

        let checkpoint = journaled.checkpoint()
        let recording = journaled.recordsChanges
        defer {
            journaled.revert(to: checkpoint)
            journaled.recordsChanges = false
            journaled.finalize(rules: rules)  // clears the warm sets and original values; the journal is empty
            journaled.recordsChanges = recording
        }
        journaled.subtractBalance(call.from, gasCost.partialValue)
        MessageExecution.prewarm(
            &journaled, sender: call.from, to: call.to, accessList: call.accessList, block: block, rules: rules)
        let message = MessageExecution.message(
            &journaled, from: call.from, to: call.to, value: call.value, data: call.data,
            gas: Int64(clamping: call.gas - intrinsic.gas))
        // EIP-7702, as for a transaction: authorizations after the nonce bump, before the call; then the callee's
        // delegate (set now or earlier) starts warm, so a call costs what the mined transaction will.
        var authorizationRefund: Int64 = 0
        if let authorizations = call.authorizations {
            authorizationRefund = SetCodeAuthorizations.apply(authorizations, in: &journaled, chainID: block.chainID)
        }
        if rules.codeDelegation, let to = call.to, let delegate = journaled.delegate(of: to) { journaled.prewarm(delegate) }
        let environment = TransactionEnvironment(origin: call.from, gasPrice: call.gasPrice, blobHashes: call.blobHashes)
        var result = MessageExecution.run(
            message, in: &journaled, rules: rules, block: block, transaction: environment, tracer: &tracer, buffers: buffers,
            deadline: deadline)
        result.gasRefund += authorizationRefund
        let gasUsed = MessageExecution.settle(gasLimit: call.gas, result: result, rules: rules, floor: intrinsic.floor).gasUsed
        if let reason = result.unsupportedReason { throw .executionFailed("unsupported by this EVM: \(reason)") }
        let callResult = CallResult(
            status: result.status, output: result.output, gasUsed: gasUsed, logs: journaled.logs,
            createdAddress: result.createdAddress)
        inspect(&journaled, callResult)
        return callResult
    }
}
