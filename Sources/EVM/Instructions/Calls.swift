import EthereumPrimitives

// Message calls: CALL, CALLCODE, DELEGATECALL (EIP-7), STATICCALL (EIP-214). The instruction
// charges the caller (memory, EIP-2929 access, value transfer, new account, the gas handed over)
// and prepares the child message; the interpreter's frame loop starts the child and resumes this
// frame when it ends (Interpreter.start/resume).
extension Interpreter {
    /// Gas for a value transfer (CallValueTransferGas).
    @usableFromInline static var callValueCost: Int64 { 9_000 }
    /// Gas for a call that brings a new account into existence (CallNewAccountGas).
    @usableFromInline static var newAccountCost: Int64 { 25_000 }
    /// Free gas given to the callee of a value-carrying call (CallStipend).
    @usableFromInline static var callStipend: Int64 { 2_300 }
    /// A warm account access (EIP-2929 WARM_STORAGE_READ_COST), charged for an EIP-7702 delegate.
    @usableFromInline static var warmAccessCost: Int64 { 100 }

    /// CALL, CALLCODE, DELEGATECALL or STATICCALL, by `kind`.
    @inlinable @inline(__always)
    mutating func opCall(_ r: inout Registers, _ f: inout Frame, kind: CallKind) -> Status {
        let requestedGas = r.pop()
        let target = Address(bytes32: r.pop().bytes32)
        let value: UInt256 = kind == .call || kind == .callCode ? r.pop() : .zero
        let inputOffset = r.pop()
        let inputSize = r.pop()
        let outputOffset = r.pop()
        let outputSize = r.pop()
        if kind == .call && f.message.isStatic && !value.isZero { return .staticStateChange }

        guard let (inputStart, inputCount) = f.memoryRange(inputOffset, inputSize, gas: &r.gas),
            let (outputStart, outputCount) = f.memoryRange(outputOffset, outputSize, gas: &r.gas)
        else { return .outOfGas }

        var cost: Int64 = 0
        if rules.accessLists && host.warmAccount(target) { cost += rules.coldAccountSurcharge }
        if rules.codeDelegation, let delegate = host.delegate(of: target) {
            // EIP-7702: reaching the delegate's code is an account access of its own, warm or cold.
            cost += Self.warmAccessCost + (host.warmAccount(delegate) ? rules.coldAccountSurcharge : 0)
        }
        if !value.isZero { cost += Self.callValueCost }
        if kind == .call {
            // Before EIP-161 a call to a non-existent account pays for creating it; after, only a
            // value transfer to a dead account does.
            if rules.emptyAccountsAreDead {
                if !value.isZero && host.isDeadAccount(target) { cost += Self.newAccountCost }
            } else if !host.accountExists(target) {
                cost += Self.newAccountCost
            }
        }
        guard r.charge(cost) else { return .outOfGas }

        var childGas: Int64
        if rules.allButOne64th {
            // EIP-150: at most all but one 64th of what is left.
            let cap = r.gas - r.gas / 64
            childGas = requestedGas.fitsInUInt64 && requestedGas.low64 < UInt64(cap) ? Int64(requestedGas.low64) : cap
        } else {
            guard requestedGas.fitsInUInt64, requestedGas.low64 <= UInt64(r.gas) else { return .outOfGas }
            childGas = Int64(requestedGas.low64)
        }
        guard r.charge(childGas) else { return .outOfGas }
        if !value.isZero { childGas += Self.callStipend }

        let caller: Address
        let recipient: Address
        let childValue: UInt256
        switch kind {
        case .delegateCall:
            caller = f.message.caller
            recipient = f.address
            childValue = f.message.value
        case .callCode:
            caller = f.address
            recipient = f.address
            childValue = value
        default:
            caller = f.address
            recipient = target
            childValue = value
        }
        f.childOutputOffset = outputStart
        f.childOutputSize = outputCount
        pendingMessage = Message(
            kind: kind, caller: caller, recipient: recipient, codeAddress: target, value: childValue,
            input: f.memoryBytes(inputStart, inputCount), gas: childGas,
            isStatic: f.message.isStatic || kind == .staticCall, depth: f.message.depth + 1, salt: .zero)
        return .call
    }
}
