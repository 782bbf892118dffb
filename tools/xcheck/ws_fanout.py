#!/usr/bin/env python3
"""Many WebSocket subscribers (the `websockets` library, a real client) on a running `carchain node`, and one that
never reads: the node keeps serving the readers every head, drops the stalled one, and its memory stays bounded.

Input (stdin, JSON): {"url": "http://127.0.0.1:PORT", "pid": "1234", "subscribers": "100", "blocks": "500"}
Output (stdout, JSON): {"checks": [...], "figures": {...}}

Scenario: `subscribers` connections each subscribe to newHeads; one more connection subscribes to newHeads 200
times and then never reads (so each block queues 200 messages for it: the node's per-connection queue of 10,000
messages overflows after about 50 blocks instead of 10,000). `blocks` blocks are mined with anvil_mine in batches
while the readers read. Then: every reader got every head exactly once, in order; the stalled connection was closed
with 1008 and a reason; and the node's resident memory (VmRSS in /proc/PID/status) grew by less than 256 MiB over
the whole run and by less than 64 MiB over a second round of `blocks` blocks mined after the stalled one was
dropped (a node that kept queueing for it would grow without end).
"""
import asyncio
import json
import re
import sys
import traceback
import urllib.request

import websockets

NUMBER = re.compile(r'"number":"(0x[0-9a-f]+)"')
STALLED_SUBSCRIPTIONS = 200


def http(url, method, params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def subscribe(ws, request_id):
    await ws.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "eth_subscribe", "params": ["newHeads"]}))
    while True:
        answer = json.loads(await ws.recv())
        if answer.get("id") == request_id:
            return answer["result"]


async def reader(url, ready, numbers):
    """Subscribes, then records each head's number until the connection closes."""
    async with websockets.connect(url, max_size=None, ping_interval=None) as ws:
        await subscribe(ws, 1)
        ready.set()
        try:
            async for message in ws:
                match = NUMBER.search(message)
                numbers.append(int(match.group(1), 16) if match else -1)
        except websockets.ConnectionClosed:
            pass


async def scenario(request, check, figures):
    url = request["url"]
    ws_url = url.replace("http://", "ws://", 1)
    pid = int(request["pid"])
    n = int(request.get("subscribers", "100"))
    blocks = int(request.get("blocks", "500"))
    loop = asyncio.get_running_loop()

    async def mine(count):
        for _ in range(count // 50):
            await loop.run_in_executor(None, http, url, "anvil_mine", [50])
            await asyncio.sleep(0.02)

    rss_start = rss_kib(pid)
    readies = [asyncio.Event() for _ in range(n)]
    received = [[] for _ in range(n)]
    tasks = [asyncio.create_task(reader(ws_url, readies[i], received[i])) for i in range(n)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)

    stalled = await websockets.connect(ws_url, max_queue=1, ping_interval=None)
    for i in range(STALLED_SUBSCRIPTIONS):
        await subscribe(stalled, 100 + i)
    first = int(http(url, "eth_blockNumber", [])["result"], 16) + 1

    await mine(blocks)
    code = reason = None
    try:
        while True:  # drain what the kernel buffered, until the close frame
            await asyncio.wait_for(stalled.recv(), 60)
    except websockets.ConnectionClosed as closed:
        code, reason = (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (None, "")
    except asyncio.TimeoutError:
        pass
    check("the stalled subscriber is closed with 1008", code == 1008 and "too slow" in (reason or ""), f"{code} {reason}")
    rss_after_drop = rss_kib(pid)

    await mine(blocks)
    last = int(http(url, "eth_blockNumber", [])["result"], 16)
    expected = list(range(first, last + 1))

    async def all_received():
        while any(len(r) < len(expected) for r in received):
            await asyncio.sleep(0.1)
    try:
        await asyncio.wait_for(all_received(), 120)
    except asyncio.TimeoutError:
        pass
    await asyncio.sleep(0.5)  # any extra would show now
    rss_end = rss_kib(pid)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    short = [i for i, r in enumerate(received) if r != expected]
    check(f"all {n} subscribers got every one of the {len(expected)} heads, once, in order", not short,
          f"{len(short)} differ; e.g. #{short[0]}: {len(received[short[0]])} heads, first {received[short[0]][:3]}" if short else "")
    figures.update({"subscribers": n, "heads": len(expected), "rssStartKiB": rss_start, "rssAfterDropKiB": rss_after_drop,
                    "rssEndKiB": rss_end})
    check("node RSS grew by less than 256 MiB over the run", rss_end - rss_start < 256 * 1024,
          f"{rss_start} -> {rss_after_drop} -> {rss_end} KiB")
    check("node RSS grew by less than 64 MiB after the stalled subscriber was dropped",
          rss_end - rss_after_drop < 64 * 1024, f"{rss_after_drop} -> {rss_end} KiB")
    check("the node answers afterwards", "result" in http(url, "eth_blockNumber", []))


def main():
    request = json.load(sys.stdin)
    checks, figures = [], {}

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)[-1500:]})

    try:
        asyncio.run(scenario(request, check, figures))
    except Exception:
        check("scenario ran to the end", False, traceback.format_exc())
    print(json.dumps({"checks": checks, "figures": figures}))


if __name__ == "__main__":
    main()
