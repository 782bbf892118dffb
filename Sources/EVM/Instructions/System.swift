import EthereumPrimitives

// SELFDESTRUCT: sends the balance to a beneficiary and (before Cancun, or for a contract created in
// the same transaction, EIP-6780) deletes the account at the end of the transaction.
extension Interpreter {
    /// SELFDESTRUCT.
    @inlinable @inline(__always)
    mutating func opSelfdestruct(_ r: inout Registers, _ f: inout Frame) -> Status {
        if f.message.isStatic { return .staticStateChange }
        let beneficiary = Address(bytes32: r.pop().bytes32)
        var cost: Int64 = 0
        // EIP-2929: a cold beneficiary costs COLD_ACCOUNT_ACCESS_COST (2,600); there is no warm charge.
        if rules.accessLists && host.warmAccount(beneficiary) { cost += rules.coldAccountSurcharge + 100 }
        let balance = host.balance(of: f.address)
        if rules.allButOne64th {
            // EIP-150 charges for creating the beneficiary; EIP-161 only when value moves to a dead account.
            if rules.emptyAccountsAreDead {
                if !balance.isZero && host.isDeadAccount(beneficiary) { cost += Self.newAccountCost }
            } else if !host.accountExists(beneficiary) {
                cost += Self.newAccountCost
            }
        }
        guard r.charge(cost) else { return .outOfGas }
        if T.isEnabled && !balance.isZero { tracer.didTransfer(from: f.address, to: beneficiary, value: balance) }
        if rules.selfDestructOnlyIfCreatedInTransaction {
            if !balance.isZero { host.subtractBalance(f.address, balance) }
            host.addBalance(beneficiary, balance)
            if host.isCreatedInTransaction(f.address) { _ = host.markSelfDestructed(f.address) }
        } else {
            host.addBalance(beneficiary, balance)
            if host.markSelfDestructed(f.address) { refund += rules.selfDestructRefund }
        }
        return .selfDestructed
    }
}
