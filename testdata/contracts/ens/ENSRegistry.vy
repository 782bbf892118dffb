# pragma version ~=0.4.3
"""
@title ENS registry for the ENS tests (EIP-137)
@notice The registry interface of EIP-137 (owner, resolver and TTL per node; subnodes created by a node's owner)
        with the operator approvals of ENSIP-1's later registry. Written here from the EIP: no package the tests
        can install ships the deployed registry's bytecode, while the public resolver, reverse registrar and
        resolvers the tests deploy are ENS's published bytecode (web3.py's ens/contract_data.py). The tests
        compile it with the venv's vyper (Tests/EthereumContractsTests/ENSTests.swift).
"""

event NewOwner:
    node: indexed(bytes32)
    label: indexed(bytes32)
    owner: address

event Transfer:
    node: indexed(bytes32)
    owner: address

event NewResolver:
    node: indexed(bytes32)
    resolver: address

event NewTTL:
    node: indexed(bytes32)
    ttl: uint64

event ApprovalForAll:
    owner: indexed(address)
    operator: indexed(address)
    approved: bool


struct Record:
    owner: address
    resolver: address
    ttl: uint64


records: HashMap[bytes32, Record]
operators: HashMap[address, HashMap[address, bool]]


@deploy
def __init__():
    # The deployer owns the root node.
    self.records[empty(bytes32)].owner = msg.sender


@internal
@view
def _authorised(node: bytes32) -> bool:
    holder: address = self.records[node].owner
    return holder == msg.sender or self.operators[holder][msg.sender]


@external
def setOwner(node: bytes32, owner: address):
    assert self._authorised(node), "ENS: not the owner"
    self.records[node].owner = owner
    log Transfer(node=node, owner=owner)


@external
def setSubnodeOwner(node: bytes32, label: bytes32, owner: address) -> bytes32:
    assert self._authorised(node), "ENS: not the owner"
    subnode: bytes32 = keccak256(concat(node, label))
    self.records[subnode].owner = owner
    log NewOwner(node=node, label=label, owner=owner)
    return subnode


@external
def setResolver(node: bytes32, resolver: address):
    assert self._authorised(node), "ENS: not the owner"
    self.records[node].resolver = resolver
    log NewResolver(node=node, resolver=resolver)


@external
def setTTL(node: bytes32, ttl: uint64):
    assert self._authorised(node), "ENS: not the owner"
    self.records[node].ttl = ttl
    log NewTTL(node=node, ttl=ttl)


@external
def setRecord(node: bytes32, owner: address, resolver: address, ttl: uint64):
    assert self._authorised(node), "ENS: not the owner"
    self.records[node] = Record(owner=owner, resolver=resolver, ttl=ttl)
    log Transfer(node=node, owner=owner)
    log NewResolver(node=node, resolver=resolver)
    log NewTTL(node=node, ttl=ttl)


@external
def setApprovalForAll(operator: address, approved: bool):
    self.operators[msg.sender][operator] = approved
    log ApprovalForAll(owner=msg.sender, operator=operator, approved=approved)


@external
@view
def owner(node: bytes32) -> address:
    return self.records[node].owner


@external
@view
def resolver(node: bytes32) -> address:
    return self.records[node].resolver


@external
@view
def ttl(node: bytes32) -> uint64:
    return self.records[node].ttl


@external
@view
def recordExists(node: bytes32) -> bool:
    return self.records[node].owner != empty(address)


@external
@view
def isApprovedForAll(owner: address, operator: address) -> bool:
    return self.operators[owner][operator]
