"""The node's chain: eth-tester's PyEVMBackend (py-evm, Prague rules) with chain id 4, funded dev accounts,
a small transaction pool and automine.

Every raw transaction is checked the way a public node checks it before it reaches the EVM: it must be
replay-protected (EIP-155) and signed for this chain id, its nonce must not be used, its gas must cover
the intrinsic cost and fit in a block, its fee must reach the next block's base fee (EIP-1559) and the
sender must afford it. A transaction whose nonce is the sender's next one is executed and mined at once,
one block per transaction (automine); one with a higher nonce waits in the pool until the gap is filled,
as go-ethereum's pool queues it, so concurrent senders may deliver their transactions in any order.

All access goes through one lock: py-evm is not thread-safe and the HTTP server is threaded.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from eth.exceptions import OutOfGas, Revert, VMError
from eth.vm.spoof import SpoofTransaction
from eth_abi import decode as abi_decode
from eth_tester.backends.pyevm import PyEVMBackend

from .rpc_types import EXECUTION_REVERTED, SERVER_ERROR, RPCError, data

DEV_MNEMONIC = "test test test test test test test test test test test junk"
DEV_HD_PATH = "m/44'/60'/0'/0"  # accounts are m/44'/60'/0'/0/i
DEV_BALANCE = 10_000 * 10**18
PRIORITY_FEE = 10**9  # the tip eth_maxPriorityFeePerGas suggests (1 gwei)
MAX_QUEUED_PER_SENDER = 1024  # transactions waiting for a nonce gap, per sender
MAX_LOG_BLOCK_RANGE = 10_000
ERROR_SELECTOR = bytes.fromhex("08c379a0")  # Error(string)


def rejected(message: str) -> RPCError:
    """A transaction the node refuses (go-ethereum answers these with -32000)."""
    return RPCError(SERVER_ERROR, message)


def revert_error(output: bytes) -> RPCError:
    """An execution that reverted: code 3, the reason in the message when it is an Error(string), the
    raw revert data in ``data`` (as go-ethereum answers eth_call and eth_estimateGas)."""
    message = "execution reverted"
    if output[:4] == ERROR_SELECTOR:
        try:
            (reason,) = abi_decode(["string"], output[4:])
            message += f": {reason}"
        except Exception:  # malformed Error(string) payload: keep the bare message
            pass
    return RPCError(EXECUTION_REVERTED, message, data(output))


def tx_type(tx) -> int:
    """The EIP-2718 type of a py-evm transaction (0 for legacy, whose type_id is None or absent)."""
    return getattr(tx, "type_id", None) or 0


def hex_address(address: bytes) -> str:
    return "0x" + address.hex()


@dataclass
class CallRequest:
    """The call object of eth_call and eth_estimateGas, parsed."""

    sender: bytes
    to: bytes  # b"" for a contract creation
    gas: int | None
    value: int
    data: bytes


class DevChain:
    """A py-evm chain behind eth-tester's PyEVMBackend, with the pool and the indexes the RPC methods need."""

    def __init__(self, chain_id: int = 4, accounts: int = 10, balance: int = DEV_BALANCE) -> None:
        self.backend = PyEVMBackend.from_mnemonic(
            DEV_MNEMONIC,
            genesis_state_overrides={"balance": balance},
            num_accounts=accounts,
            hd_path=DEV_HD_PATH,
        )
        self.chain = self.backend.chain
        # eth-tester fixes a chain id on its chain class; the instance attribute is what the VM's
        # execution context (CHAINID) and this node's checks read.
        self.chain.chain_id = chain_id
        self.chain_id = chain_id
        self.accounts: list[bytes] = list(self.backend.get_accounts())
        self.lock = threading.RLock()
        self._mined: dict[bytes, tuple[int, int]] = {}  # tx hash -> (block number, index in block)
        self._queued: dict[bytes, dict[int, Any]] = {}  # sender -> nonce -> signed tx waiting for a gap
        self._queued_by_hash: dict[bytes, Any] = {}

    # Blocks and state

    def head(self):
        """The header of the newest mined block."""
        return self.chain.get_canonical_head()

    def header_by_number(self, number: int):
        """The canonical header at ``number``, or None beyond the head."""
        if number > self.head().block_number:
            return None
        return self.chain.get_canonical_block_header_by_number(number)

    def header_by_hash(self, block_hash: bytes):
        try:
            header = self.chain.get_block_header_by_hash(block_hash)
        except Exception:
            return None
        canonical = self.header_by_number(header.block_number)
        return header if canonical is not None and canonical.hash == header.hash else None

    def block(self, header):
        return self.chain.get_block_by_header(header)

    def state_at(self, header):
        return self.chain.get_vm(at_header=header).state

    def next_base_fee(self) -> int:
        """The base fee of the block the next transaction goes into (EIP-1559)."""
        return getattr(self.chain.header, "base_fee_per_gas", 0) or 0

    def receipts(self, block) -> list[Any]:
        return list(block.get_receipts(self.chain.chaindb))

    def locate(self, tx_hash: bytes) -> tuple[Any, Any, int] | None:
        """(block, transaction, index) of a mined transaction."""
        where = self._mined.get(tx_hash)
        if where is None:
            return None
        header = self.header_by_number(where[0])
        if header is None:
            return None
        block = self.block(header)
        return block, block.transactions[where[1]], where[1]

    def queued(self, tx_hash: bytes):
        """A transaction waiting in the pool for a nonce gap, or None."""
        return self._queued_by_hash.get(tx_hash)

    def pending_block(self):
        return self.chain.get_block()

    # Transactions

    def send_raw_transaction(self, raw: bytes) -> bytes:
        """Checks, then executes and mines (or queues) a signed transaction; returns its hash."""
        vm = self.chain.get_vm()
        try:
            tx = vm.get_transaction_builder().decode(raw)
        except Exception as error:
            raise rejected(f"invalid transaction: {error}") from None
        self._check_chain_id(tx)
        try:
            sender = tx.sender
        except Exception as error:
            raise rejected(f"invalid sender: {error}") from None
        tx_hash = tx.hash
        if tx_hash in self._mined or tx_hash in self._queued_by_hash:
            raise rejected("already known")
        state_nonce = self.state_at(self.head()).get_nonce(sender)
        if tx.nonce < state_nonce:
            raise rejected(f"nonce too low: address {hex_address(sender)}, tx: {tx.nonce} state: {state_nonce}")
        self._check_static(tx, sender)
        if tx.nonce > state_nonce:
            self._queue(tx, sender)
            return tx_hash
        self._check_funds(tx, sender)
        self._execute(tx)
        self._drain(sender)
        return tx_hash

    def _check_chain_id(self, tx) -> None:
        if tx_type(tx) == 0:
            v = tx.v
            if v in (27, 28):
                raise rejected("only replay-protected (EIP-155) transactions allowed over RPC")
            chain_id = (v - 35) // 2
        else:
            chain_id = tx.chain_id
        if chain_id != self.chain_id:
            raise rejected(f"invalid chain id for signer: have {chain_id} want {self.chain_id}")

    def _check_static(self, tx, sender: bytes) -> None:
        intrinsic = tx.intrinsic_gas
        if tx.gas < intrinsic:
            raise rejected(f"intrinsic gas too low: gas {tx.gas}, minimum needed {intrinsic}")
        gas_limit = self.chain.header.gas_limit
        if tx.gas > gas_limit:
            raise rejected(f"exceeds block gas limit: gas {tx.gas}, block gas limit {gas_limit}")
        if tx_type(tx) >= 2:
            max_fee, tip = tx.max_fee_per_gas, tx.max_priority_fee_per_gas
            if tip > max_fee:
                raise rejected(
                    f"max priority fee per gas higher than max fee per gas: address {hex_address(sender)}, "
                    f"maxPriorityFeePerGas: {tip}, maxFeePerGas: {max_fee}"
                )
        else:
            max_fee = tx.gas_price
        base_fee = self.next_base_fee()
        if max_fee < base_fee:
            raise rejected(
                f"max fee per gas less than block base fee: address {hex_address(sender)}, "
                f"maxFeePerGas: {max_fee}, baseFee: {base_fee}"
            )

    @staticmethod
    def _max_fee(tx) -> int:
        if tx_type(tx) >= 2:
            return tx.max_fee_per_gas
        return tx.gas_price

    def _check_funds(self, tx, sender: bytes) -> None:
        balance = self.state_at(self.head()).get_balance(sender)
        cost = tx.gas * self._max_fee(tx) + tx.value
        if balance < cost:
            raise rejected(
                f"insufficient funds for gas * price + value: address {hex_address(sender)} have {balance} want {cost}"
            )

    def _queue(self, tx, sender: bytes) -> None:
        waiting = self._queued.setdefault(sender, {})
        previous = waiting.get(tx.nonce)
        if previous is not None:
            # A replacement must pay at least 10% more, as go-ethereum's default price bump requires.
            if self._max_fee(tx) * 10 < self._max_fee(previous) * 11:
                raise rejected("replacement transaction underpriced")
            del self._queued_by_hash[previous.hash]
        elif len(waiting) >= MAX_QUEUED_PER_SENDER:
            raise rejected(f"txpool is full: {MAX_QUEUED_PER_SENDER} transactions of this sender are waiting for a nonce gap")
        waiting[tx.nonce] = tx
        self._queued_by_hash[tx.hash] = tx

    def _drain(self, sender: bytes) -> None:
        """Mines the queued transactions of ``sender`` whose turn has come; drops those that fail."""
        waiting = self._queued.get(sender)
        while waiting:
            nonce = self.state_at(self.head()).get_nonce(sender)
            stale = [n for n in waiting if n < nonce]
            for n in stale:
                del self._queued_by_hash[waiting.pop(n).hash]
            tx = waiting.pop(nonce, None)
            if tx is None:
                break
            del self._queued_by_hash[tx.hash]
            try:
                self._check_static(tx, sender)
                self._check_funds(tx, sender)
                self._execute(tx)
            except RPCError:
                continue  # dropped, as a pool drops a transaction that became invalid
        if waiting is not None and not waiting:
            self._queued.pop(sender, None)

    def _execute(self, tx) -> None:
        try:
            self.chain.apply_transaction(tx)
        except Exception as error:  # py-evm's ValidationError: the transaction is not applicable
            raise rejected(f"invalid transaction: {error}") from None
        index = len(self.chain.get_block().transactions) - 1
        self.backend.mine_blocks(1)
        self._mined[tx.hash] = (self.head().block_number, index)

    # Calls

    def _spoofed(self, request: CallRequest, state, gas: int):
        vm = self.chain.get_vm()
        unsigned = vm.create_unsigned_transaction(
            nonce=state.get_nonce(request.sender),
            gas_price=0,
            gas=gas,
            to=request.to,
            value=request.value,
            data=request.data,
        )
        return SpoofTransaction(unsigned, from_=request.sender)

    def call(self, request: CallRequest, header) -> bytes:
        """eth_call: executes on the state after ``header`` without fees and without keeping changes."""
        gas = request.gas if request.gas is not None else header.gas_limit
        with self.chain.get_vm(at_header=header).in_costless_state() as state:
            tx = self._spoofed(request, state, gas)
            try:
                computation = state.costless_execute_transaction(tx)
            except Exception as error:  # validation: e.g. the value exceeds the sender's balance
                raise rejected(f"invalid call: {error}") from None
        if computation.is_error:
            raise self._execution_error(computation.error, bytes(computation.output), gas)
        return bytes(computation.output)

    def estimate_gas(self, request: CallRequest, header) -> int:
        """eth_estimateGas: py-evm's binary search for the smallest gas limit that does not fail."""
        gas = request.gas if request.gas is not None else header.gas_limit
        with self.chain.get_vm(at_header=header).in_costless_state() as state:
            tx = self._spoofed(request, state, gas)
        try:
            return self.chain.estimate_gas(tx, header)
        except VMError as error:
            output = error.args[0] if isinstance(error, Revert) and error.args else b""
            raise self._execution_error(error, bytes(output), gas) from None
        except Exception as error:
            raise rejected(f"invalid call: {error}") from None

    @staticmethod
    def _execution_error(error: Exception, output: bytes, gas: int) -> RPCError:
        if isinstance(error, Revert):
            return revert_error(output)
        if isinstance(error, OutOfGas):
            return rejected(f"gas required exceeds allowance ({gas})")
        detail = str(error) or type(error).__name__
        return rejected(f"execution failed: {type(error).__name__}: {detail}")
