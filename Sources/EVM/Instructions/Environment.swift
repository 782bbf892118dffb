import EthereumPrimitives

// Execution environment: ADDRESS … EXTCODEHASH (0x30–0x3f) and SELFBALANCE (0x47, EIP-1884).
// Account-reading instructions pay EIP-2929's cold surcharge on first access (Berlin onward).
extension Interpreter {
    /// Warms `address` and charges the cold-access surcharge if it was cold (EIP-2929).
    @inlinable @inline(__always)
    mutating func chargeAccountAccess(_ address: Address, _ r: inout Registers) -> Bool {
        if rules.accessLists && host.warmAccount(address) { return r.charge(rules.coldAccountSurcharge) }
        return true
    }

    /// ADDRESS.
    @inlinable @inline(__always)
    func opAddress(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(f.address.bytes32))
        return .running
    }

    /// BALANCE.
    @inlinable @inline(__always)
    mutating func opBalance(_ r: inout Registers, _ f: inout Frame) -> Status {
        let address = Address(bytes32: r.top.pointee.bytes32)
        guard chargeAccountAccess(address, &r) else { return .outOfGas }
        r.setTop(host.balance(of: address))
        return .running
    }

    /// ORIGIN.
    @inlinable @inline(__always)
    func opOrigin(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(transaction.origin.bytes32))
        return .running
    }

    /// CALLER.
    @inlinable @inline(__always)
    func opCaller(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(f.message.caller.bytes32))
        return .running
    }

    /// CALLVALUE.
    @inlinable @inline(__always)
    func opCallvalue(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(f.message.value)
        return .running
    }

    /// CALLDATALOAD: 32 bytes of call data from an offset, zero-padded past the end.
    @inlinable @inline(__always)
    func opCalldataload(_ r: inout Registers, _ f: inout Frame) -> Status {
        let offsetWord = r.top.pointee
        let word = f.input.withUnsafeBytes { input in
            guard offsetWord.fitsInUInt64, offsetWord.low64 < UInt64(input.count), let base = input.baseAddress else {
                return UInt256.zero
            }
            let offset = Int(offsetWord.low64)
            if offset &+ 32 <= input.count { return UInt256(bigEndianAt: base + offset) }
            var word = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            return withUnsafeMutableBytes(of: &word) { buffer in
                buffer.baseAddress!.copyMemory(from: base + offset, byteCount: input.count &- offset)
                return UInt256(bigEndianAt: UnsafeRawPointer(buffer.baseAddress!))
            }
        }
        r.setTop(word)
        return .running
    }

    /// CALLDATASIZE.
    @inlinable @inline(__always)
    func opCalldatasize(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(UInt64(f.input.count)))
        return .running
    }

    /// Shared body of CALLDATACOPY, CODECOPY, RETURNDATACOPY and EXTCODECOPY: expansion, 3 gas per
    /// word, then the copy (zero-padded past the end of the source).
    @inlinable @inline(__always)
    func copyToMemory(
        _ r: inout Registers, _ f: inout Frame, destination: UInt256, sourceOffset: UInt256, size sizeWord: UInt256,
        from source: UnsafeRawBufferPointer
    ) -> Status {
        guard let (offset, size) = f.memoryRange(destination, sizeWord, gas: &r.gas) else { return .outOfGas }
        guard r.charge(Frame.wordCost(size, 3)) else { return .outOfGas }
        f.memory.copy(from: source, sourceOffset: sourceOffset, count: size, to: offset)
        return .running
    }

    /// CALLDATACOPY.
    @inlinable @inline(__always)
    func opCalldatacopy(_ r: inout Registers, _ f: inout Frame) -> Status {
        let destination = r.pop()
        let offset = r.pop()
        let size = r.pop()
        let input = f.input
        return input.withUnsafeBytes { copyToMemory(&r, &f, destination: destination, sourceOffset: offset, size: size, from: $0) }
    }

    /// CODESIZE.
    @inlinable @inline(__always)
    func opCodesize(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(UInt64(f.code.count)))
        return .running
    }

    /// CODECOPY.
    @inlinable @inline(__always)
    func opCodecopy(_ r: inout Registers, _ f: inout Frame) -> Status {
        let destination = r.pop()
        let offset = r.pop()
        let size = r.pop()
        let code = UnsafeRawBufferPointer(start: f.codeBytes, count: f.code.count)
        return copyToMemory(&r, &f, destination: destination, sourceOffset: offset, size: size, from: code)
    }

    /// GASPRICE.
    @inlinable @inline(__always)
    func opGasprice(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(transaction.gasPrice)
        return .running
    }

    /// EXTCODESIZE.
    @inlinable @inline(__always)
    mutating func opExtcodesize(_ r: inout Registers, _ f: inout Frame) -> Status {
        let address = Address(bytes32: r.top.pointee.bytes32)
        guard chargeAccountAccess(address, &r) else { return .outOfGas }
        r.setTop(UInt256(UInt64(host.codeSize(at: address))))
        return .running
    }

    /// EXTCODECOPY.
    @inlinable @inline(__always)
    mutating func opExtcodecopy(_ r: inout Registers, _ f: inout Frame) -> Status {
        let address = Address(bytes32: r.pop().bytes32)
        let destination = r.pop()
        let offset = r.pop()
        let size = r.pop()
        guard chargeAccountAccess(address, &r) else { return .outOfGas }
        if size.isZero {
            return .running
        }
        // Charge memory and copy gas before reading the code, so a failing copy reads nothing.
        guard let (memoryOffset, count) = f.memoryRange(destination, size, gas: &r.gas) else { return .outOfGas }
        guard r.charge(Frame.wordCost(count, 3)) else { return .outOfGas }
        let code = host.code(at: address)
        code.withUnsafeBytes { f.memory.copy(from: $0, sourceOffset: offset, count: count, to: memoryOffset) }
        return .running
    }

    /// RETURNDATASIZE (EIP-211).
    @inlinable @inline(__always)
    func opReturndatasize(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(UInt64(f.returnData.count)))
        return .running
    }

    /// RETURNDATACOPY (EIP-211): reading past the end of the return data is an exceptional halt.
    @inlinable @inline(__always)
    func opReturndatacopy(_ r: inout Registers, _ f: inout Frame) -> Status {
        let destination = r.pop()
        let offset = r.pop()
        let size = r.pop()
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= UInt256(UInt64(f.returnData.count)) else { return .returnDataOutOfBounds }
        let data = f.returnData
        return data.withUnsafeBytes { copyToMemory(&r, &f, destination: destination, sourceOffset: offset, size: size, from: $0) }
    }

    /// EXTCODEHASH (EIP-1052): 0 for a dead account, else the code hash.
    @inlinable @inline(__always)
    mutating func opExtcodehash(_ r: inout Registers, _ f: inout Frame) -> Status {
        let address = Address(bytes32: r.top.pointee.bytes32)
        guard chargeAccountAccess(address, &r) else { return .outOfGas }
        r.setTop(host.isDeadAccount(address) ? .zero : UInt256(host.codeHash(at: address)))
        return .running
    }

    /// SELFBALANCE (EIP-1884).
    @inlinable @inline(__always)
    mutating func opSelfbalance(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(host.balance(of: f.address))
        return .running
    }
}
