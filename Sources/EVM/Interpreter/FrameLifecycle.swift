import EthereumPrimitives

// Starting, finishing and resuming frames: the message-call and contract-creation rules of the
// Yellow Paper (Θ and Λ), as geth's core/vm/evm.go orders them.
extension Interpreter {
    /// Starts `message`: checks depth and balance, takes a journal checkpoint, moves value, and
    /// either returns a frame to run or finishes at once.
    @inlinable
    mutating func start(_ message: Message) -> StartOutcome {
        if message.depth > 1024 { return .finished(FrameResult(status: .callDepthExceeded, gasLeft: message.gas)) }
        if message.kind.isCreate { return startCreate(message) }
        if message.kind == .call || message.kind == .callCode, !message.value.isZero,
            host.balance(of: message.caller) < message.value
        {
            return .finished(FrameResult(status: .insufficientBalance, gasLeft: message.gas))
        }
        let precompile = precompileAddress(message.codeAddress)
        let isPrecompile = precompile != nil
        if message.kind == .call, rules.emptyAccountsAreDead, !isPrecompile, message.value.isZero,
            !host.accountExists(message.recipient)
        {
            // EIP-161: a value-less call to a non-existent account does nothing (and creates nothing).
            return .finished(FrameResult(status: .stop, gasLeft: message.gas))
        }
        let checkpoint = host.checkpoint()
        switch message.kind {
        case .call:
            transfer(from: message.caller, to: message.recipient, message.value)
        case .staticCall:
            // geth touches the callee with a zero-value balance change (matters for EIP-161 clearing).
            host.touch(message.recipient)
        default:
            break
        }
        if let precompile { return .finished(runPrecompile(message, precompile: precompile, checkpoint: checkpoint)) }
        var codeAddress = message.codeAddress
        // EIP-7702: an account holding a delegation designator runs its delegate's code (one level; a
        // precompile as delegate has no code, so nothing runs).
        if rules.codeDelegation, let delegate = host.delegate(of: codeAddress) { codeAddress = delegate }
        let codeHash = host.codeHash(at: codeAddress)
        if codeHash == .emptyCodeHash { return .finished(FrameResult(status: .stop, gasLeft: message.gas)) }
        let code = buffers.analyzedCode(hash: codeHash, fork: rules.fork) { host.code(at: codeAddress) }
        if code.count == 0 { return .finished(FrameResult(status: .stop, gasLeft: message.gas)) }
        return .frame(
            Frame(
                message: message, address: message.recipient, code: code, stack: buffers.stack(depth: message.depth),
                memory: buffers.takeMemory(), checkpoint: checkpoint, refund: refund))
    }

    /// Moves `value` (the caller has checked the balance); a zero value only touches the recipient.
    @inlinable
    mutating func transfer(from sender: Address, to recipient: Address, _ value: UInt256) {
        if value.isZero {
            host.touch(recipient)
        } else {
            host.subtractBalance(sender, value)
            host.addBalance(recipient, value)
            if T.isEnabled { tracer.didTransfer(from: sender, to: recipient, value: value) }
        }
    }

    /// The precompile whose implementation runs for code at `address` (its original address): the fork's,
    /// unless this block removed or moved precompiles.
    @inlinable
    func precompileAddress(_ address: Address) -> Address? {
        if let overrides = block.precompileOverrides { return overrides.precompile(at: address, fork: rules.fork) }
        return Precompiles.isPrecompile(address, fork: rules.fork) ? address : nil
    }

    @inlinable
    mutating func runPrecompile(_ message: Message, precompile: Address, checkpoint: Int) -> FrameResult {
        let gasLimit = UInt64(Swift.max(0, message.gas))
        switch Precompiles.run(precompile, input: message.input, gasLimit: gasLimit, fork: rules.fork) {
        case .success(let used, let output) where used <= gasLimit:
            return FrameResult(status: .returned, gasLeft: message.gas - Int64(used), output: output)
        case .success, .failure:
            host.revert(to: checkpoint)
            return FrameResult(status: .precompileFailure, gasLeft: 0)
        case .unsupported(let reason):
            if unsupportedReason == nil { unsupportedReason = reason }
            host.revert(to: checkpoint)
            return FrameResult(status: .unsupported, gasLeft: 0)
        }
    }

    /// CREATE/CREATE2 and creation transactions: nonce, address, collision check, new account.
    @inlinable
    mutating func startCreate(_ message: Message) -> StartOutcome {
        if host.balance(of: message.caller) < message.value {
            return .finished(FrameResult(status: .insufficientBalance, gasLeft: message.gas))
        }
        let nonce = host.nonce(of: message.caller)
        if nonce == UInt64.max { return .finished(FrameResult(status: .nonceOverflow, gasLeft: message.gas)) }
        let address =
            message.kind == .create2
            ? ContractAddress.create2(sender: message.caller, salt: message.salt, initCodeHash: Keccak256.hash(message.input))
            : ContractAddress.create(sender: message.caller, nonce: nonce)
        host.setNonce(message.caller, nonce + 1)
        if rules.accessLists { _ = host.warmAccount(address) }
        // EIP-684 (and EIP-7610: non-empty storage also collides).
        if host.nonce(of: address) != 0 || host.codeHash(at: address) != .emptyCodeHash || host.hasStorage(address) {
            return .finished(FrameResult(status: .createCollision, gasLeft: 0))
        }
        let checkpoint = host.checkpoint()
        host.createContractAccount(address)
        if rules.emptyAccountsAreDead { host.setNonce(address, 1) }
        transfer(from: message.caller, to: address, message.value)
        let code = AnalyzedCode(message.input, fork: rules.fork)
        return .frame(
            Frame(
                message: message, address: address, code: code, stack: buffers.stack(depth: message.depth),
                memory: buffers.takeMemory(), checkpoint: checkpoint, refund: refund))
    }

    /// Ends a frame: deposits created code, reverts the journal on failure, returns the memory.
    @inlinable
    mutating func finish(_ frame: inout Frame, _ haltStatus: Status) -> FrameResult {
        var status = haltStatus
        var gasLeft = frame.registers.gas
        var output = frame.output
        var created: Address?
        let isCreate = frame.message.kind.isCreate
        if isCreate && (status == .stop || status == .returned || status == .selfDestructed) {
            created = frame.address
            if let limit = rules.maxCodeSize, output.count > limit {
                status = .codeSizeExceeded
            } else if rules.rejectsCodeStartingWithEF, output.first == 0xef {
                status = .invalidCodePrefix
            } else {
                let depositCost = Int64(output.count) * 200
                if gasLeft >= depositCost {
                    gasLeft -= depositCost
                    host.setCode(frame.address, output)
                } else if rules.homestead {
                    status = .outOfGas
                }
                // Frontier: a deposit the gas cannot pay leaves the contract without code.
            }
            output = []
        }
        if status.isExceptional {
            host.revert(to: frame.checkpoint)
            refund = frame.refundAtStart
            gasLeft = 0
            output = []
            created = nil
        } else if status == .reverted {
            host.revert(to: frame.checkpoint)
            refund = frame.refundAtStart
            created = nil
        }
        buffers.giveBack(frame.memory)
        return FrameResult(status: status, gasLeft: gasLeft, output: output, createdAddress: created)
    }

    /// Resumes `parent` after its child ended with `result`: returns the child's gas, pushes the
    /// success flag or new address, and copies the output.
    @inlinable
    mutating func resume(_ parent: inout Frame, with result: FrameResult, kind: CallKind) {
        parent.registers.gas += result.gasLeft
        if kind.isCreate {
            parent.registers.push(result.isSuccess ? UInt256(result.createdAddress?.bytes32 ?? .zero) : .zero)
            // EIP-211: only a reverted create leaves return data.
            parent.returnData = result.status == .reverted ? result.output : []
        } else {
            parent.registers.push(result.isSuccess ? .one : .zero)
            let count = Swift.min(parent.childOutputSize, result.output.count)
            if count > 0 {
                result.output.withUnsafeBytes { source in
                    (parent.memory.base + parent.childOutputOffset).copyMemory(from: source.baseAddress!, byteCount: count)
                }
            }
            parent.returnData = result.output
        }
    }
}

// The frame hooks' arguments, worked out only when a tracer is enabled (every call site tests `T.isEnabled`).
extension Interpreter {
    /// Tells the tracer `message` starts, with the account it runs on: the callee, or the address a creation
    /// will get (derived here as ``startCreate(_:)`` will, from the creator's nonce before any check).
    @inlinable
    mutating func traceEnter(_ message: Message) {
        let to: Address
        switch message.kind {
        case .create: to = ContractAddress.create(sender: message.caller, nonce: host.nonce(of: message.caller))
        case .create2:
            to = ContractAddress.create2(
                sender: message.caller, salt: message.salt, initCodeHash: Keccak256.hash(message.input))
        default: to = message.codeAddress
        }
        tracer.enterFrame(message, to: to)
    }

    /// Tells the tracer the message last entered ended with `result`; a successful creation's output is the
    /// code it deployed (``finish(_:_:)`` keeps it only in the state).
    @inlinable
    mutating func traceExit(_ message: Message, _ result: FrameResult) {
        var output = result.output
        if message.kind.isCreate, result.isSuccess, let created = result.createdAddress { output = host.code(at: created) }
        tracer.exitFrame(status: result.status, gasUsed: message.gas - result.gasLeft, output: output)
    }
}
