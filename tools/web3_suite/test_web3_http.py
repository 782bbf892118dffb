"""web3.py's module test classes over sync and async HTTP against `carchain node` (fixtures in conftest.py; the async
classes shared with the WebSocket run and their marks are in module_classes.py).

The classes and their overrides follow web3.py's tests/integration/go_ethereum/{common,test_goethereum_http}.py.
What geth's own suite marks xfail is marked the same way here, with geth's reason; the admin classes are left out
(geth's `admin_` namespace: peers, HTTP/WS endpoints, datadir — nothing a dev node has). Every other test runs.
"""

from __future__ import annotations

import pytest

from web3 import AsyncWeb3, AutoProvider
from web3._utils.module_testing import (
    AsyncNetModuleTest,
    EthModuleTest,
    GoEthereumAsyncDebugModuleTest,
    GoEthereumAsyncTxPoolModuleTest,
    GoEthereumDebugModuleTest,
    GoEthereumTxPoolModuleTest,
    NetModuleTest,
    Web3ModuleTest,
)
from web3.providers.rpc import AsyncHTTPProvider

from module_classes import GETH_XFAIL_INVALID_TYPED_DATA, CarchainAsyncEthModuleTest, CarchainAsyncWeb3ModuleTest

# geth's suite marks these xfail(strict=False), "Inconsistently creating timeout issues.": the "unmined" ones race
# the dev-mode miner (a block can be sealed between sending and asking), the estimates time out on a loaded geth.
# They run here and are expected to pass; strict=False only keeps geth's tolerance of the race.
GETH_FLAKY = pytest.mark.xfail(reason="geth's suite: Inconsistently creating timeout issues.", strict=False)

class TestCarchainWeb3ModuleTest(Web3ModuleTest):
    def _check_web3_client_version(self, client_version):
        assert client_version.startswith("carchain")


class TestCarchainEthModuleTest(EthModuleTest):
    # geth's test_goethereum_http.py adds this one (a batch through web3's AutoProvider).
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


class TestCarchainNetModuleTest(NetModuleTest):
    pass


class TestCarchainDebugModuleTest(GoEthereumDebugModuleTest):
    pass


class TestCarchainTxPoolModuleTest(GoEthereumTxPoolModuleTest):
    pass


# -- async -- #


class TestCarchainAsyncWeb3ModuleTest(CarchainAsyncWeb3ModuleTest):
    pass


class TestCarchainAsyncNetModuleTest(AsyncNetModuleTest):
    pass


class TestCarchainAsyncDebugModuleTest(GoEthereumAsyncDebugModuleTest):
    pass


class TestCarchainAsyncTxPoolModuleTest(GoEthereumAsyncTxPoolModuleTest):
    pass


class TestCarchainAsyncEthModuleTest(CarchainAsyncEthModuleTest):
    # geth's test_goethereum_http.py adds these two (the async HTTP provider's session cache).
    @pytest.mark.asyncio
    async def test_async_http_provider_disconnects_gracefully(self, async_w3) -> None:
        w3_1 = async_w3
        w3_2 = AsyncWeb3(AsyncHTTPProvider(async_w3.provider.endpoint_uri))
        assert w3_1 != w3_2

        await w3_1.eth.get_block("latest")
        await w3_2.eth.get_block("latest")

        w3_1_session_cache = w3_1.provider._request_session_manager.session_cache
        w3_2_session_cache = w3_2.provider._request_session_manager.session_cache
        for _, session in w3_1_session_cache.items():
            assert not session.closed
        for _, session in w3_2_session_cache.items():
            assert not session.closed
        assert w3_1_session_cache != w3_2_session_cache

        await w3_1.provider.disconnect()
        await w3_2.provider.disconnect()
        assert len(w3_1_session_cache) == 0
        assert len(w3_2_session_cache) == 0

    @pytest.mark.asyncio
    async def test_async_http_provider_reuses_cached_session(self, async_w3) -> None:
        await async_w3.eth.get_block("latest")
        session_cache = async_w3.provider._request_session_manager.session_cache
        assert len(session_cache) == 1
        session = list(session_cache._data.values())[0]

        await async_w3.eth.get_block("latest")
        assert len(session_cache) == 1
        assert session == list(session_cache._data.values())[0]
        await async_w3.provider.disconnect()
        assert len(session_cache) == 0
