# pragma version ~=0.4.3
# A small bank with a planted bug, for EthereumTesting's own tests (docs/TESTING.md): a fuzz test and an invariant
# test must find that `move` to oneself creates money, and shrink the case to the smallest one.
# Balances are bookkeeping only (no ether moves), so the invariant is: the sum of balances equals `total`.

event Deposited:
    owner: indexed(address)
    amount: uint256

event Moved:
    sender: indexed(address)
    receiver: indexed(address)
    amount: uint256

balanceOf: public(HashMap[address, uint256])
total: public(uint256)
opensAt: public(uint256)


@deploy
def __init__(opens_at: uint256):
    self.opensAt = opens_at


@external
def deposit(amount: uint256):
    assert block.timestamp >= self.opensAt, "bank: closed"
    self.balanceOf[msg.sender] += amount
    self.total += amount
    log Deposited(owner=msg.sender, amount=amount)


@external
def withdraw(amount: uint256):
    available: uint256 = self.balanceOf[msg.sender]
    if amount > available:
        # InsufficientBalance(uint256 available, uint256 requested), a custom error as Solidity encodes one.
        raw_revert(concat(method_id("InsufficientBalance(uint256,uint256)"), abi_encode(available, amount)))
    self.balanceOf[msg.sender] = available - amount
    self.total -= amount


@external
def move(receiver: address, amount: uint256):
    # The planted bug: both balances are read before either is written, so moving to oneself adds `amount`.
    from_balance: uint256 = self.balanceOf[msg.sender]
    to_balance: uint256 = self.balanceOf[receiver]
    if amount > from_balance:
        raw_revert(concat(method_id("InsufficientBalance(uint256,uint256)"), abi_encode(from_balance, amount)))
    self.balanceOf[msg.sender] = from_balance - amount
    self.balanceOf[receiver] = to_balance + amount
    log Moved(sender=msg.sender, receiver=receiver, amount=amount)
