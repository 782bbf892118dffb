#!/usr/bin/env python3
"""Drive a running `carchain node` over WebSocket with web3.py (AsyncWeb3 + WebSocketProvider, a real client)
and the `websockets` library, and report what they saw.

Input (stdin, JSON): {"url": "http://127.0.0.1:PORT"}
Output (stdout, JSON): {"checks": [{"name": "...", "ok": true|false, "detail": "..."}]}

Scenario: plain requests over the socket; eth_subscribe newHeads (the header of each new block, equal to
eth_getBlockByNumber's), logs (only logs matching the address and topic filter, one notification each),
newPendingTransactions (hashes, and whole transactions with `true`), syncing; eth_unsubscribe (no more
notifications); HTTP answers -32001 to eth_subscribe; and a subscriber that stops reading while thousands of
blocks are mined is disconnected with close code 1008 and a reason, instead of the node buffering without end.
"""
import asyncio
import json
import sys
import traceback
import urllib.request

import websockets
from web3 import AsyncWeb3, WebSocketProvider

TOPIC = "0x" + "ab" * 32
OTHER_TOPIC = "0x" + "cd" * 32
# Runtime: MSTORE 42 at 0; LOG1(0, 32, TOPIC); STOP. Init code copies it out and returns it.
RUNTIME = "602a600052" + "7f" + "ab" * 32 + "60206000a100"
INIT = "60" + format(len(RUNTIME) // 2, "02x") + "600c60003960" + format(len(RUNTIME) // 2, "02x") + "6000f3" + RUNTIME


def http(url, method, params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


async def next_notification(w3, timeout=10):
    async def first():
        async for message in w3.socket.process_subscriptions():
            return message
    return await asyncio.wait_for(first(), timeout)


async def scenario(url, check):
    ws_url = url.replace("http://", "ws://", 1)
    async with AsyncWeb3(WebSocketProvider(ws_url)) as w3:
        check("connected over WebSocket", await w3.is_connected())
        check("chain id over WebSocket", await w3.eth.chain_id == 4)
        accounts = await w3.eth.accounts
        sender = accounts[0]

        # newHeads: the header of the next block, as eth_getBlockByNumber describes it.
        heads = await w3.eth.subscribe("newHeads")
        check("newHeads subscription id", isinstance(heads, str) and heads.startswith("0x"), heads)
        tx = await w3.eth.send_transaction({"from": sender, "to": accounts[1], "value": 1})
        message = await next_notification(w3)
        header = message["result"]
        block = await w3.eth.get_block("latest")
        check("newHeads notifies the new block", message["subscription"] == heads and header["hash"] == block["hash"],
              f"{header.get('number')} vs {block['number']}")
        check("newHeads carries the header fields", all(k in header for k in ("parentHash", "stateRoot", "baseFeePerGas", "logsBloom")))
        check("newHeads has no body members", not any(k in header for k in ("transactions", "uncles", "size")), list(header))
        check("unsubscribe newHeads", await w3.eth.unsubscribe(heads) is True)
        again = await w3.provider.make_request("eth_unsubscribe", [heads])
        check("unsubscribe unknown id is false", again.get("result") is False, again)

        # A contract that logs TOPIC; a logs subscription on its address and TOPIC, and one on OTHER_TOPIC.
        created = await w3.eth.send_transaction({"from": sender, "data": "0x" + INIT, "gas": 200_000})
        receipt = await w3.eth.wait_for_transaction_receipt(created)
        emitter = receipt["contractAddress"]
        matching = await w3.eth.subscribe("logs", {"address": emitter, "topics": [TOPIC]})
        other = await w3.eth.subscribe("logs", {"address": emitter, "topics": [OTHER_TOPIC]})
        sent = await w3.eth.send_transaction({"from": sender, "to": emitter, "gas": 100_000})
        message = await next_notification(w3)
        log = message["result"]
        check("logs notifies the matching log", message["subscription"] == matching and log["address"] == emitter
              and log["topics"][0].to_0x_hex() == TOPIC and log["transactionHash"] == sent, message)
        try:
            extra = await next_notification(w3, timeout=1.5)
            check("logs with another topic stays silent", False, extra)
        except asyncio.TimeoutError:
            check("logs with another topic stays silent", True)
        await w3.eth.unsubscribe(matching)
        await w3.eth.unsubscribe(other)

        # newPendingTransactions: the hash, then (with true) the whole transaction.
        pending = await w3.eth.subscribe("newPendingTransactions")
        sent = await w3.eth.send_transaction({"from": sender, "to": accounts[2], "value": 5})
        message = await next_notification(w3)
        check("newPendingTransactions sends the hash", message["subscription"] == pending and message["result"] == sent, message)
        await w3.eth.unsubscribe(pending)
        full = await w3.eth.subscribe("newPendingTransactions", True)
        sent = await w3.eth.send_transaction({"from": sender, "to": accounts[3], "value": 6})
        message = await next_notification(w3)
        result = message["result"]
        check("newPendingTransactions true sends the transaction", message["subscription"] == full
              and result["hash"] == sent and result["to"] == accounts[3] and result["value"] == 6, result)
        await w3.eth.unsubscribe(full)
        syncing = await w3.eth.subscribe("syncing")
        check("syncing is accepted", isinstance(syncing, str))

    # Over HTTP there are no notifications (geth's answer).
    answer = http(url, "eth_subscribe", ["newHeads"])
    check("HTTP eth_subscribe is -32001", answer.get("error", {}).get("code") == -32001, answer)

    # Raw websockets: an unknown subscription is -32602; a subscriber that stops reading is closed with 1008.
    async with websockets.connect(ws_url, max_queue=1) as raw:
        await raw.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_subscribe", "params": ["bogus"]}))
        answer = json.loads(await raw.recv())
        check("unknown subscription is -32602", answer.get("error", {}).get("code") == -32602, answer)
        await raw.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "eth_subscribe", "params": ["newHeads"]}))
        await raw.recv()
        # 20,000 blocks while this client reads nothing: more than the 10,000 messages the node queues.
        loop = asyncio.get_running_loop()
        for _ in range(2):
            await loop.run_in_executor(None, http, url, "anvil_mine", [10_000])
        code = reason = None
        try:
            while True:
                await asyncio.wait_for(raw.recv(), 30)
        except websockets.ConnectionClosed as closed:
            code, reason = closed.rcvd.code if closed.rcvd else None, closed.rcvd.reason if closed.rcvd else ""
        except asyncio.TimeoutError:
            pass
        check("a slow subscriber is closed with 1008", code == 1008 and "too slow" in (reason or ""), f"{code} {reason}")
    # The node still answers.
    check("the node answers after the slow subscriber", "result" in http(url, "eth_blockNumber", []))


def main():
    request = json.load(sys.stdin)
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)[-1500:]})

    try:
        asyncio.run(scenario(request["url"], check))
    except Exception:
        check("scenario ran to the end", False, traceback.format_exc())
    print(json.dumps({"checks": checks}))


if __name__ == "__main__":
    main()
