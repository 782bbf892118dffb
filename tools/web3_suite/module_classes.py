"""The module test classes more than one transport runs (HTTP in test_web3_http.py, WebSocket in test_web3_ws.py,
IPC in test_web3_ipc.py), with the marks geth's suite gives them (web3.py's tests/integration/go_ethereum/common.py).
Their names do not start with `Test`, so pytest collects them only through the transports' subclasses, each with its
own `w3` / `async_w3` fixture."""

from __future__ import annotations

import pytest

from web3 import AutoProvider
from web3._utils.module_testing import AsyncEthModuleTest, EthModuleTest
from web3._utils.module_testing.web3_module import AsyncWeb3ModuleTest

# geth's suite marks these xfail(strict=False), "Inconsistently creating timeout issues.": the "unmined" ones race
# the dev-mode miner (a block can be sealed between sending and asking), the estimates time out on a loaded geth.
# They run here and are expected to pass; strict=False only keeps geth's tolerance of the race.
GETH_FLAKY = pytest.mark.xfail(reason="geth's suite: Inconsistently creating timeout issues.", strict=False)

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


class CarchainEthModuleTest(EthModuleTest):
    # geth's test_goethereum_http.py and test_goethereum_ipc.py add this one: a batch through web3's AutoProvider, which
    # finds the transport from WEB3_PROVIDER_URI (each transport's `auto_w3` fixture sets it).
    def test_auto_provider_batching(self, auto_w3) -> None:
        with auto_w3.batch_requests() as batch:
            assert isinstance(auto_w3.provider, AutoProvider)
            assert auto_w3.provider._is_batching
            assert auto_w3.provider._batching_context is not None
            batch.add(auto_w3.eth.get_block("latest"))
            batch.add(auto_w3.eth.get_block("earliest"))
            batch.add(auto_w3.eth.get_block("pending"))
            results = batch.execute()
        assert not auto_w3.provider._is_batching
        assert len(results) == 3

    @GETH_XFAIL_INVALID_TYPED_DATA
    def test_invalid_eth_sign_typed_data(self, w3, keyfile_account_address_dual_type, skip_if_testrpc):
        super().test_invalid_eth_sign_typed_data(w3, keyfile_account_address_dual_type, skip_if_testrpc)

    @GETH_FLAKY
    def test_eth_estimate_gas(self, w3, keyfile_account_address_dual_type):
        super().test_eth_estimate_gas(w3, keyfile_account_address_dual_type)

    @GETH_FLAKY
    def test_eth_estimate_gas_with_block(self, w3, keyfile_account_address_dual_type):
        super().test_eth_estimate_gas_with_block(w3, keyfile_account_address_dual_type)

    @GETH_FLAKY
    def test_eth_get_transaction_receipt_unmined(self, w3, keyfile_account_address_dual_type):
        super().test_eth_get_transaction_receipt_unmined(w3, keyfile_account_address_dual_type)

    @GETH_FLAKY
    def test_eth_wait_for_transaction_receipt_unmined(self, w3, keyfile_account_address_dual_type):
        super().test_eth_wait_for_transaction_receipt_unmined(w3, keyfile_account_address_dual_type)
