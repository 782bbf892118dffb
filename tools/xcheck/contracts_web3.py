"""web3.py reads snekmate's contracts that the Swift bindings deployed and drove on a carchain node.

Reads a JSON request on stdin: {"url", "abiDir", "contracts": {"ERC20Token": "0x…", …}, "accounts": ["0x…", …]}
and prints the same readings Tests/EthereumContractsTests/Support/SnekmateScenario.swift takes, computed by
web3.py's own ABI codec and contract objects (so the comparison checks the bindings' encoding and decoding
against an independent implementation, not against themselves).
"""

import json
import sys
from pathlib import Path

from web3 import Web3


def main() -> None:
    request = json.load(sys.stdin)
    w3 = Web3(Web3.HTTPProvider(request["url"], request_kwargs={"timeout": 60}))
    abi_dir = Path(request["abiDir"])

    def contract(name: str):
        abi = json.loads((abi_dir / f"{name}.json").read_text())
        return w3.eth.contract(address=Web3.to_checksum_address(request["contracts"][name]), abi=abi)

    token, nft, multi = contract("ERC20Token"), contract("ERC721Token"), contract("ERC1155Token")
    vault, access = contract("ERC4626Vault"), contract("AccessControl")
    accounts = [Web3.to_checksum_address(a) for a in request["accounts"]]
    alice, bob, carol = accounts[1], accounts[2], accounts[3]

    readings = {}
    for i, account in enumerate(accounts[:4]):
        readings[f"erc20.balanceOf.{i}"] = str(token.functions.balanceOf(account).call())
        readings[f"erc721.balanceOf.{i}"] = str(nft.functions.balanceOf(account).call())
        readings[f"erc4626.balanceOf.{i}"] = str(vault.functions.balanceOf(account).call())
    readings["erc20.totalSupply"] = str(token.functions.totalSupply().call())
    readings["erc20.allowance.1.3"] = str(token.functions.allowance(alice, carol).call())
    readings["erc721.ownerOf.0"] = nft.functions.ownerOf(0).call()
    readings["erc721.tokenURI.1"] = nft.functions.tokenURI(1).call()
    readings["erc1155.balanceOfBatch"] = ",".join(
        str(v) for v in multi.functions.balanceOfBatch([alice, bob, carol], [7, 3, 2]).call())
    readings["erc1155.uri.7"] = multi.functions.uri(7).call()
    readings["erc4626.totalAssets"] = str(vault.functions.totalAssets().call())
    readings["erc4626.convertToShares.50"] = str(vault.functions.convertToShares(50).call())
    admin = access.functions.DEFAULT_ADMIN_ROLE().call()
    readings["access.hasRole.admin.0"] = "true" if access.functions.hasRole(admin, accounts[0]).call() else "false"
    readings["erc20.transferLogs"] = str(len(token.events.Transfer().get_logs(from_block=0)))
    # Events decoded by web3.py: every Transfer to bob, and the ERC-1155 batch.
    readings["web3.erc20.transfersToBob"] = ",".join(
        str(log["args"]["value"]) for log in token.events.Transfer().get_logs(from_block=0, argument_filters={"receiver": bob}))
    batch = multi.events.TransferBatch().get_logs(from_block=0)
    readings["web3.erc1155.batches"] = ";".join(
        f"{','.join(map(str, log['args']['_ids']))}/{','.join(map(str, log['args']['_values']))}" for log in batch)
    json.dump(readings, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
