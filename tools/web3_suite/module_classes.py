"""The async module test classes both transports run (HTTP in test_web3_http.py, WebSocket in test_web3_ws.py), with
the marks geth's suite gives them (web3.py's tests/integration/go_ethereum/common.py). Their names do not start with
`Test`, so pytest collects them only through the transports' subclasses, each with its own `async_w3` fixture."""

from __future__ import annotations

import pytest

from web3._utils.module_testing import AsyncEthModuleTest
from web3._utils.module_testing.web3_module import AsyncWeb3ModuleTest

# geth's suite marks both typed-data tests xfail ("eth_signTypedData has not been released in geth"). The node serves
# eth_signTypedData, and the sync test_eth_sign_typed_data runs and passes; these two cannot pass against any node:
# - test_invalid_eth_sign_typed_data expects web3's in-process Web3ValueError (eth-tester's), while a node's refusal
#   arrives as a JSON-RPC error (Web3RPCError; the node answers -32602 naming the short Person[2] array);
# - the async test_eth_sign_typed_data fails inside web3's async ENS-name middleware (`async_map_if_collection`
#   unpacks each typed-data member as a pair: "too many values to unpack") before any request is sent.
GETH_XFAIL_INVALID_TYPED_DATA = pytest.mark.xfail(
    reason="geth's suite: eth_signTypedData has not been released in geth (expects eth-tester's in-process "
    "Web3ValueError; a node answers a JSON-RPC error)", raises=Exception)
GETH_XFAIL_ASYNC_TYPED_DATA = pytest.mark.xfail(
    reason="geth's suite: eth_signTypedData has not been released in geth (web3's async ENS middleware fails on the "
    "typed data before sending it)", raises=ValueError)


class CarchainAsyncWeb3ModuleTest(AsyncWeb3ModuleTest):
    def _check_web3_client_version(self, client_version):
        assert client_version.startswith("carchain")


class CarchainAsyncEthModuleTest(AsyncEthModuleTest):
    @GETH_XFAIL_ASYNC_TYPED_DATA
    @pytest.mark.asyncio
    async def test_eth_sign_typed_data(self, async_w3, keyfile_account_address_dual_type, async_skip_if_testrpc):
        await super().test_eth_sign_typed_data(async_w3, keyfile_account_address_dual_type, async_skip_if_testrpc)

    @GETH_XFAIL_INVALID_TYPED_DATA
    @pytest.mark.asyncio
    async def test_invalid_eth_sign_typed_data(
        self, async_w3, keyfile_account_address_dual_type, async_skip_if_testrpc
    ):
        await super().test_invalid_eth_sign_typed_data(
            async_w3, keyfile_account_address_dual_type, async_skip_if_testrpc)
