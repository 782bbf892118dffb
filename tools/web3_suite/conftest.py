"""web3.py's own integration suite against a real `carchain node`.

web3.py ships the module test classes its integration tests run against geth (`web3/_utils/module_testing`:
`EthModuleTest`, `AsyncEthModuleTest`, `NetModuleTest`, `Web3ModuleTest`, the Go-Ethereum debug and txpool classes).
Its own suite runs them against a geth `--dev --dev.period 3` started on a fixture data directory
(`tests/integration/generate_fixtures/go_ethereum.py` builds it: contracts, a log, reverts, an empty block and a
block with a transaction, whose hashes the fixtures below hand the tests). Here one node serves the whole session:
the same chain is built over HTTP at the start (`setup_chain_state`, the generator's steps in its order), then the
node mines a block every `BLOCK_TIME` seconds as geth's dev mode does, so sent transactions stay pending for a
while (the replace and "unmined" tests need that).

Differences from geth's fixture, all outside what the tests read: the funded account that signs on the node is dev
account 0 of the public test mnemonic instead of geth's keyfile account (the node signs with its dev accounts), and
blocks of the fixture are mined on demand (`evm_mine`) instead of waiting for geth's period.

The node binary is CARCHAIN_BIN, else .build/release/carchain; when it is missing the tests skip with the reason,
and fail under CARCHAIN_STRICT=1 (as CI runs them).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest
import pytest_asyncio
from eth_utils import event_signature_to_log_topic, is_checksum_address, is_dict, to_bytes
from eth_utils.toolz import identity

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pytest_support import NodeProcess, carchain_binary, missing  # noqa: E402

from web3 import AsyncWeb3, Web3  # noqa: E402
from web3._utils.contract_sources.contract_data._custom_contract_data import EMITTER_ENUM  # noqa: E402
from web3._utils.contract_sources.contract_data.emitter_contract import (  # noqa: E402
    EMITTER_CONTRACT_ABI,
    EMITTER_CONTRACT_BYTECODE,
    EMITTER_CONTRACT_DATA,
)
from web3._utils.contract_sources.contract_data.math_contract import (  # noqa: E402
    MATH_CONTRACT_ABI,
    MATH_CONTRACT_BYTECODE,
    MATH_CONTRACT_DATA,
)
from web3._utils.contract_sources.contract_data.offchain_lookup import (  # noqa: E402
    OFFCHAIN_LOOKUP_ABI,
    OFFCHAIN_LOOKUP_BYTECODE,
)
from web3._utils.contract_sources.contract_data.panic_errors_contract import PANIC_ERRORS_CONTRACT_DATA  # noqa: E402
from web3._utils.contract_sources.contract_data.revert_contract import (  # noqa: E402
    REVERT_CONTRACT_ABI,
    REVERT_CONTRACT_BYTECODE,
    REVERT_CONTRACT_DATA,
)
from web3._utils.contract_sources.contract_data.storage_contract import STORAGE_CONTRACT_DATA  # noqa: E402
from web3._utils.module_testing.utils import RequestMocker  # noqa: E402
from web3.providers.rpc import AsyncHTTPProvider  # noqa: E402

# web3's fixture chain: the chain id is "web3py" as an integer, the gas limit 1,000,000,000, Prague rules
# (tests/integration/generate_fixtures/common.py, GENESIS_DATA).
CHAIN_ID = 131277322940537
GAS_LIMIT = 1_000_000_000
HARDFORK = "prague"
# geth's suite runs `--dev.period 3`, and so does this one: the replace and "unmined" tests act within milliseconds of
# sending and race the next block (with one second, test_async_eth_replace_transaction lost the race about one run in
# twenty: "nonce too low"). The period costs the suite about 10 s.
BLOCK_TIME = 3
# Dev account 0 of the public test mnemonic: the account the node signs for (geth's keyfile account's role).
KEYFILE_ACCOUNT_PKEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
KEYFILE_ACCOUNT_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"


class Node(NodeProcess):
    """`carchain node` on a free loopback port, in memory, with web3's fixture chain's parameters."""

    def __init__(self, binary: Path):
        # Also an IPC socket, for test_web3_ipc.py (geth's test_goethereum_ipc.py runs geth with --ipcpath).
        self.ipc_directory = tempfile.mkdtemp(prefix="carchain-web3-")
        self.ipc_path = os.path.join(self.ipc_directory, "node.ipc")
        super().__init__([
            str(binary), "node", "--port", "0", "--host", "127.0.0.1", "--ephemeral", "--no-carchain", "--no-app",
            "--chain-id", str(CHAIN_ID), "--hardfork", HARDFORK, "--gas-limit", str(GAS_LIMIT), "--ipc", self.ipc_path,
        ])

    def stop(self):
        super().stop()
        shutil.rmtree(self.ipc_directory, ignore_errors=True)

    def rpc(self, method: str, *params):
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
        request = urllib.request.Request(self.url + "/", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = json.loads(response.read())
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]


def _mined(w3: Web3, node: Node, txn_hash):
    """Mines the block holding `txn_hash` (the fixture is built with automine off) and returns its receipt."""
    node.rpc("evm_mine")
    return w3.eth.wait_for_transaction_receipt(txn_hash, timeout=10)


def _deploy(w3: Web3, node: Node, factory):
    receipt = _mined(w3, node, factory.constructor().transact({"from": KEYFILE_ACCOUNT_ADDRESS}))
    assert receipt["status"] == 1 and is_checksum_address(receipt["contractAddress"])
    return receipt


def setup_chain_state(w3: Web3, node: Node) -> dict:
    """web3.py's geth fixture (generate_fixtures/go_ethereum.py, `setup_chain_state`), step by step over HTTP."""
    coinbase = KEYFILE_ACCOUNT_ADDRESS
    math_deploy_receipt = _deploy(w3, node, w3.eth.contract(abi=MATH_CONTRACT_ABI, bytecode=MATH_CONTRACT_BYTECODE))

    emitter_factory = w3.eth.contract(abi=EMITTER_CONTRACT_ABI, bytecode=EMITTER_CONTRACT_BYTECODE)
    emitter_deploy_receipt = _deploy(w3, node, emitter_factory)
    emitter = emitter_factory(emitter_deploy_receipt["contractAddress"])
    txn_hash_with_log = emitter.functions.logDouble(
        which=EMITTER_ENUM["LogDoubleWithIndex"], arg0=12345, arg1=54321).transact({"from": coinbase})
    block_with_log = w3.eth.get_block(_mined(w3, node, txn_hash_with_log)["blockHash"])

    revert_factory = w3.eth.contract(abi=REVERT_CONTRACT_ABI, bytecode=REVERT_CONTRACT_BYTECODE)
    revert_deploy_receipt = _deploy(w3, node, revert_factory)
    revert = revert_factory(revert_deploy_receipt["contractAddress"])
    revert.functions.normalFunction().transact({"gas": 320000, "from": coinbase})
    txn_hash_revert_with_msg = revert.functions.revertWithMessage().transact({"gas": 320000, "from": coinbase})
    block_revert_with_msg = w3.eth.get_block(_mined(w3, node, txn_hash_revert_with_msg)["blockHash"])
    txn_hash_revert_no_msg = revert.functions.revertWithoutMessage().transact({"gas": 320000, "from": coinbase})
    block_revert_no_msg = w3.eth.get_block(_mined(w3, node, txn_hash_revert_no_msg)["blockHash"])

    offchain_lookup_deploy_receipt = _deploy(
        w3, node, w3.eth.contract(abi=OFFCHAIN_LOOKUP_ABI, bytecode=OFFCHAIN_LOOKUP_BYTECODE))
    panic_errors_deploy_receipt = _deploy(w3, node, w3.eth.contract(**PANIC_ERRORS_CONTRACT_DATA))
    storage_deploy_receipt = _deploy(w3, node, w3.eth.contract(**STORAGE_CONTRACT_DATA))

    node.rpc("evm_mine")
    empty_block = w3.eth.get_block(w3.eth.block_number)
    assert is_dict(empty_block) and not empty_block["transactions"]

    mined_txn_hash = w3.eth.send_transaction(
        {"from": coinbase, "to": coinbase, "value": 1, "gas": 21000, "gasPrice": w3.eth.gas_price})
    block_with_txn = w3.eth.get_block(_mined(w3, node, mined_txn_hash)["blockHash"])

    return {
        "keyfile_account_address": KEYFILE_ACCOUNT_ADDRESS,
        "keyfile_account_pkey": KEYFILE_ACCOUNT_PKEY,
        "math_deploy_txn_hash": math_deploy_receipt["transactionHash"].to_0x_hex(),
        "math_address": math_deploy_receipt["contractAddress"],
        "emitter_deploy_txn_hash": emitter_deploy_receipt["transactionHash"].to_0x_hex(),
        "emitter_address": emitter_deploy_receipt["contractAddress"],
        "offchain_lookup_address": offchain_lookup_deploy_receipt["contractAddress"],
        "panic_errors_contract_address": panic_errors_deploy_receipt["contractAddress"],
        "storage_contract_address": storage_deploy_receipt["contractAddress"],
        "txn_hash_with_log": txn_hash_with_log.to_0x_hex(),
        "block_hash_with_log": block_with_log["hash"].to_0x_hex(),
        "empty_block_hash": empty_block["hash"].to_0x_hex(),
        "mined_txn_hash": mined_txn_hash.to_0x_hex(),
        "block_with_txn_hash": block_with_txn["hash"].to_0x_hex(),
        "revert_address": revert_deploy_receipt["contractAddress"],
        "block_hash_revert_with_msg": block_revert_with_msg["hash"].to_0x_hex(),
        "block_hash_revert_no_msg": block_revert_no_msg["hash"].to_0x_hex(),
    }


@pytest.fixture(scope="session")
def node():
    binary = carchain_binary()
    if binary is None or not binary.exists():
        missing("no carchain binary (run `swift build -c release --product carchain` or set CARCHAIN_BIN)")
    server = Node(binary)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def geth_fixture_data(node):
    w3 = Web3(Web3.HTTPProvider(node.url, request_kwargs={"timeout": 30}))
    node.rpc("evm_setAutomine", False)
    data = setup_chain_state(w3, node)
    # From here on the node mines as geth's dev mode does: a block every BLOCK_TIME seconds.
    node.rpc("evm_setIntervalMining", BLOCK_TIME)
    node.snapshot = node.rpc("evm_snapshot")
    return data


# The tests that send a transaction and then act on it while it is pending (replace it, read it unmined) race the
# next block. Before each of them the interval is set again, which restarts its timer: like a freshly started geth,
# the test has a whole BLOCK_TIME before the first block. A timer left running from the previous test once mined the
# first transaction between send and replace on a loaded CI machine ("has already been mined"). Only these tests:
# restarting before every test made the tests that wait for the next block wait a whole period (126.8 s for the
# suite against 118.7 s).
PENDING_RACERS = ("replace", "unmined")


@pytest.fixture(autouse=True)
def fixture_chain(request, node, geth_fixture_data):
    """Each test starts on the fixture chain, as each of geth's starts a geth on the fixture data directory: the
    blocks, state and pool a previous test left are reverted (a transaction it left pending would otherwise take
    the nonce a later test reads with `get_transaction_count(address)`)."""
    node.rpc("evm_revert", node.snapshot)
    node.snapshot = node.rpc("evm_snapshot")
    if any(word in request.node.name for word in PENDING_RACERS):
        node.rpc("evm_setIntervalMining", BLOCK_TIME)
    yield


@pytest.fixture
def blocks_every_second(node, fixture_chain):
    """For the subscription tests (PersistentConnectionProviderTest), which wait for the next block and act on
    nothing racing it: a block a second instead of BLOCK_TIME, saving ~2 s a test; BLOCK_TIME again afterwards."""
    node.rpc("evm_setIntervalMining", 1)
    yield
    node.rpc("evm_setIntervalMining", BLOCK_TIME)


@pytest.fixture
def w3(node, geth_fixture_data):
    return Web3(Web3.HTTPProvider(node.url, request_kwargs={"timeout": 10}))


@pytest.fixture
def auto_w3(node, geth_fixture_data, monkeypatch):
    from web3.auto import w3

    monkeypatch.setenv("WEB3_PROVIDER_URI", node.url)
    return w3


@pytest_asyncio.fixture
async def async_w3(node, geth_fixture_data):
    from aiohttp import ClientTimeout

    _w3 = AsyncWeb3(AsyncHTTPProvider(node.url, request_kwargs={"timeout": ClientTimeout(10)}))
    yield _w3
    await _w3.provider.disconnect()


# --- web3.py's tests/conftest.py and tests/integration/conftest.py --- #


@pytest.fixture(scope="module", params=[lambda x: to_bytes(hexstr=x), identity])
def address_conversion_func(request):
    return request.param


@pytest.fixture
def skip_if_testrpc():
    # web3's fixture skips these tests on its eth-tester provider only; this is a real node.
    return lambda w3: None


@pytest.fixture
def async_skip_if_testrpc():
    return lambda async_w3: None


@pytest.fixture
def request_mocker() -> type[RequestMocker]:
    return RequestMocker


class LogTopics:
    LogAnonymous = event_signature_to_log_topic("LogAnonymous()")
    LogNoArguments = event_signature_to_log_topic("LogNoArguments()")
    LogSingleArg = event_signature_to_log_topic("LogSingleArg(uint256)")
    LogSingleWithIndex = event_signature_to_log_topic("LogSingleWithIndex(uint256)")
    LogDoubleWithIndex = event_signature_to_log_topic("LogDoubleWithIndex(uint256,uint256)")


@pytest.fixture(scope="session")
def emitter_contract_log_topics():
    return LogTopics


@pytest.fixture
def math_contract_factory(w3):
    return w3.eth.contract(abi=MATH_CONTRACT_ABI, bytecode=MATH_CONTRACT_BYTECODE)


@pytest.fixture
def emitter_contract_factory(w3):
    return w3.eth.contract(abi=EMITTER_CONTRACT_ABI, bytecode=EMITTER_CONTRACT_BYTECODE)


@pytest.fixture
def revert_contract_factory(w3):
    return w3.eth.contract(abi=REVERT_CONTRACT_ABI, bytecode=REVERT_CONTRACT_BYTECODE)


@pytest.fixture
def offchain_lookup_contract_factory(w3):
    return w3.eth.contract(abi=OFFCHAIN_LOOKUP_ABI, bytecode=OFFCHAIN_LOOKUP_BYTECODE)


@pytest.fixture
def async_offchain_lookup_contract_factory(async_w3):
    return async_w3.eth.contract(abi=OFFCHAIN_LOOKUP_ABI, bytecode=OFFCHAIN_LOOKUP_BYTECODE)


@pytest.fixture(autouse=True)
def _async_test_setup(request):
    if "async_w3" in request.fixturenames:
        async_w3 = request.getfixturevalue("async_w3")
        if hasattr(async_w3.provider, "_request_processor"):
            async_w3.provider._request_processor.clear_caches()
    yield


# --- web3.py's tests/integration/go_ethereum/conftest.py, over the chain built above --- #


@pytest.fixture
def math_contract_deploy_txn_hash(geth_fixture_data):
    return geth_fixture_data["math_deploy_txn_hash"]


@pytest.fixture
def math_contract(math_contract_factory, geth_fixture_data):
    return math_contract_factory(address=geth_fixture_data["math_address"])


@pytest.fixture
def math_contract_address(math_contract, address_conversion_func):
    return address_conversion_func(math_contract.address)


@pytest.fixture
def emitter_contract(emitter_contract_factory, geth_fixture_data):
    return emitter_contract_factory(address=geth_fixture_data["emitter_address"])


@pytest.fixture
def emitter_contract_address(emitter_contract, address_conversion_func):
    return address_conversion_func(emitter_contract.address)


@pytest.fixture
def keyfile_account_pkey(geth_fixture_data):
    return geth_fixture_data["keyfile_account_pkey"]


@pytest.fixture
def keyfile_account_address(geth_fixture_data):
    return geth_fixture_data["keyfile_account_address"]


@pytest.fixture
def keyfile_account_address_dual_type(keyfile_account_address, address_conversion_func):
    yield keyfile_account_address


@pytest.fixture
def empty_block(w3, geth_fixture_data):
    block = w3.eth.get_block(geth_fixture_data["empty_block_hash"])
    assert is_dict(block)
    return block


@pytest.fixture
def block_with_txn(w3, geth_fixture_data):
    block = w3.eth.get_block(geth_fixture_data["block_with_txn_hash"])
    assert is_dict(block)
    return block


@pytest.fixture
def mined_txn_hash(geth_fixture_data):
    return geth_fixture_data["mined_txn_hash"]


@pytest.fixture
def block_with_txn_with_log(w3, geth_fixture_data):
    block = w3.eth.get_block(geth_fixture_data["block_hash_with_log"])
    assert is_dict(block)
    return block


@pytest.fixture
def txn_hash_with_log(geth_fixture_data):
    return geth_fixture_data["txn_hash_with_log"]


@pytest.fixture
def block_hash_revert_no_msg(geth_fixture_data):
    return geth_fixture_data["block_hash_revert_no_msg"]


@pytest.fixture
def block_hash_revert_with_msg(geth_fixture_data):
    return geth_fixture_data["block_hash_revert_with_msg"]


@pytest.fixture
def revert_contract(revert_contract_factory, geth_fixture_data):
    return revert_contract_factory(address=geth_fixture_data["revert_address"])


@pytest.fixture
def offchain_lookup_contract(offchain_lookup_contract_factory, geth_fixture_data):
    return offchain_lookup_contract_factory(address=geth_fixture_data["offchain_lookup_address"])


@pytest.fixture
def panic_errors_contract(w3, geth_fixture_data):
    return w3.eth.contract(**PANIC_ERRORS_CONTRACT_DATA)(address=geth_fixture_data["panic_errors_contract_address"])


@pytest.fixture
def storage_contract(w3, geth_fixture_data):
    return w3.eth.contract(**STORAGE_CONTRACT_DATA)(address=geth_fixture_data["storage_contract_address"])


@pytest_asyncio.fixture
async def async_keyfile_account_address(geth_fixture_data):
    return geth_fixture_data["keyfile_account_address"]


@pytest_asyncio.fixture
async def async_keyfile_account_address_dual_type(async_keyfile_account_address, address_conversion_func):
    yield async_keyfile_account_address


@pytest.fixture
def async_offchain_lookup_contract(async_offchain_lookup_contract_factory, geth_fixture_data):
    return async_offchain_lookup_contract_factory(address=geth_fixture_data["offchain_lookup_address"])


@pytest.fixture
def async_panic_errors_contract(async_w3, geth_fixture_data):
    return async_w3.eth.contract(**PANIC_ERRORS_CONTRACT_DATA)(
        address=geth_fixture_data["panic_errors_contract_address"])


@pytest.fixture
def async_emitter_contract(async_w3, geth_fixture_data):
    return async_w3.eth.contract(**EMITTER_CONTRACT_DATA)(address=geth_fixture_data["emitter_address"])


@pytest.fixture
def async_emitter_contract_address(async_emitter_contract, address_conversion_func):
    return address_conversion_func(async_emitter_contract.address)


@pytest.fixture
def async_math_contract(async_w3, geth_fixture_data):
    return async_w3.eth.contract(**MATH_CONTRACT_DATA)(address=geth_fixture_data["math_address"])


@pytest.fixture
def async_math_contract_address(async_math_contract, address_conversion_func):
    return address_conversion_func(async_math_contract.address)


@pytest.fixture
def async_revert_contract(async_w3, geth_fixture_data):
    return async_w3.eth.contract(**REVERT_CONTRACT_DATA)(address=geth_fixture_data["revert_address"])


@pytest.fixture
def async_storage_contract(async_w3, geth_fixture_data):
    return async_w3.eth.contract(**STORAGE_CONTRACT_DATA)(address=geth_fixture_data["storage_contract_address"])


@pytest_asyncio.fixture
async def async_empty_block(async_w3, geth_fixture_data):
    block = await async_w3.eth.get_block(geth_fixture_data["empty_block_hash"])
    assert is_dict(block)
    return block


@pytest_asyncio.fixture
async def async_block_with_txn(async_w3, geth_fixture_data):
    block = await async_w3.eth.get_block(geth_fixture_data["block_with_txn_hash"])
    assert is_dict(block)
    return block


@pytest_asyncio.fixture
async def async_block_with_txn_with_log(async_w3, geth_fixture_data):
    block = await async_w3.eth.get_block(geth_fixture_data["block_hash_with_log"])
    assert is_dict(block)
    return block
