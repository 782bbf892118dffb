# pragma version ~=0.4.3
"""
@title Demo token
@notice A minimal fungible token for the TokenApp example: the deployer holds the whole supply.
@dev Written for this example (not for production): no allowances, no minting after deployment.
"""

event Transfer:
    sender: indexed(address)
    to: indexed(address)
    value: uint256

name: public(String[32])
symbol: public(String[8])
totalSupply: public(uint256)
balances: HashMap[address, uint256]


@deploy
def __init__(name_: String[32], symbol_: String[8], supply: uint256):
    """
    @param name_ The token's name.
    @param symbol_ Its ticker.
    @param supply Units created for the deployer.
    """
    self.name = name_
    self.symbol = symbol_
    self.totalSupply = supply
    self.balances[msg.sender] = supply
    log Transfer(sender=empty(address), to=msg.sender, value=supply)


@external
@view
def balanceOf(owner: address) -> uint256:
    """
    @notice The units `owner` holds.
    """
    return self.balances[owner]


@external
def transfer(to: address, amount: uint256) -> bool:
    """
    @notice Moves `amount` units from the sender to `to`.
    @param to The receiver.
    @param amount Units to move.
    """
    assert self.balances[msg.sender] >= amount, "insufficient balance"
    self.balances[msg.sender] -= amount
    self.balances[to] += amount
    log Transfer(sender=msg.sender, to=to, value=amount)
    return True
