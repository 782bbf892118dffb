#!/usr/bin/env python3
"""web3.py (AsyncWeb3 + WebSocketProvider, a real client) watches CarChain rentals on a running `carchain node`.

Input (stdin, JSON): {"url": "http://127.0.0.1:PORT", "contract": "0x…", "artifact": "contracts/CarChain.json",
                      "rentals": "50"}
Output (stdout, JSON): {"checks": [{"name": "...", "ok": true|false, "detail": "..."}]}

Scenario: N users with credit and N cars are registered first (not watched). Then one connection subscribes to
newHeads and to the contract's logs, and N rentals are sent one after another (each mined in its own block).
Exactly N heads and N log notifications must arrive — no more, no fewer — in chain order: the heads are the N
consecutive blocks (hashes equal to eth_getBlockByNumber's), and each log, decoded by web3.py's contract ABI,
is the CarRented(plate, userId) of the rental sent in that block, with its transaction hash.
"""
import asyncio
import json
import sys
import traceback

from web3 import AsyncWeb3, WebSocketProvider


async def collect(w3, heads_id, logs_id, want, timeout):
    """Reads notifications until `want` of each kind arrived, then up to 1.5 s more for any extra."""
    heads, logs, other = [], [], []

    async def read():
        async for message in w3.socket.process_subscriptions():
            kind = message["subscription"]
            (heads if kind == heads_id else logs if kind == logs_id else other).append(message["result"])
            if len(heads) >= want and len(logs) >= want:
                return

    await asyncio.wait_for(read(), timeout)
    try:
        await asyncio.wait_for(read(), 1.5)  # anything beyond `want` is a failure
    except asyncio.TimeoutError:
        pass
    return heads, logs, other


async def scenario(request, check):
    n = int(request.get("rentals", "50"))
    ws_url = request["url"].replace("http://", "ws://", 1)
    with open(request["artifact"]) as f:
        abi = json.load(f)["abi"]
    async with AsyncWeb3(WebSocketProvider(ws_url)) as w3:
        manager = (await w3.eth.accounts)[0]
        carchain = w3.eth.contract(address=AsyncWeb3.to_checksum_address(request["contract"]), abi=abi)
        check("the manager is dev account 0", await carchain.functions.manager().call() == manager)

        async def send(call):
            tx = await call.transact({"from": manager})
            receipt = await w3.eth.wait_for_transaction_receipt(tx, timeout=60)
            if receipt["status"] != 1:
                raise RuntimeError(f"transaction {tx.to_0x_hex()} reverted")
            return tx, receipt

        users = [f"user{i:03d}" for i in range(n)]
        plates = [f"{1000 + i:04d}WSR" for i in range(n)]
        for user, plate in zip(users, plates):
            await send(carchain.functions.registerNewUser(user))
            await send(carchain.functions.addCredit(user, 1))
            await send(carchain.functions.registerNewCar(plate))

        heads_id = await w3.eth.subscribe("newHeads")
        logs_id = await w3.eth.subscribe("logs", {"address": carchain.address})
        sent = []
        for user, plate in zip(users, plates):
            tx, receipt = await send(carchain.functions.rentCar(plate, user))
            sent.append((tx, receipt["blockNumber"], plate, user))
        heads, logs, other = await collect(w3, heads_id, logs_id, n, timeout=120)

        check(f"exactly {n} heads arrive", len(heads) == n, len(heads))
        check(f"exactly {n} CarChain logs arrive", len(logs) == n, len(logs))
        check("no notification for another subscription", not other, other[:2])
        numbers = [h["number"] for h in heads]
        check("the heads are the rental blocks, in order", numbers == [s[1] for s in sent], numbers[:5])
        mismatched = []
        for head in heads[:n]:
            block = await w3.eth.get_block(head["number"])
            if block["hash"] != head["hash"] or block["parentHash"] != head["parentHash"]:
                mismatched.append(head["number"])
        check("each head is eth_getBlockByNumber's header", not mismatched, mismatched[:5])

        event = carchain.events.CarRented()
        wrong = []
        for log, (tx, block, plate, user) in zip(logs, sent):
            decoded = event.process_log(log)
            if (decoded["args"]["plate"], decoded["args"]["userId"]) != (plate, user) or log["transactionHash"] != tx \
                    or log["blockNumber"] != block or log["address"] != carchain.address or log["removed"]:
                wrong.append((log["blockNumber"], decoded["args"]))
        check("each log is the CarRented of its rental, in order", not wrong, wrong[:3])
        check("every car is rented", await carchain.functions.rentedCars().call() == n)


def main():
    request = json.load(sys.stdin)
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)[-1500:]})

    try:
        asyncio.run(scenario(request, check))
    except Exception:
        check("scenario ran to the end", False, traceback.format_exc())
    print(json.dumps({"checks": checks}))


if __name__ == "__main__":
    main()
