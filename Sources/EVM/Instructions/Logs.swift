import EthereumPrimitives

// Logging: LOG0–LOG4. The static gas (375 + 375 per topic) is in the table; the data costs 8 per byte.
extension Interpreter {
    /// LOGn: appends a log entry with `topics` topics (not allowed in a static context).
    @inlinable @inline(__always)
    mutating func opLog(_ r: inout Registers, _ f: inout Frame, topics count: Int) -> Status {
        if f.message.isStatic { return .staticStateChange }
        let offsetWord = r.pop()
        let sizeWord = r.pop()
        var topics = [Bytes32]()
        topics.reserveCapacity(count)
        for _ in 0..<count { topics.append(r.pop().bytes32) }
        guard let (offset, size) = f.memoryRange(offsetWord, sizeWord, gas: &r.gas) else { return .outOfGas }
        guard r.charge(Int64(size) &* 8) else { return .outOfGas }
        let log = Log(address: f.address, topics: topics, data: f.memoryBytes(offset, size))
        host.emitLog(log)
        if T.isEnabled { tracer.didEmitLog(log) }
        return .running
    }
}
