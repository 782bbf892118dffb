"""web3.py's module test classes over sync and async HTTP against `carchain node` (fixtures in conftest.py; the async
classes shared with the WebSocket run and their marks are in module_classes.py).

The classes and their overrides follow web3.py's tests/integration/go_ethereum/{common,test_goethereum_http}.py.
What geth's own suite marks xfail is marked the same way here, with geth's reason; the admin classes are left out
(geth's `admin_` namespace: peers, HTTP/WS endpoints, datadir — nothing a dev node has). Every other test runs.
"""

from __future__ import annotations

import pytest

from web3 import AsyncWeb3
from web3._utils.module_testing import (
    AsyncNetModuleTest,
    GoEthereumAsyncDebugModuleTest,
    GoEthereumAsyncTxPoolModuleTest,
    GoEthereumDebugModuleTest,
    GoEthereumTxPoolModuleTest,
    NetModuleTest,
    Web3ModuleTest,
)
from web3.providers.rpc import AsyncHTTPProvider

from module_classes import CarchainAsyncEthModuleTest, CarchainAsyncWeb3ModuleTest, CarchainEthModuleTest


class TestCarchainWeb3ModuleTest(Web3ModuleTest):
    def _check_web3_client_version(self, client_version):
        assert client_version.startswith("carchain")


class TestCarchainEthModuleTest(CarchainEthModuleTest):
    pass


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
