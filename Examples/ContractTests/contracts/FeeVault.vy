# pragma version ~=0.4.3
# A small vault with a withdrawal fee and a planted bug, written for the Examples/ContractTests suite: its fuzz test
# must find the bug and shrink it to the smallest case (a deposit of 100 withdrawn whole).
# Balances are bookkeeping only (no ether moves): deposits are locked for a day; a withdrawal pays out the amount less
# a 1% fee (rounded down), which goes to `feesCollected`. The vault's books: `total` is the sum of every balance.

event Deposited:
    owner: indexed(address)
    amount: uint256

event Withdrawn:
    owner: indexed(address)
    amount: uint256
    fee: uint256

LOCK_SECONDS: constant(uint256) = 86400
FEE_PERCENT: constant(uint256) = 1

balanceOf: public(HashMap[address, uint256])
unlocksAt: public(HashMap[address, uint256])
total: public(uint256)
feesCollected: public(uint256)


@external
def deposit(amount: uint256):
    assert amount > 0, "vault: nothing to deposit"
    self.balanceOf[msg.sender] += amount
    self.total += amount
    self.unlocksAt[msg.sender] = block.timestamp + LOCK_SECONDS
    log Deposited(owner=msg.sender, amount=amount)


@external
def withdraw(amount: uint256):
    unlocks: uint256 = self.unlocksAt[msg.sender]
    if block.timestamp < unlocks:
        # Locked(uint256 unlocksAt), a custom error as Solidity encodes one.
        raw_revert(concat(method_id("Locked(uint256)"), abi_encode(unlocks)))
    available: uint256 = self.balanceOf[msg.sender]
    if amount > available:
        # InsufficientBalance(uint256 available, uint256 requested)
        raw_revert(concat(method_id("InsufficientBalance(uint256,uint256)"), abi_encode(available, amount)))
    fee: uint256 = amount * FEE_PERCENT // 100
    # The planted bug: the fee is kept out of the payout but not booked against the balance, so every withdrawal of
    # 100 or more leaves its fee behind, to be withdrawn again (the owner should lose `amount`, not `amount - fee`).
    self.balanceOf[msg.sender] = available - (amount - fee)
    self.total -= amount
    self.feesCollected += fee
    log Withdrawn(owner=msg.sender, amount=amount - fee, fee=fee)
