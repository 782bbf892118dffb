#!/usr/bin/env python3
"""Differential EVM fuzzer: random stack-balanced programs run by carchain's EVM and by revm (pyrevm).

    .venv/bin/python tools/fuzz_evm.py [--cases N] [--seed S] [--forks Cancun,London] [--carchain PATH]
                                       [--seconds T] [--report FILE] [--no-minimize]

Each case is a legacy transaction from a funded EOA to a generated contract (or a creation whose init code is a
generated program), with two more generated contracts it can call, over a pre-state with storage. Programs are
built from statements that leave the stack as they found it (so any statement can be removed when minimising):
stores of expression trees (arithmetic, bitwise, comparisons, environment and block opcodes, KECCAK256, memory
and storage reads), memory copies, logs, transient storage, calls of every kind to precompiles and to the other
contracts, CREATE/CREATE2 of generated init code, conditional skips and bounded loops, and a final STOP, RETURN,
REVERT, INVALID or SELFDESTRUCT.

Each case runs in every fork revm 8 (pyrevm 0.3.7) names that carchain supports: Frontier … Cancun (revm's
"Constantinople" is Petersburg, so carchain's Constantinople is not compared). carchain runs all cases of a round
in one `carchain evm batch` process; revm runs them through pyrevm's `message_call` (no fee payment: gas price
and base fee 0). Compared: success / revert / halt, output (return or revert data), gas used after the refund and
before it, logs (on success), and the post-state of every account (balance, nonce, code, storage; an absent
account equals an empty one). A difference is minimised by removing statements while it persists, and reported
with the program's bytecode. The exit status is 1 when any case differed.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

from eth_hash.auto import keccak  # installed with eth-abi and py-evm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (revm spec name, carchain fork name, revm's name for it in the journal's Debug output)
FORKS = [
    ("Frontier", "Frontier", "FRONTIER"), ("Homestead", "Homestead", "HOMESTEAD"),
    ("Tangerine", "TangerineWhistle", "TANGERINE"), ("Spurious", "SpuriousDragon", "SPURIOUS_DRAGON"),
    ("Byzantium", "Byzantium", "BYZANTIUM"), ("Petersburg", "Petersburg", "PETERSBURG"),
    ("Istanbul", "Istanbul", "ISTANBUL"), ("Berlin", "Berlin", "BERLIN"), ("London", "London", "LONDON"),
    ("Merge", "Paris", "MERGE"), ("Shanghai", "Shanghai", "SHANGHAI"), ("Cancun", "Cancun", "CANCUN"),
]

BEFORE_SPURIOUS_DRAGON = {"Frontier", "Homestead", "TangerineWhistle"}
CALLER = "0x" + "ca11e4" + "00" * 17
MAIN = "0x" + "c0de" * 10
OTHERS = ["0x" + "00" * 18 + "c0d1", "0x" + "00" * 18 + "c0d2"]
COINBASE = "0x" + "c014ba5e" + "00" * 16
ABSENT = "0x" + "de" * 20
PRECOMPILES = ["0x" + "00" * 19 + "%02x" % i for i in range(1, 11)]
GAS_LIMIT = 30_000_000
BLOCK = {"number": 300, "timestamp": 1_700_000_000, "coinbase": COINBASE, "gasLimit": GAS_LIMIT,
         "difficulty": "0x20000", "prevRandao": "0x" + "5a" * 32, "baseFee": "0x0"}

OP = {
    "STOP": 0x00, "ADD": 0x01, "MUL": 0x02, "SUB": 0x03, "DIV": 0x04, "SDIV": 0x05, "MOD": 0x06, "SMOD": 0x07,
    "ADDMOD": 0x08, "MULMOD": 0x09, "EXP": 0x0A, "SIGNEXTEND": 0x0B, "LT": 0x10, "GT": 0x11, "SLT": 0x12,
    "SGT": 0x13, "EQ": 0x14, "ISZERO": 0x15, "AND": 0x16, "OR": 0x17, "XOR": 0x18, "NOT": 0x19, "BYTE": 0x1A,
    "SHL": 0x1B, "SHR": 0x1C, "SAR": 0x1D, "KECCAK256": 0x20, "ADDRESS": 0x30, "BALANCE": 0x31, "ORIGIN": 0x32,
    "CALLER": 0x33, "CALLVALUE": 0x34, "CALLDATALOAD": 0x35, "CALLDATASIZE": 0x36, "CALLDATACOPY": 0x37,
    "CODESIZE": 0x38, "CODECOPY": 0x39, "GASPRICE": 0x3A, "EXTCODESIZE": 0x3B, "EXTCODECOPY": 0x3C,
    "RETURNDATASIZE": 0x3D, "RETURNDATACOPY": 0x3E, "EXTCODEHASH": 0x3F, "BLOCKHASH": 0x40, "COINBASE": 0x41,
    "TIMESTAMP": 0x42, "NUMBER": 0x43, "PREVRANDAO": 0x44, "GASLIMIT": 0x45, "CHAINID": 0x46,
    "SELFBALANCE": 0x47, "BASEFEE": 0x48, "BLOBHASH": 0x49, "BLOBBASEFEE": 0x4A, "POP": 0x50, "MLOAD": 0x51,
    "MSTORE": 0x52, "MSTORE8": 0x53, "SLOAD": 0x54, "SSTORE": 0x55, "JUMP": 0x56, "JUMPI": 0x57, "PC": 0x58,
    "MSIZE": 0x59, "GAS": 0x5A, "JUMPDEST": 0x5B, "TLOAD": 0x5C, "TSTORE": 0x5D, "MCOPY": 0x5E, "DUP1": 0x80,
    "SWAP1": 0x90, "LOG0": 0xA0, "CREATE": 0xF0, "CALL": 0xF1, "CALLCODE": 0xF2, "RETURN": 0xF3,
    "DELEGATECALL": 0xF4, "CREATE2": 0xF5, "STATICCALL": 0xFA, "REVERT": 0xFD, "INVALID": 0xFE,
    "SELFDESTRUCT": 0xFF,
}

# The fork (index into FORKS) that introduced each opcode newer than Frontier. A case is generated for a random
# fork level: opcodes newer than it appear only rarely, so most programs are valid in most forks they run in.
INTRODUCED = {
    "DELEGATECALL": 1, "REVERT": 4, "RETURNDATASIZE": 4, "RETURNDATACOPY": 4, "STATICCALL": 4, "SHL": 5, "SHR": 5,
    "SAR": 5, "CREATE2": 5, "EXTCODEHASH": 5, "CHAINID": 6, "SELFBALANCE": 6, "BASEFEE": 8, "TLOAD": 11,
    "TSTORE": 11, "MCOPY": 11, "BLOBHASH": 11, "BLOBBASEFEE": 11,
}
BINARY = ["ADD", "MUL", "SUB", "DIV", "SDIV", "MOD", "SMOD", "EXP", "SIGNEXTEND", "LT", "GT", "SLT", "SGT", "EQ",
          "AND", "OR", "XOR", "BYTE", "SHL", "SHR", "SAR"]
NULLARY = ["ADDRESS", "ORIGIN", "CALLER", "CALLVALUE", "CALLDATASIZE", "CODESIZE", "GASPRICE", "RETURNDATASIZE",
           "COINBASE", "TIMESTAMP", "NUMBER", "PREVRANDAO", "GASLIMIT", "CHAINID", "SELFBALANCE", "BASEFEE",
           "BLOBBASEFEE", "MSIZE", "PC", "GAS"]
EDGE = [0, 1, 2, 3, 7, 8, 31, 32, 33, 255, 256, 2**63, 2**64 - 1, 2**64, 2**128, 2**255 - 1, 2**255, 2**256 - 1,
        2**256 - 2]


# ---------------------------------------------------------------------------------------------------------------
# Programs: statements (stack-balanced lists of items) assembled with labels.

class Label:
    counter = 0

    def __init__(self):
        Label.counter += 1
        self.name = Label.counter


def push(value):
    value %= 2**256
    n = max(1, (value.bit_length() + 7) // 8)
    return bytes([0x5F + n]) + value.to_bytes(n, "big")


def assemble(items):
    """items: ints (opcode bytes), bytes (raw), ('push', v), ('label', L), ('ref', L) -> PUSH2 of L's offset."""
    def size(item):
        if isinstance(item, int):
            return 1
        if isinstance(item, bytes):
            return len(item)
        kind = item[0]
        return {"push": len(push(item[1])) if kind == "push" else 0, "label": 1, "ref": 3}[kind]
    offsets, pc = {}, 0
    for item in items:
        if isinstance(item, tuple) and item[0] == "label":
            offsets[item[1].name] = pc
        pc += size(item)
    out = bytearray()
    for item in items:
        if isinstance(item, int):
            out.append(item)
        elif isinstance(item, bytes):
            out += item
        elif item[0] == "push":
            out += push(item[1])
        elif item[0] == "label":
            out.append(OP["JUMPDEST"])
        else:
            out += bytes([0x61]) + offsets[item[1].name].to_bytes(2, "big")
    return bytes(out)


class Generator:
    def __init__(self, rng, level, self_address):
        self.rng = rng
        self.level = level
        self.address = self_address

    def ok(self, name):
        """Whether to use `name`: always when the case's fork level has it, else 1 time in 20 (to check that
        earlier forks refuse it)."""
        return INTRODUCED.get(name, 0) <= self.level or self.rng.random() < 0.05

    def pick(self, names):
        allowed = [n for n in names if self.ok(n)]
        return self.rng.choice(allowed or names[:1])

    def const(self):
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice(EDGE)
        if r < 0.8:
            return self.rng.randrange(0, 300)
        return self.rng.getrandbits(self.rng.choice([8, 64, 160, 256]))

    def offset(self):
        r = self.rng.random()
        if r < 0.9:
            return self.rng.randrange(0, 200)
        if r < 0.995:
            return self.rng.choice([1024, 4095, 32768, 100_000])
        return self.rng.choice([2**32, 2**64 - 1, 2**256 - 1])

    def length(self):
        r = self.rng.random()
        if r < 0.9:
            return self.rng.randrange(0, 96)
        if r < 0.997:
            return self.rng.choice([256, 1000, 30_000])
        return self.rng.choice([2**32, 2**256 - 1])

    def address_value(self):
        choice = self.rng.choice([MAIN] + OTHERS + [CALLER, COINBASE, ABSENT] + PRECOMPILES)
        return int(choice, 16)

    def expr(self, depth=0):
        """Items that push exactly one value."""
        r = self.rng.random()
        if depth > 3 or r < 0.3:
            return [("push", self.const())]
        if r < 0.45:
            return [OP[self.pick(NULLARY)]]
        if r < 0.52:
            op = self.pick(["BALANCE", "EXTCODESIZE", "EXTCODEHASH"])
            return [("push", self.address_value()), OP[op]]
        if r < 0.55:
            return [("push", self.rng.choice([0, 1, 299, 298, 44, 300, 301, 2**64])), OP["BLOCKHASH"]]
        if r < 0.58:
            return self.expr(depth + 1) + [OP[self.pick(["ISZERO", "NOT", "CALLDATALOAD", "BLOBHASH"])]]
        if r < 0.78:
            return self.expr(depth + 1) + self.expr(depth + 1) + [OP[self.pick(BINARY)]]
        if r < 0.82:
            return (self.expr(depth + 1) + self.expr(depth + 1) + self.expr(depth + 1)
                    + [OP[self.rng.choice(["ADDMOD", "MULMOD"])]])
        if r < 0.87:
            return [("push", self.offset()), OP["MLOAD"]]
        if r < 0.93:
            return [("push", self.rng.randrange(0, 8)), OP[self.pick(["SLOAD", "SLOAD", "TLOAD"])]]
        return [("push", self.length()), ("push", self.offset()), OP["KECCAK256"]]

    def call(self):
        kind = self.pick(["CALL", "CALL", "STATICCALL", "DELEGATECALL", "CALLCODE"])
        target = self.rng.choice(OTHERS * 3 + PRECOMPILES + [MAIN, ABSENT, CALLER])
        gas = [OP["GAS"]] if self.rng.random() < 0.5 else [("push", self.rng.choice([0, 100, 3000, 50_000, 2**64]))]
        items = [("push", self.length()), ("push", self.offset()), ("push", self.length() % 300),
                 ("push", self.offset() % 300)]
        if kind in ("CALL", "CALLCODE"):
            items.append(("push", self.rng.choice([0, 0, 1, 10**18, 2**255])))
        items += [("push", int(target, 16))] + gas + [OP[kind]]
        return items

    def init_code(self, depth):
        """Init code: a few statements, then CODECOPY of a generated runtime and RETURN of it (or a revert)."""
        runtime = Generator(self.rng, self.level, None).program(depth + 1, statements=3)
        body = assemble(Generator(self.rng, self.level, None).statements(depth + 1, 2))
        if self.rng.random() < 0.1:
            return body + push(0) + push(0) + bytes([OP["REVERT"]])
        n = len(runtime)
        # PUSH n, PUSH2 offset, PUSH1 0, CODECOPY, PUSH n, PUSH1 0, RETURN, runtime
        offset = len(body) + len(push(n)) + 3 + 2 + 1 + len(push(n)) + 2 + 1
        return (body + push(n) + bytes([0x61]) + offset.to_bytes(2, "big") + push(0) + bytes([OP["CODECOPY"]])
                + push(n) + push(0) + bytes([OP["RETURN"]]) + runtime)

    def statement(self, depth):
        r = self.rng.random()
        store = lambda value_items: value_items + [("push", self.rng.randrange(0, 8)), OP["SSTORE"]]
        if r < 0.2:
            return store(self.expr())
        if r < 0.35:
            return self.expr() + [("push", self.offset()), OP[self.rng.choice(["MSTORE", "MSTORE", "MSTORE8"])]]
        if r < 0.42 and self.ok("TSTORE"):
            return self.expr() + [("push", self.rng.randrange(0, 8)), OP["TSTORE"]]
        if r < 0.5:
            op = self.pick(["CALLDATACOPY", "CODECOPY", "CODECOPY", "RETURNDATACOPY", "MCOPY"])
            if op == "RETURNDATACOPY" and self.rng.random() < 0.9:  # mostly within the return data
                return [("push", self.rng.choice([0, 0, 1, 32])), ("push", 0), ("push", self.offset()), OP[op]]
            return [("push", self.length()), ("push", self.rng.randrange(0, 300)), ("push", self.offset()), OP[op]]
        if r < 0.53:
            return [("push", self.length() % 100), ("push", self.rng.randrange(0, 300)), ("push", self.offset()),
                    ("push", self.address_value()), OP["EXTCODECOPY"]]
        if r < 0.6:
            n = self.rng.randrange(0, 5)
            return [("push", self.const()) for _ in range(n)] + [("push", self.length() % 200),
                                                                 ("push", self.offset()), OP["LOG0"] + n]
        if r < 0.75:
            result = self.call()
            return result + ([OP["POP"]] if self.rng.random() < 0.3 else [("push", self.rng.randrange(0, 8)),
                                                                           OP["SSTORE"]])
        if r < 0.82 and depth < 2:
            code = self.init_code(depth)
            items = []
            for i in range(0, len(code), 32):
                chunk = code[i:i + 32].ljust(32, b"\x00")
                items += [("push", int.from_bytes(chunk, "big")), ("push", 512 + i), OP["MSTORE"]]
            value = self.rng.choice([0, 0, 1, 10**18])
            if self.rng.random() < 0.5 or not self.ok("CREATE2"):
                items += [("push", len(code)), ("push", 512), ("push", value), OP["CREATE"]]
            else:
                items += [("push", self.rng.choice([0, 1, 2**256 - 1])), ("push", len(code)), ("push", 512),
                          ("push", value), OP["CREATE2"]]
            return items + [("push", self.rng.randrange(0, 8)), OP["SSTORE"]]
        if r < 0.9 and depth < 3:
            skip = Label()
            return self.expr() + [("ref", skip), OP["JUMPI"]] + self.statements(depth + 1, 2) + [("label", skip)]
        if r < 0.94 and depth < 2:
            top, end = Label(), Label()
            return ([("push", self.rng.randrange(1, 6)), ("label", top), OP["DUP1"], OP["ISZERO"], ("ref", end),
                     OP["JUMPI"]] + self.statements(depth + 1, 2)
                    + [("push", 1), OP["SWAP1"], OP["SUB"], ("ref", top), OP["JUMP"], ("label", end), OP["POP"]])
        return self.expr() + [OP["POP"]]

    def statements(self, depth, count):
        out = []
        for _ in range(count):
            out += self.statement(depth)
        return out

    def terminator(self):
        r = self.rng.random()
        if r < 0.35:
            return [("push", self.length() % 128), ("push", self.offset() % 256), OP["RETURN"]]
        if r < 0.5 and self.ok("REVERT"):
            return [("push", self.length() % 128), ("push", self.offset() % 256), OP["REVERT"]]
        if r < 0.53:
            return [OP["INVALID"]]
        if r < 0.58:
            return [("push", self.address_value()), OP["SELFDESTRUCT"]]
        if r < 0.6:
            return [OP["JUMP"]]  # stack underflow
        return [OP["STOP"]]

    def program(self, depth=0, statements=None):
        count = statements if statements is not None else self.rng.randrange(3, 16)
        return assemble(self.statements(depth, count) + self.terminator())

    def program_statements(self, count):
        return [self.statement(0) for _ in range(count)], self.terminator()


# ---------------------------------------------------------------------------------------------------------------
# Cases

def make_case(rng, case_id):
    level = rng.randrange(len(FORKS))
    gen = Generator(rng, level, MAIN)
    stmts, term = gen.program_statements(rng.randrange(3, 16))
    others = [Generator(rng, level, a).program(1, rng.randrange(1, 6)) for a in OTHERS]
    create = rng.random() < 0.1
    return {
        "id": case_id, "statements": stmts, "terminator": term, "others": others, "create": create,
        "value": rng.choice([0, 0, 1, 12345]), "data": rng.randbytes(rng.choice([0, 4, 36, 100])).hex(),
        "gas": rng.choice([100_000, 1_000_000, 3_000_000, 10_000_000]),
        "storage": {str(k): hex(rng.choice([1, 2**256 - 1, rng.getrandbits(64)])) for k in range(rng.randrange(0, 4))},
    }


def main_code(case, keep=None):
    stmts = case["statements"] if keep is None else [s for i, s in enumerate(case["statements"]) if i in keep]
    return assemble([item for s in stmts for item in s] + case["terminator"])


def carchain_input(case, fork, code):
    accounts = {
        CALLER: {"balance": hex(10**24)},
        OTHERS[0]: {"balance": "0x10", "code": "0x" + case["others"][0].hex(), "storage": {"0x1": "0x2"}},
        OTHERS[1]: {"code": "0x" + case["others"][1].hex()},
    }
    if fork in BEFORE_SPURIOUS_DRAGON:
        # pyrevm's in-memory database reports every account as existing (Foundry's choice), so before EIP-161 revm
        # never charges G_newaccount: give every address the programs name an account on both sides.
        for address in [ABSENT, COINBASE] + PRECOMPILES:
            accounts.setdefault(address, {"balance": "0x1"})
    line = {"id": case["id"], "fork": fork, "caller": CALLER, "value": hex(case["value"]), "gas": case["gas"],
            "block": BLOCK, "accounts": accounts}
    if case["create"]:
        line["data"] = "0x" + code.hex()
    else:
        accounts[MAIN] = {"balance": "0x64", "code": "0x" + code.hex(), "storage": case["storage"]}
        line["to"] = MAIN
        line["data"] = "0x" + case["data"]
    return line


def run_carchain(binary, lines):
    payload = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    proc = subprocess.run([binary, "evm", "batch"], input=payload.encode(), capture_output=True, timeout=1800)
    if proc.returncode != 0:
        sys.exit(f"fuzz_evm: carchain evm batch failed: {proc.stderr.decode()[:2000]}")
    return [json.loads(l) for l in proc.stdout.decode().splitlines() if l.strip()]


ACCOUNT_RE = re.compile(r"(0x[0-9a-fA-F]{40}): Account \{ info: AccountInfo \{ balance: (\d+), nonce: (\d+)")
SLOT_RE = re.compile(r"(\d+): StorageSlot \{ previous_or_original_value: \d+, present_value: (\d+) \}")


def run_revm(pyrevm, spec, revm_name, line):
    evm = pyrevm.EVM(spec_id=spec, gas_limit=GAS_LIMIT, env=pyrevm.Env(block=pyrevm.BlockEnv(
        number=BLOCK["number"], coinbase=COINBASE, timestamp=BLOCK["timestamp"], difficulty=int(BLOCK["difficulty"], 16),
        prevrandao=bytes.fromhex(BLOCK["prevRandao"][2:]), gas_limit=GAS_LIMIT, excess_blob_gas=0)))
    # The pre-state goes into revm's database, so every account and slot starts cold. pyrevm's
    # insert_account_storage also loads the account into the journal (warm), and writes to a journaled account
    # as an SSTORE (dirty): a checkpoint reverted after each insert undoes the load and keeps the database row.
    pre_storage = {}
    for address, account in line["accounts"].items():
        code = bytes.fromhex(account.get("code", "0x")[2:])
        evm.insert_account_info(address, pyrevm.AccountInfo(
            balance=int(account.get("balance", "0x0"), 16), nonce=0, code=code if code else None))
    for address, account in line["accounts"].items():
        for slot, value in account.get("storage", {}).items():
            checkpoint = evm.snapshot()  # one slot per checkpoint: a second insert would go to the journal
            evm.insert_account_storage(address, int(slot, 0), int(value, 0))
            evm.revert(checkpoint)
            pre_storage.setdefault(address.lower(), {})[int(slot, 0)] = int(value, 0)
    data = bytes.fromhex(line["data"][2:])
    out = {"status": "invalid", "output": "0x", "gasUsed": None, "gasRefunded": 0, "logs": [], "reason": ""}
    try:
        if "to" in line:
            output = evm.message_call(CALLER, line["to"], calldata=data, value=int(line["value"], 16), gas=line["gas"])
        else:
            evm.deploy(CALLER, data, value=int(line["value"], 16), gas=line["gas"])
            output = b""  # a creation's output is the deployed code; compared through the state
        out["output"] = "0x" + bytes(output).hex()
    except Exception as error:  # pyrevm raises for revert, halt and invalid transactions
        message = str(error)
        match = re.search(r"output: 0x([0-9a-f]*)", message)
        if match and "Revert" in message:
            out["output"] = "0x" + match.group(1)
        out["reason"] = message[:200]
    journal = evm.journal_str
    spec_match = re.search(r"spec: ([A-Z_]+)", journal)
    if not spec_match or spec_match.group(1) != revm_name:
        sys.exit(f"fuzz_evm: pyrevm ran {spec_match and spec_match.group(1)} for spec {spec} (expected {revm_name})")
    result = evm.result
    if result is not None:
        out["status"] = "success" if result.is_success else ("halt" if result.is_halt else "revert")
        out["reason"] = result.reason
        out["gasUsed"] = result.gas_used
        out["gasRefunded"] = result.gas_refunded
        if result.is_success:
            out["logs"] = [{"address": log.address.lower(), "topics": [t.lower() for t in log.topics],
                            "data": "0x" + log.data[1].hex()} for log in result.logs]
    # Post-state: every account revm's journal holds, storage from the journal's slots over the pre-state.
    state = {}
    state_text = journal[:journal.find("transient_storage:")]
    chunks = ACCOUNT_RE.split(state_text)
    for i in range(1, len(chunks) - 3, 4):
        address, chunk = chunks[i].lower(), chunks[i + 3]
        storage = dict(pre_storage.get(address, {}))
        storage_text = chunk[chunk.find("storage: {"):chunk.find("status: AccountStatus")]
        for slot, value in SLOT_RE.findall(storage_text):
            storage[int(slot)] = int(value)
        status = chunk[chunk.find("status: AccountStatus"):]
        info = evm.basic(address)
        if "SelfDestructed" in status:
            state[address] = EMPTY
            continue
        # The code hash, not the code: revm pads analysed code with zeros (an absent account shows "0x00").
        code_hash = "0x" + bytes(info.code_hash).hex() if info.code_hash else EMPTY_CODE_HASH
        state[address] = {"balance": info.balance, "nonce": info.nonce, "code": code_hash,
                          "storage": {k: v for k, v in storage.items() if v}}
    for address in line["accounts"]:  # accounts the transaction never loaded keep their pre-state
        address = address.lower()
        if address not in state:
            info = evm.basic(address)
            code_hash = "0x" + bytes(info.code_hash).hex() if info.code_hash else EMPTY_CODE_HASH
            state[address] = {"balance": info.balance, "nonce": info.nonce, "code": code_hash,
                              "storage": {k: v for k, v in pre_storage.get(address, {}).items() if v}}
    if "to" in line and CALLER in state:
        state[CALLER]["nonce"] += 1  # message_call skips the transaction's nonce bump; carchain's executor does it
    out["accounts"] = state
    return out


def normalize_carchain(result, line):
    result["creation"] = "to" not in line
    accounts = {}
    for address, account in result.get("accounts", {}).items():
        accounts[address.lower()] = {"balance": int(account["balance"], 16), "nonce": account["nonce"],
                                     "code": "0x" + keccak(bytes.fromhex(account["code"][2:])).hex(),
                                     "storage": {int(k, 16): int(v, 16) for k, v in account["storage"].items()}}
    result["accounts"] = accounts
    return result


EMPTY_CODE_HASH = "0x" + keccak(b"").hex()
EMPTY = {"balance": 0, "nonce": 0, "code": EMPTY_CODE_HASH, "storage": {}}


def compare(ours, theirs):
    """The first difference as (category, detail), or None."""
    if ours["status"] != theirs["status"]:
        return ("status", f"carchain {ours['status']} ({ours['reason']}), revm {theirs['status']} ({theirs['reason']})")
    if ours["status"] == "invalid":
        return None
    creation_success = ours.get("creation") and ours["status"] == "success"
    if not creation_success and ours["output"].lower() != theirs["output"].lower():
        return ("output", f"carchain {ours['output'][:140]}, revm {theirs['output'][:140]}")
    before_ours = ours["gasUsed"] + ours["gasRefunded"]
    before_theirs = theirs["gasUsed"] + theirs["gasRefunded"]
    if before_ours != before_theirs:
        return ("gas", f"gas before refund: carchain {before_ours}, revm {before_theirs}")
    if ours["gasUsed"] != theirs["gasUsed"]:
        return ("refund", f"gas after refund: carchain {ours['gasUsed']} (refund {ours['gasRefunded']}), "
                          f"revm {theirs['gasUsed']} (refund {theirs['gasRefunded']})")
    our_logs = [{"address": l["address"].lower(), "topics": [t.lower() for t in l["topics"]], "data": l["data"].lower()}
                for l in ours["logs"]]
    if our_logs != theirs["logs"]:
        return ("logs", f"carchain {json.dumps(our_logs)[:300]}, revm {json.dumps(theirs['logs'])[:300]}")
    for address in sorted(set(ours["accounts"]) | set(theirs["accounts"])):
        a, b = ours["accounts"].get(address, EMPTY), theirs["accounts"].get(address, EMPTY)
        for key in ("balance", "nonce", "code", "storage"):
            if a[key] != b[key]:
                return ("state", f"{address} {key}: carchain {str(a[key])[:200]}, revm {str(b[key])[:200]}")
    return None


def disassemble(code):
    names = {v: k for k, v in OP.items()}
    out, i = [], 0
    while i < len(code):
        op = code[i]
        if 0x60 <= op <= 0x7F:
            n = op - 0x5F
            out.append(f"PUSH{n} 0x{code[i + 1:i + 1 + n].hex()}")
            i += 1 + n
            continue
        if op == 0x5F:
            out.append("PUSH0")
        elif 0x80 <= op <= 0x8F:
            out.append(f"DUP{op - 0x7F}")
        elif 0x90 <= op <= 0x9F:
            out.append(f"SWAP{op - 0x8F}")
        elif 0xA0 <= op <= 0xA4:
            out.append(f"LOG{op - 0xA0}")
        else:
            out.append(names.get(op, f"0x{op:02x}"))
        i += 1
    return " ".join(out)


def minimize(binary, pyrevm, fork, case, category):
    """Removes statements one at a time while a difference of the same category persists."""
    keep = list(range(len(case["statements"])))
    changed = True
    while changed and keep:
        changed = False
        candidates = [[k for k in keep if k != drop] for drop in keep]
        lines = []
        for n, kept in enumerate(candidates):
            line = carchain_input(case, fork[1], main_code(case, set(kept)))
            line["id"] = n
            lines.append(line)
        results = run_carchain(binary, lines)
        for kept, line, ours in zip(candidates, lines, results):
            diff = compare(normalize_carchain(ours, line), run_revm(pyrevm, fork[0], fork[2], line))
            if diff and diff[0] == category:
                keep, changed = kept, True
                break
    return keep


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=300, help="programs per round (each runs in every fork)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the first round")
    parser.add_argument("--seconds", type=float, default=0, help="keep running rounds (seed+1, …) for this long")
    parser.add_argument("--forks", default=",".join(f[1] for f in FORKS), help="carchain fork names, comma-separated")
    parser.add_argument("--carchain", default=os.path.join(ROOT, ".build", "release", "carchain"))
    parser.add_argument("--report", help="also write the differences (minimised) as JSON to this file")
    parser.add_argument("--no-minimize", action="store_true")
    args = parser.parse_args()
    try:
        import pyrevm
    except ImportError:
        sys.exit("fuzz_evm: pyrevm is not installed (make venv)")
    if not os.access(args.carchain, os.X_OK):
        sys.exit(f"fuzz_evm: no carchain binary at {args.carchain} (swift build -c release --product carchain)")
    wanted = [name.strip() for name in args.forks.split(",") if name.strip()]
    forks = [f for f in FORKS if f[1] in wanted]
    unknown = set(wanted) - {f[1] for f in forks}
    if unknown:
        sys.exit(f"fuzz_evm: forks not compared with revm: {sorted(unknown)} (known: {[f[1] for f in FORKS]})")

    start = time.time()
    seed, total, differences = args.seed, 0, []
    seen_categories = set()
    per_fork = {f[1]: [0, 0] for f in forks}
    outcomes = {}
    while True:
        rng = random.Random(seed)
        cases = [make_case(rng, i) for i in range(args.cases)]
        for fork in forks:
            lines = [carchain_input(c, fork[1], main_code(c)) for c in cases]
            results = run_carchain(args.carchain, lines)
            for case, line, ours in zip(cases, lines, results):
                total += 1
                per_fork[fork[1]][0] += 1
                outcomes[ours["status"]] = outcomes.get(ours["status"], 0) + 1
                diff = compare(normalize_carchain(ours, line), run_revm(pyrevm, fork[0], fork[2], line))
                if not diff:
                    continue
                per_fork[fork[1]][1] += 1
                key = (fork[1], diff[0])
                entry = {"seed": seed, "case": case["id"], "fork": fork[1], "category": diff[0], "detail": diff[1]}
                if key not in seen_categories and not args.no_minimize:
                    keep = minimize(args.carchain, pyrevm, fork, case, diff[0])
                    code = main_code(case, set(keep))
                    line = carchain_input(case, fork[1], code)
                    entry["minimized"] = {"code": "0x" + code.hex(), "disassembly": disassemble(code),
                                          "case": line,
                                          "difference": compare(normalize_carchain(run_carchain(args.carchain, [line])[0], line),
                                                                run_revm(pyrevm, fork[0], fork[2], line))}
                    seen_categories.add(key)
                differences.append(entry)
        seed += 1
        if time.time() - start >= args.seconds:
            break
    elapsed = time.time() - start
    for fork, (count, failed) in per_fork.items():
        print(f"  {fork:17} {count:6} cases, {failed} differ")
    print("  outcomes: " + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items())))
    shown = set()
    for entry in differences:
        key = (entry["fork"], entry["category"])
        if key in shown:
            continue
        shown.add(key)
        print(f"DIFFERENCE {entry['fork']} {entry['category']} (seed {entry['seed']} case {entry['case']}): {entry['detail']}")
        if "minimized" in entry:
            print(f"  minimised: {entry['minimized']['disassembly'][:600]}")
            print(f"  still: {entry['minimized']['difference']}")
    if args.report:
        with open(args.report, "w") as f:
            json.dump(differences, f, indent=1, default=str)
    failed = len(differences)
    print(f"evm-differential: {total - failed} passed, {failed} failed ({len(forks)} forks, seeds {args.seed}…{seed - 1},"
          f" {elapsed:.0f} s)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
