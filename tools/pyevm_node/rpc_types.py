"""JSON-RPC 2.0 error codes, the error type handlers raise, and parsing of wire values.

Codes follow the JSON-RPC 2.0 specification (-32700 ... -32603) and go-ethereum's conventions for
Ethereum methods: -32000 for a rejected transaction or a state that is not available, 3 for an
execution that reverted (with the revert data in ``data``).
"""

from __future__ import annotations

from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_ERROR = -32000
EXECUTION_REVERTED = 3


class RPCError(Exception):
    """An error answered to the client as a JSON-RPC error object."""

    def __init__(self, code: int, message: str, data: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def as_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def invalid_params(message: str) -> RPCError:
    return RPCError(INVALID_PARAMS, f"invalid params: {message}")


def quantity(value: int) -> str:
    """An unsigned integer as a JSON-RPC quantity: 0x-prefixed hex without leading zeros."""
    return hex(value)


def data(value: bytes) -> str:
    """Bytes as JSON-RPC data: 0x-prefixed lowercase hex, two digits per byte."""
    return "0x" + bytes(value).hex()


def parse_quantity(value: Any, what: str) -> int:
    """A quantity parameter: 0x-prefixed hex without leading zeros (plain integers are accepted too)."""
    if isinstance(value, bool):
        raise invalid_params(f"{what}: expected a hex quantity, got {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise invalid_params(f"{what}: negative quantity")
        return value
    if not isinstance(value, str) or not value.startswith(("0x", "0X")) or len(value) < 3:
        raise invalid_params(f"{what}: expected a hex quantity, got {value!r}")
    digits = value[2:]
    if len(digits) > 1 and digits[0] == "0":
        raise invalid_params(f"{what}: hex quantity with leading zeros: {value}")
    try:
        return int(digits, 16)
    except ValueError:
        raise invalid_params(f"{what}: not a hex quantity: {value!r}") from None


def parse_data(value: Any, what: str, length: int | None = None) -> bytes:
    """A data parameter: 0x-prefixed hex with an even number of digits, of ``length`` bytes when given."""
    if not isinstance(value, str) or not value.startswith(("0x", "0X")):
        raise invalid_params(f"{what}: expected 0x-prefixed hex data, got {value!r}")
    digits = value[2:]
    if len(digits) % 2:
        raise invalid_params(f"{what}: odd number of hex digits")
    try:
        raw = bytes.fromhex(digits)
    except ValueError:
        raise invalid_params(f"{what}: not hex: {value!r}") from None
    if length is not None and len(raw) != length:
        raise invalid_params(f"{what}: expected {length} bytes, got {len(raw)}")
    return raw


def parse_address(value: Any, what: str) -> bytes:
    return parse_data(value, what, 20)


def parse_hash(value: Any, what: str) -> bytes:
    return parse_data(value, what, 32)


def parse_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise invalid_params(f"{what}: expected true or false, got {value!r}")
    return value


def params_list(params: Any, minimum: int, maximum: int, method: str) -> list[Any]:
    """The positional parameters, checked for count; missing optional ones are None."""
    if params is None:
        params = []
    if not isinstance(params, list):
        raise invalid_params(f"{method} takes positional parameters (a JSON array)")
    if not minimum <= len(params) <= maximum:
        expected = f"{minimum}" if minimum == maximum else f"{minimum} to {maximum}"
        raise invalid_params(f"{method} takes {expected} parameters, got {len(params)}")
    return list(params) + [None] * (maximum - len(params))
