"""web3.py's async module test classes and its persistent-connection (subscription) suite over WebSocket against
`carchain node`, as web3.py runs them against geth in tests/integration/go_ethereum/test_goethereum_ws/
(test_async_await_w3.py: `await AsyncWeb3(WebSocketProvider(...))`). The node serves WebSocket on its HTTP port.

Same node, fixture chain and per-test revert as the HTTP run (conftest.py); only `async_w3` differs. The admin class
is left out as in the HTTP run (geth's `admin_` namespace). geth's two other WebSocket files differ only in how web3
opens the connection (an async context manager, an async iterator), not in what is sent, so they are not repeated.
"""

from __future__ import annotations

import pytest
import pytest_asyncio

from web3 import AsyncWeb3, WebSocketProvider
from web3._utils.module_testing import AsyncNetModuleTest, GoEthereumAsyncDebugModuleTest, GoEthereumAsyncTxPoolModuleTest
from web3._utils.module_testing.persistent_connection_provider import PersistentConnectionProviderTest

from module_classes import CarchainAsyncEthModuleTest, CarchainAsyncWeb3ModuleTest


@pytest_asyncio.fixture
async def async_w3(node, geth_fixture_data):
    # geth's fixture: the persistent connection awaited, a 10 s request timeout.
    w3 = await AsyncWeb3(WebSocketProvider(node.url.replace("http://", "ws://", 1), request_timeout=10))
    yield w3
    await w3.provider.disconnect()


@pytest.mark.usefixtures("blocks_every_second")
class TestCarchainWsPersistentConnectionProviderTest(PersistentConnectionProviderTest):
    pass


class TestCarchainWsAsyncWeb3ModuleTest(CarchainAsyncWeb3ModuleTest):
    pass


class TestCarchainWsAsyncEthModuleTest(CarchainAsyncEthModuleTest):
    pass


class TestCarchainWsAsyncNetModuleTest(AsyncNetModuleTest):
    pass


class TestCarchainWsAsyncDebugModuleTest(GoEthereumAsyncDebugModuleTest):
    pass


class TestCarchainWsAsyncTxPoolModuleTest(GoEthereumAsyncTxPoolModuleTest):
    pass
