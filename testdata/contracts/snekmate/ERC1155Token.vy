# pragma version ~=0.4.3
# A deployable ERC-1155 made of snekmate's modules (see ERC20Token.vy).
from snekmate.auth import ownable as ow
initializes: ow

from snekmate.tokens import erc1155
initializes: erc1155[ownable := ow]

exports: erc1155.__interface__


@deploy
@payable
def __init__(base_uri_: String[80]):
    ow.__init__()
    erc1155.__init__(base_uri_)
