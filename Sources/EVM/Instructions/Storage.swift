import EthereumPrimitives

// Storage: SLOAD, SSTORE (with the fork's metering and refunds), TLOAD/TSTORE (EIP-1153).
extension Interpreter {
    /// SLOAD; from Berlin the first access to a slot pays the cold surcharge (EIP-2929).
    @inlinable @inline(__always)
    mutating func opSload(_ r: inout Registers, _ f: inout Frame) -> Status {
        let (value, wasCold) = host.loadSlot(f.address, r.top.pointee, warm: rules.accessLists)
        if wasCold {
            guard r.charge(rules.coldSlotSurcharge) else { return .outOfGas }
        }
        r.setTop(value)
        return .running
    }

    /// SSTORE.
    @inlinable @inline(__always)
    mutating func opSstore(_ r: inout Registers, _ f: inout Frame) -> Status {
        if f.message.isStatic { return .staticStateChange }
        let key = r.pop()
        let value = r.pop()
        return sstore(&r, &f, key: key, value: value)
    }

    /// SSTORE gas and refunds.
    ///
    /// Legacy (Frontier–Byzantium, Petersburg): 20,000 to set a zero slot, else 5,000; 15,000
    /// refund for clearing. Net metering (EIP-1283 in Constantinople, EIP-2200 from Istanbul, with
    /// EIP-2929's cold surcharge and EIP-3529's smaller clear refund) prices a write by the slot's
    /// original value (at the start of the transaction), current value and new value.
    @inlinable @inline(__always)
    mutating func sstore(_ r: inout Registers, _ f: inout Frame, key: UInt256, value: UInt256) -> Status {
        let s = rules.sstore
        if s.kind == .netMeteringEIP2200 && r.gas <= 2_300 { return .outOfGas }  // EIP-2200 stipend sentry
        let (current, original, wasCold) = host.slotForWrite(f.address, key, warm: rules.accessLists)
        var cost: Int64 = 0
        // EIP-2929: a cold slot costs COLD_SLOAD_COST (2,100 = the surcharge + the 100 warm read) on top.
        if wasCold { cost = rules.coldSlotSurcharge + 100 }
        switch s.kind {
        case .legacy:
            if current.isZero && !value.isZero {
                cost += s.setCost
            } else {
                cost += s.resetCost
                if !current.isZero && value.isZero { refund += s.clearRefund }
            }
        case .netMeteringEIP1283, .netMeteringEIP2200:
            if current == value {
                cost += s.noopCost
            } else {
                if original == current {
                    if original.isZero {
                        cost += s.setCost
                    } else {
                        cost += s.resetCost
                        if value.isZero { refund += s.clearRefund }
                    }
                } else {
                    cost += s.noopCost
                    if !original.isZero {
                        if current.isZero {
                            refund -= s.clearRefund
                        } else if value.isZero {
                            refund += s.clearRefund
                        }
                    }
                    if original == value {
                        refund += original.isZero ? s.setCost - s.noopCost : s.resetCost - s.noopCost
                    }
                }
            }
        }
        guard r.charge(cost) else { return .outOfGas }
        host.setStorage(f.address, key, value)
        return .running
    }

    /// TLOAD (EIP-1153).
    @inlinable @inline(__always)
    mutating func opTload(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.setTop(host.transientStorage(f.address, r.top.pointee))
        return .running
    }

    /// TSTORE (EIP-1153): a state change, so not allowed in a static context.
    @inlinable @inline(__always)
    mutating func opTstore(_ r: inout Registers, _ f: inout Frame) -> Status {
        if f.message.isStatic { return .staticStateChange }
        let key = r.pop()
        let value = r.pop()
        host.setTransientStorage(f.address, key, value)
        return .running
    }
}
