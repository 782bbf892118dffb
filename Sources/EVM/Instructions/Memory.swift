import EthereumPrimitives

// Memory: MLOAD, MSTORE, MSTORE8, MSIZE, MCOPY (EIP-5656), and KECCAK256, which hashes memory.
// Expansion is charged by Frame.memoryOffset/memoryRange (3 gas per word + words²/512).
extension Interpreter {
    /// MLOAD: the 32-byte word at an offset.
    @inlinable @inline(__always)
    func opMload(_ r: inout Registers, _ f: inout Frame) -> Status {
        guard let offset = f.memoryOffset(r.top.pointee, size: 32, gas: &r.gas) else { return .outOfGas }
        r.setTop(UInt256(bigEndianAt: f.memory.base + offset))
        return .running
    }

    /// MSTORE: writes a 32-byte word.
    @inlinable @inline(__always)
    func opMstore(_ r: inout Registers, _ f: inout Frame) -> Status {
        let offsetWord = r.pop()
        let value = r.pop()
        guard let offset = f.memoryOffset(offsetWord, size: 32, gas: &r.gas) else { return .outOfGas }
        value.storeBigEndian(to: f.memory.base + offset)
        return .running
    }

    /// MSTORE8: writes the low byte of a word.
    @inlinable @inline(__always)
    func opMstore8(_ r: inout Registers, _ f: inout Frame) -> Status {
        let offsetWord = r.pop()
        let value = r.pop()
        guard let offset = f.memoryOffset(offsetWord, size: 1, gas: &r.gas) else { return .outOfGas }
        f.memory.base.storeBytes(of: UInt8(truncatingIfNeeded: value.low64), toByteOffset: offset, as: UInt8.self)
        return .running
    }

    /// MLOAD inside active or zeroed memory (Frame.inlineOffset); false (nothing done) when the
    /// expansion must run out of line.
    @inlinable @inline(__always)
    func opMloadActive(_ r: inout Registers, _ f: inout Frame) -> Bool {
        guard let offset = f.inlineOffset(r.top.pointee, size: 32, gas: &r.gas) else { return false }
        r.setTop(UInt256(bigEndianAt: f.memory.base + offset))
        return true
    }

    /// MSTORE inside active or zeroed memory; false (nothing done) when the expansion must run out of line.
    @inlinable @inline(__always)
    func opMstoreActive(_ r: inout Registers, _ f: inout Frame) -> Bool {
        guard let offset = f.inlineOffset(r.top.pointee, size: 32, gas: &r.gas) else { return false }
        r.peek(1).storeBigEndian(to: f.memory.base + offset)
        r.sp -= 2
        return true
    }

    /// MSTORE8 inside active or zeroed memory; false (nothing done) when the expansion must run out of line.
    @inlinable @inline(__always)
    func opMstore8Active(_ r: inout Registers, _ f: inout Frame) -> Bool {
        guard let offset = f.inlineOffset(r.top.pointee, size: 1, gas: &r.gas) else { return false }
        f.memory.base.storeBytes(of: UInt8(truncatingIfNeeded: r.peek(1).low64), toByteOffset: offset, as: UInt8.self)
        r.sp -= 2
        return true
    }

    /// MSIZE: the active memory size in bytes.
    @inlinable @inline(__always)
    func opMsize(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(UInt64(f.memory.size)))
        return .running
    }

    /// MCOPY (EIP-5656): copies within memory (overlap allowed); 3 gas per word plus expansion to
    /// cover both ranges.
    @inlinable @inline(__always)
    func opMcopy(_ r: inout Registers, _ f: inout Frame) -> Status {
        let destinationWord = r.pop()
        let sourceWord = r.pop()
        let sizeWord = r.pop()
        if sizeWord.isZero { return .running }
        guard sizeWord.fitsInUInt64, sizeWord.low64 <= UInt64(Memory.maxSize) else { return .outOfGas }
        let size = Int(sizeWord.low64)
        guard r.charge(Frame.wordCost(size, 3)) else { return .outOfGas }
        guard let source = f.memoryOffset(sourceWord, size: size, gas: &r.gas),
            let destination = f.memoryOffset(destinationWord, size: size, gas: &r.gas)
        else { return .outOfGas }
        (f.memory.base + destination).copyMemory(from: f.memory.base + source, byteCount: size)
        return .running
    }

    /// KECCAK256: hash of a memory range; 6 gas per word plus expansion.
    @inlinable @inline(__always)
    func opKeccak256(_ r: inout Registers, _ f: inout Frame) -> Status {
        let offsetWord = r.pop()
        let sizeWord = r.top.pointee
        guard let (offset, size) = f.memoryRange(offsetWord, sizeWord, gas: &r.gas) else { return .outOfGas }
        guard r.charge(Frame.wordCost(size, 6)) else { return .outOfGas }
        let digest = Keccak256.hash(UnsafeRawBufferPointer(start: f.memory.base + offset, count: size))
        r.setTop(UInt256(digest))
        return .running
    }
}
