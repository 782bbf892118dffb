# pragma version ~=0.4.3
# A deployable ERC-20 made of snekmate's modules (PyPI snekmate, pinned in tools/requirements.txt): this file only
# initialises and exports them, so the contract under test is snekmate's code, not ours.
from snekmate.auth import ownable as ow
initializes: ow

from snekmate.tokens import erc20
initializes: erc20[ownable := ow]

exports: erc20.__interface__


@deploy
@payable
def __init__(name_: String[25], symbol_: String[5], decimals_: uint8, name_eip712_: String[50], version_eip712_: String[20]):
    ow.__init__()
    erc20.__init__(name_, symbol_, decimals_, name_eip712_, version_eip712_)
