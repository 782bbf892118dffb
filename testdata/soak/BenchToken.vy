# pragma version 0.4.3
"""
@title BenchToken
@notice A minimal ERC-20 for the chain's soak (`ChainSoak`, `make soak`) and its test: the deployer holds the
        whole supply; transfer, approve, transferFrom, the views and the two events, nothing else. Compiled with
        `vyper --evm-version cancun -f bytecode testdata/soak/BenchToken.vy` (Vyper 0.4.3, tools/requirements.txt); the bytecode is
        in Sources/ChainSoak/Traffic.swift.
"""

event Transfer:
    sender: indexed(address)
    receiver: indexed(address)
    value: uint256

event Approval:
    owner: indexed(address)
    spender: indexed(address)
    value: uint256

balanceOf: public(HashMap[address, uint256])
allowance: public(HashMap[address, HashMap[address, uint256]])
totalSupply: public(uint256)


@deploy
def __init__(supply: uint256):
    self.balanceOf[msg.sender] = supply
    self.totalSupply = supply
    log Transfer(sender=empty(address), receiver=msg.sender, value=supply)


@external
def transfer(receiver: address, amount: uint256) -> bool:
    self.balanceOf[msg.sender] -= amount
    self.balanceOf[receiver] += amount
    log Transfer(sender=msg.sender, receiver=receiver, value=amount)
    return True


@external
def approve(spender: address, amount: uint256) -> bool:
    self.allowance[msg.sender][spender] = amount
    log Approval(owner=msg.sender, spender=spender, value=amount)
    return True


@external
def transferFrom(owner: address, receiver: address, amount: uint256) -> bool:
    self.allowance[owner][msg.sender] -= amount
    self.balanceOf[owner] -= amount
    self.balanceOf[receiver] += amount
    log Transfer(sender=owner, receiver=receiver, value=amount)
    return True
