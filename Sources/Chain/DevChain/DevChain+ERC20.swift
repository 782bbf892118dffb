import EVM
import EthereumPrimitives
import EthereumTransactions

/// `anvil_dealERC20` and `anvil_setERC20Allowance`: an ERC-20's balance or allowance set by writing the storage
/// slot that holds it, found as anvil finds it — without knowing the token's layout. The view (`balanceOf(owner)` or
/// `allowance(owner, spender)`) is run for its access list (`eth_createAccessList`), and each slot of the token it
/// read is tried in turn: the view is called again with that slot overridden (as `eth_call`'s state override does),
/// and the slot whose value the view then returns is the one. Unlike anvil, which overrides with the amount asked
/// for, the probe is a value the view does not already return, so a slot that merely holds the same number (a zero
/// flag, say, when the amount is 0) is never taken for the balance.
extension DevChain {
    /// Sets `owner`'s balance of `token` to `amount` (`anvil_dealERC20`); returns the slot written.
    @discardableResult
    public func dealERC20(owner: Address, token: Address, amount: UInt256) throws(ChainError) -> UInt256 {
        let call = Self.erc20Call("balanceOf(address)", [owner])
        let slot = try erc20Slot(token: token, call: call, what: "balance")
        try setStorage(token, slot: slot, value: amount)
        return slot
    }

    /// Sets the allowance `owner` gives `spender` on `token` to `amount` (`anvil_setERC20Allowance`); returns the slot
    /// written.
    @discardableResult
    public func setERC20Allowance(owner: Address, spender: Address, token: Address, amount: UInt256) throws(ChainError) -> UInt256 {
        let call = Self.erc20Call("allowance(address,address)", [owner, spender])
        let slot = try erc20Slot(token: token, call: call, what: "allowance")
        try setStorage(token, slot: slot, value: amount)
        return slot
    }

    /// The calldata of an ERC-20 view taking addresses.
    static func erc20Call(_ signature: String, _ addresses: [Address]) -> [UInt8] {
        var data = Array(Keccak256.hash(Array(signature.utf8)).bytes.prefix(4))
        for address in addresses { data += [UInt8](repeating: 0, count: 12) + address.bytes }
        return data
    }

    /// The slot of `token` whose value `call` (a view returning one uint256) returns.
    private func erc20Slot(token: Address, call data: [UInt8], what: String) throws(ChainError) -> UInt256 {
        guard !working.code(at: token).isEmpty else {
            throw .invalidParams("\(token) has no code: not an ERC-20 token")
        }
        let request = CallRequest(to: token, data: data)
        let current = try erc20Word(call(request, at: .latest), token: token, what: what)
        let listed = try createAccessList(request, at: .latest).accessList
        // A value the view does not return now (a recognisable pattern; the current value plus one if it is that).
        let marker = UInt256(truncatingBigEndian: Array(repeating: 0xa5, count: 32))
        let probe = current == marker ? marker &+ .one : marker
        // The token's own slots, in the order the view read them (EIP-2930 lists keep first-access order).
        for entry in listed where entry.address == token {
            for key in entry.storageKeys {
                let slot = UInt256(truncatingBigEndian: key.bytes)
                let result = try call(request, at: .latest, overrides: [token: AccountOverride(stateDiff: [slot: probe])])
                guard result.isSuccess, result.output.count >= 32 else { continue }
                if UInt256(truncatingBigEndian: Array(result.output.prefix(32))) == probe { return slot }
            }
        }
        throw .executionFailed("Unable to set ERC20 \(what), no slot found: no storage slot of \(token) that the view reads holds the \(what)")
    }

    /// The uint256 a view returned, or why it is not an ERC-20 answer.
    private func erc20Word(_ result: CallResult, token: Address, what: String) throws(ChainError) -> UInt256 {
        if let error = result.error { throw .executionFailed("\(token) did not answer the \(what) view: \(error.description)") }
        guard result.output.count >= 32 else {
            throw .executionFailed("\(token) answered the \(what) view with \(result.output.count) bytes, not a uint256: not an ERC-20 token")
        }
        return UInt256(truncatingBigEndian: Array(result.output.prefix(32)))
    }
}
