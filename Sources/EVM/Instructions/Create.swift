import EthereumPrimitives

// Contract creation: CREATE and CREATE2 (EIP-1014). The instruction charges the init-code costs
// (EIP-3860's 2 gas per word from Shanghai; CREATE2 also hashes the init code, 6 gas per word) and
// hands all but one 64th of the remaining gas (EIP-150) to the child frame.
extension Interpreter {
    /// CREATE or CREATE2, by `kind`.
    @inlinable @inline(__always)
    mutating func opCreate(_ r: inout Registers, _ f: inout Frame, kind: CallKind) -> Status {
        if f.message.isStatic { return .staticStateChange }
        let value = r.pop()
        let offsetWord = r.pop()
        let sizeWord = r.pop()
        let salt = kind == .create2 ? r.pop() : .zero
        guard let (offset, size) = f.memoryRange(offsetWord, sizeWord, gas: &r.gas) else { return .outOfGas }
        if let limit = rules.maxInitCodeSize, size > limit { return .initCodeSizeExceeded }
        var cost = Frame.wordCost(size, rules.initCodeWordCost)
        if kind == .create2 { cost += Frame.wordCost(size, 6) }
        guard r.charge(cost) else { return .outOfGas }
        var childGas = r.gas
        if rules.allButOne64th { childGas -= childGas / 64 }
        r.gas -= childGas
        pendingMessage = Message(
            kind: kind, caller: f.address, recipient: .zero, codeAddress: .zero, value: value,
            input: f.memoryBytes(offset, size), gas: childGas, isStatic: false, depth: f.message.depth + 1, salt: salt)
        return .create
    }
}
