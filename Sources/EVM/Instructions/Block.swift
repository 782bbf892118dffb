import EthereumPrimitives

// Block information: BLOCKHASH … BLOBBASEFEE (0x40–0x4a, except SELFBALANCE).
extension Interpreter {
    /// BLOCKHASH: the hash of one of the 256 most recent blocks, else 0.
    @inlinable @inline(__always)
    mutating func opBlockhash(_ r: inout Registers, _ f: inout Frame) -> Status {
        let requested = r.top.pointee
        let current = block.number
        guard requested.fitsInUInt64, requested.low64 < current, current - requested.low64 <= 256 else {
            r.setTop(.zero)
            return .running
        }
        r.setTop(UInt256(host.blockHash(requested.low64)))
        return .running
    }

    /// COINBASE.
    @inlinable @inline(__always)
    func opCoinbase(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(block.coinbase.bytes32))
        return .running
    }

    /// TIMESTAMP.
    @inlinable @inline(__always)
    func opTimestamp(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(block.timestamp))
        return .running
    }

    /// NUMBER.
    @inlinable @inline(__always)
    func opNumber(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(block.number))
        return .running
    }

    /// DIFFICULTY, or PREVRANDAO from Paris (EIP-4399).
    @inlinable @inline(__always)
    func opPrevrandao(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(rules.prevRandao ? UInt256(block.prevRandao) : block.difficulty)
        return .running
    }

    /// GASLIMIT.
    @inlinable @inline(__always)
    func opGaslimit(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(block.gasLimit))
        return .running
    }

    /// CHAINID (EIP-1344).
    @inlinable @inline(__always)
    func opChainid(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(block.chainID)
        return .running
    }

    /// BASEFEE (EIP-3198).
    @inlinable @inline(__always)
    func opBasefee(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(block.baseFee)
        return .running
    }

    /// BLOBHASH (EIP-4844): the transaction's i-th blob versioned hash, 0 past the end.
    @inlinable @inline(__always)
    func opBlobhash(_ r: inout Registers, _ f: inout Frame) -> Status {
        let index = r.top.pointee
        let hashes = transaction.blobHashes
        if index.fitsInUInt64, index.low64 < UInt64(hashes.count) {
            r.setTop(UInt256(hashes[Int(index.low64)]))
        } else {
            r.setTop(.zero)
        }
        return .running
    }

    /// BLOBBASEFEE (EIP-7516).
    @inlinable @inline(__always)
    func opBlobbasefee(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(block.blobBaseFee)
        return .running
    }
}
