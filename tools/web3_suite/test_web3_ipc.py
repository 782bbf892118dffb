"""web3.py's module test classes over IPC against `carchain node --ipc PATH`, as web3.py runs them against geth in
tests/integration/go_ethereum/test_goethereum_ipc.py: the sync classes through `Web3.IPCProvider` (and a batch
through `AutoProvider` with a `file://` URI), the async ones and `PersistentConnectionProviderTest` (subscriptions)
through `AsyncIPCProvider`.

Same node, fixture chain and per-test revert as the HTTP run (conftest.py); only the providers differ. The admin
class is left out as in the HTTP run (geth's `admin_` namespace).
"""

from __future__ import annotations

import pytest
import pytest_asyncio

from web3 import AsyncIPCProvider, AsyncWeb3, Web3
from web3._utils.module_testing import (
    AsyncNetModuleTest,
    GoEthereumAsyncDebugModuleTest,
    GoEthereumDebugModuleTest,
    NetModuleTest,
    Web3ModuleTest,
)
from web3._utils.module_testing.persistent_connection_provider import PersistentConnectionProviderTest

from module_classes import CarchainAsyncEthModuleTest, CarchainAsyncWeb3ModuleTest, CarchainEthModuleTest


@pytest.fixture
def w3(node, geth_fixture_data):
    return Web3(Web3.IPCProvider(node.ipc_path, timeout=10))


@pytest.fixture
def auto_w3(node, geth_fixture_data, monkeypatch):
    from web3.auto import w3

    monkeypatch.setenv("WEB3_PROVIDER_URI", f"file:///{node.ipc_path}")
    return w3


@pytest_asyncio.fixture
async def async_w3(node, geth_fixture_data):
    async with AsyncWeb3(AsyncIPCProvider(node.ipc_path, request_timeout=10)) as w3:
        yield w3


class TestCarchainIpcWeb3ModuleTest(Web3ModuleTest):
    def _check_web3_client_version(self, client_version):
        assert client_version.startswith("carchain")


class TestCarchainIpcEthModuleTest(CarchainEthModuleTest):
    pass


class TestCarchainIpcNetModuleTest(NetModuleTest):
    pass


class TestCarchainIpcDebugModuleTest(GoEthereumDebugModuleTest):
    pass


class TestCarchainIpcAsyncWeb3ModuleTest(CarchainAsyncWeb3ModuleTest):
    pass


class TestCarchainIpcAsyncEthModuleTest(CarchainAsyncEthModuleTest):
    pass


class TestCarchainIpcAsyncNetModuleTest(AsyncNetModuleTest):
    pass


class TestCarchainIpcAsyncDebugModuleTest(GoEthereumAsyncDebugModuleTest):
    pass


@pytest.mark.usefixtures("blocks_every_second")
class TestCarchainIpcPersistentConnectionProviderTest(PersistentConnectionProviderTest):
    pass
