#!/usr/bin/env python3
"""Drive running `carchain node`s with web3.py and eth-account through EIP-7702 (type 4), EIP-7825 and EIP-7910.

Input (stdin, JSON): {"url": "http://…" (a node at Prague or later), "fork": "osaka"|"prague",
                      "cancun_url": "http://…" (optional: a node at Cancun, which must refuse type 4)}
Output (stdout, JSON): {"checks": [{"name": "...", "ok": true|false, "detail": "..."}]}

Every transaction and authorization is signed by eth-account (Account.sign_authorization, Account.sign_transaction)
and sent raw, so the node's decoding, pool, execution and JSON answers are checked against another implementation:
the delegation designator in the authority's code, the storage the delegate wrote there, the authorization list in
eth_getTransactionByHash and the receipt as eth-account signed it, a delegated EOA sending its own transaction,
eth_call / eth_estimateGas / eth_createAccessList applying an authorizationList, EIP-7825's 2^24 gas cap (Osaka),
eth_config's fork id recomputed here with zlib.crc32 over the genesis hash.
"""
import json
import sys
import traceback
import zlib

from eth_account import Account
from web3 import Web3

# Dev account 1 of the test mnemonic (the node funds it): the sponsor of the type-4 transactions.
SPONSOR_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
CHAIN_ID = 4
# Runtime: SSTORE(0, 42); return ADDRESS as a word. Run through a delegation, ADDRESS is the authority.
RUNTIME = bytes.fromhex("602a60005530600052602060" + "00f3")
INITCODE = bytes.fromhex("600e600c600039600e6000f3") + RUNTIME
GAS_CAP = 1 << 24


def auth_json(signed):
    """geth's JSON of a signed authorization, from eth-account's object."""
    return {"chainId": hex(signed.chain_id), "address": "0x" + bytes(signed.address).hex(), "nonce": hex(signed.nonce),
            "yParity": hex(signed.y_parity), "r": hex(signed.r), "s": hex(signed.s)}


def main():
    request = json.load(sys.stdin)
    fork = request.get("fork", "osaka")
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)})

    def rpc(w3, method, params):
        return w3.provider.make_request(method, params)

    try:
        w3 = Web3(Web3.HTTPProvider(request["url"], request_kwargs={"timeout": 30}))
        check("connected", w3.is_connected())
        sponsor = Account.from_key(SPONSOR_KEY)
        dev0 = w3.eth.accounts[0]

        # eth_config (EIP-7910).
        config = rpc(w3, "eth_config", [])
        result = config.get("result") or {}
        current = result.get("current") or {}
        genesis = w3.eth.get_block(0)
        fork_id = "0x%08x" % zlib.crc32(bytes(genesis["hash"]))
        check("eth_config next and last are null", result.get("next", "absent") is None and result.get("last", "absent") is None, result)
        check("eth_config chainId", current.get("chainId") == "0x4", current.get("chainId"))
        check("eth_config forkId is crc32(genesis hash)", current.get("forkId") == fork_id, (current.get("forkId"), fork_id))
        check("eth_config activationTime 0", current.get("activationTime") == 0, current.get("activationTime"))
        check("eth_config blobSchedule", current.get("blobSchedule") == {"baseFeeUpdateFraction": 5007716, "max": 9, "target": 6},
              current.get("blobSchedule"))
        precompiles = current.get("precompiles") or {}
        expected_count = 18 if fork == "osaka" else 17
        check("eth_config precompiles", len(precompiles) == expected_count
              and precompiles.get("BLS12_MAP_FP2_TO_G2") == "0x0000000000000000000000000000000000000011"
              and (fork != "osaka" or precompiles.get("P256VERIFY") == "0x0000000000000000000000000000000000000100"),
              precompiles)
        check("eth_config keys sorted", list(precompiles) == sorted(precompiles) and list(current) == sorted(current), list(current))
        system = current.get("systemContracts") or {}
        check("eth_config systemContracts", system.get("HISTORY_STORAGE_ADDRESS") == "0x0000f90827f1c53a10cb7a02335b175320002935"
              and system.get("BEACON_ROOTS_ADDRESS") == "0x000f3df6d732807ef1319fb7b8bb8522d0beac02" and len(system) == 5, system)

        # The delegate contract.
        deploy = w3.eth.wait_for_transaction_receipt(w3.eth.send_transaction({"from": dev0, "data": INITCODE}), timeout=30)
        delegate = deploy.contractAddress
        check("delegate deployed", deploy.status == 1 and bytes(w3.eth.get_code(delegate)) == RUNTIME, delegate)

        # A type-4 transaction: a fresh authority delegates to the contract, the sponsor pays and calls it.
        authority = Account.create()
        signed_auth = Account.sign_authorization({"chainId": CHAIN_ID, "address": delegate, "nonce": 0}, authority.key)
        fees = {"maxFeePerGas": 10 ** 10, "maxPriorityFeePerGas": 10 ** 9}
        tx = {"type": 4, "chainId": CHAIN_ID, "nonce": w3.eth.get_transaction_count(sponsor.address), "gas": 200_000,
              "to": authority.address, "value": 0, "data": b"", "accessList": [], "authorizationList": [signed_auth], **fees}
        signed_tx = Account.sign_transaction(tx, sponsor.key)
        tx_hash = w3.eth.send_raw_transaction(signed_tx.raw_transaction)
        check("type-4 accepted, hash as eth-account's", bytes(tx_hash) == bytes(signed_tx.hash), tx_hash.hex())
        receipt = w3.eth.wait_for_transaction_receipt(tx_hash, timeout=30)
        check("type-4 receipt status 1, type 4", receipt.status == 1 and receipt.type == 4, receipt)
        code = bytes(w3.eth.get_code(authority.address))
        check("authority code is 0xef0100 ‖ delegate", code == bytes.fromhex("ef0100") + bytes.fromhex(delegate[2:]), code.hex())
        check("delegate code ran on the authority's storage", w3.eth.get_storage_at(authority.address, 0)[-1] == 42,
              w3.eth.get_storage_at(authority.address, 0).hex())
        check("delegate's own storage untouched", int.from_bytes(w3.eth.get_storage_at(delegate, 0), "big") == 0)
        check("authority nonce bumped to 1", w3.eth.get_transaction_count(authority.address) == 1)
        raw_tx = rpc(w3, "eth_getTransactionByHash", [tx_hash.to_0x_hex()]).get("result") or {}
        check("eth_getTransactionByHash authorizationList as signed", raw_tx.get("authorizationList") == [auth_json(signed_auth)],
              raw_tx.get("authorizationList"))
        check("eth_getTransactionByHash type 0x4", raw_tx.get("type") == "0x4", raw_tx.get("type"))
        raw_receipt = rpc(w3, "eth_getTransactionReceipt", [tx_hash.to_0x_hex()]).get("result") or {}
        # geth's receipt of a type-4 transaction has no authorizationList (the list is the transaction's).
        check("receipt without authorizationList", "authorizationList" not in raw_receipt, sorted(raw_receipt))
        web3_tx = w3.eth.get_transaction(tx_hash)
        check("web3.py reads the type-4 transaction", len(web3_tx["authorizationList"]) == 1, web3_tx.get("authorizationList"))
        # Intrinsic 21,000 + 25,000 per authorization; SSTORE of a new value in a cold slot 22,100, five PUSH1 (3 each),
        # ADDRESS (2), MSTORE with one word of memory (6); no refund
        # (the authority did not exist).
        check("type-4 gas used", receipt.gasUsed == 21_000 + 25_000 + 22_100 + 5 * 3 + 2 + 6, receipt.gasUsed)

        # The delegated EOA sends its own transaction (the pool's EIP-3607 rule lets a designator through).
        w3.eth.wait_for_transaction_receipt(
            w3.eth.send_transaction({"from": dev0, "to": authority.address, "value": 10 ** 18}), timeout=30)
        own = Account.sign_transaction({"type": 2, "chainId": CHAIN_ID, "nonce": 1, "gas": 21_000, "to": dev0, "value": 1,
                                        **fees}, authority.key)
        try:
            own_receipt = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(own.raw_transaction), timeout=30)
            check("delegated EOA can send", own_receipt.status == 1, own_receipt)
        except Exception as error:
            check("delegated EOA can send", False, error)

        # eth_call, eth_estimateGas, eth_createAccessList with an authorizationList (nothing is committed).
        second = Account.create()
        auth2 = Account.sign_authorization({"chainId": CHAIN_ID, "address": delegate, "nonce": 0}, second.key)
        call = {"from": sponsor.address, "to": second.address, "authorizationList": [auth_json(auth2)]}
        answer = rpc(w3, "eth_call", [call, "latest"])
        check("eth_call applies authorizationList", answer.get("result") == "0x" + "00" * 12 + second.address[2:].lower(), answer)
        plain = rpc(w3, "eth_call", [{"from": sponsor.address, "to": second.address}, "latest"])
        check("eth_call without it sees no code", plain.get("result") == "0x", plain)
        check("eth_call changed nothing", bytes(w3.eth.get_code(second.address)) == b"")
        estimate = rpc(w3, "eth_estimateGas", [call, "latest"])
        gas = int(estimate.get("result", "0x0"), 16)
        check("eth_estimateGas counts the authorization", gas >= receipt.gasUsed, (gas, receipt.gasUsed))
        access = rpc(w3, "eth_createAccessList", [call, "latest"]).get("result") or {}
        # As geth's tracer: the slot written on the (warm) authority is listed, no bare account entry is added.
        check("eth_createAccessList with authorizationList", "error" not in access and int(access.get("gasUsed", "0x0"), 16) > 46_000
              and access.get("accessList") == [{"address": second.address.lower(), "storageKeys": ["0x" + "00" * 32]}], access)
        # The estimate is enough for the real transaction.
        tx2 = {**tx, "nonce": w3.eth.get_transaction_count(sponsor.address), "gas": gas, "to": second.address,
               "authorizationList": [auth2]}
        r2 = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(Account.sign_transaction(tx2, sponsor.key).raw_transaction), timeout=30)
        check("type-4 with the estimated gas succeeds", r2.status == 1 and w3.eth.get_storage_at(second.address, 0)[-1] == 42, r2)
        # web3.py's own encoding of eth-account's authorization objects, in a call and in eth_sendTransaction (the
        # node signs with the dev account and sends type 4).
        third = Account.create()
        auth3 = Account.sign_authorization({"chainId": CHAIN_ID, "address": delegate, "nonce": 0}, third.key)
        via_web3 = w3.eth.call({"from": sponsor.address, "to": third.address, "authorizationList": [auth3]})
        check("web3.py eth_call with authorizationList", bytes(via_web3) == bytes(12) + bytes.fromhex(third.address[2:]), via_web3.hex())
        sent = w3.eth.wait_for_transaction_receipt(
            w3.eth.send_transaction({"from": dev0, "to": third.address, "authorizationList": [auth3]}), timeout=30)
        check("eth_sendTransaction with authorizationList sends type 4", sent.type == 4 and sent.status == 1
              and bytes(w3.eth.get_code(third.address)) == bytes.fromhex("ef0100") + bytes.fromhex(delegate[2:]), sent)
        bad = rpc(w3, "eth_call", [{**call, "authorizationList": []}, "latest"])
        check("eth_call with an empty authorizationList is an error", "error" in bad, bad)

        # EIP-7825: Osaka caps a transaction at 2^24 gas; calls and estimates are lowered to the cap, not refused.
        over = Account.sign_transaction({"type": 2, "chainId": CHAIN_ID, "nonce": w3.eth.get_transaction_count(sponsor.address),
                                         "gas": GAS_CAP + 1, "to": dev0, "value": 1, **fees}, sponsor.key)
        answer = rpc(w3, "eth_sendRawTransaction", [over.raw_transaction.to_0x_hex()])
        if fork == "osaka":
            check("Osaka refuses gas above 2^24", "error" in answer and "7825" in answer["error"]["message"], answer)
            big_call = rpc(w3, "eth_call", [{"from": sponsor.address, "to": second.address, "gas": hex(25_000_000)}, "latest"])
            check("Osaka eth_call with gas above the cap runs", big_call.get("result") == "0x" + "00" * 12 + second.address[2:].lower(), big_call)
            est = rpc(w3, "eth_estimateGas", [{"from": sponsor.address, "to": dev0, "value": "0x1"}, "latest"])
            check("Osaka eth_estimateGas of a transfer", est.get("result") == hex(21_000), est)
        else:
            check("Prague accepts gas above 2^24", "result" in answer, answer)
    except Exception:
        check("no exception", False, traceback.format_exc())

    cancun_url = request.get("cancun_url")
    if cancun_url:
        try:
            w3c = Web3(Web3.HTTPProvider(cancun_url, request_kwargs={"timeout": 30}))
            sponsor = Account.from_key(SPONSOR_KEY)
            auth = Account.sign_authorization({"chainId": CHAIN_ID, "address": sponsor.address, "nonce": 0}, Account.create().key)
            tx = {"type": 4, "chainId": CHAIN_ID, "nonce": w3c.eth.get_transaction_count(sponsor.address), "gas": 100_000,
                  "to": sponsor.address, "maxFeePerGas": 10 ** 10, "maxPriorityFeePerGas": 10 ** 9, "authorizationList": [auth]}
            answer = w3c.provider.make_request(
                "eth_sendRawTransaction", [Account.sign_transaction(tx, SPONSOR_KEY).raw_transaction.to_0x_hex()])
            message = (answer.get("error") or {}).get("message", "")
            check("Cancun refuses type 4", answer.get("error", {}).get("code") == -32000 and "not supported" in message
                  and "Prague" in message, answer)
            call = w3c.provider.make_request("eth_call", [{"to": sponsor.address, "authorizationList": [auth_json(auth)]}, "latest"])
            check("Cancun eth_call refuses authorizationList", "error" in call and "Prague" in call["error"]["message"], call)
        except Exception:
            check("no exception (cancun)", False, traceback.format_exc())
    json.dump({"checks": checks}, sys.stdout)


if __name__ == "__main__":
    main()
