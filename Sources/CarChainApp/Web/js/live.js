// Live updates and the connection's state. On a dev node the page subscribes to new blocks over the node's WebSocket
// (eth_subscribe "newHeads" on the same port); without it — a WebSocket that drops, or a real network, where the app's
// own server is all the page talks to — it polls the head (JSON-RPC eth_blockNumber on the node, GET /app/api/v1/head
// on the app server). Whether the node answers is reported as it changes (`onConnection("online" | "offline", why)`),
// so a stopped node shows at once, and its return too, without the person doing anything.

/** Calls `onBlock(number)` whenever the chain head changes and `onConnection(state, why)` when the node stops or comes
 * back; returns a function that stops. */
export function watchHeads(onBlock, { pollMs = 1000, socket: useSocket = true, onConnection = () => {} } = {}) {
  let socket = null;
  let timer = null;
  let retry = null;
  let stopped = false;
  let last = null;
  let state = null;
  let failures = 0;

  const connection = (next, why = "") => {
    if (stopped || next === state) return;
    state = next;
    onConnection(next, why);
  };

  const seen = (number) => {
    failures = 0;
    connection("online");
    if (number === last) return;
    last = number;
    onBlock(number);
  };

  const head = async () => {
    if (!useSocket) {
      const response = await fetch("/app/api/v1/head", { signal: AbortSignal.timeout(Math.max(pollMs * 4, 4000)) });
      const json = await response.json().catch(() => null);
      if (!response.ok) throw new Error(json?.error?.message ?? `HTTP ${response.status}`);
      return Number(json.block);
    }
    const response = await fetch("/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      signal: AbortSignal.timeout(Math.max(pollMs * 4, 4000)),
    });
    const json = await response.json();
    if (!json.result) throw new Error(json.error?.message ?? "no block number");
    return parseInt(json.result, 16);
  };

  const tick = async () => {
    try {
      seen(await head());
    } catch (error) {
      // Two misses in a row: a single slow answer is not an outage.
      failures += 1;
      if (failures >= 2) connection("offline", error.name === "TimeoutError" ? "no answer in time" : error.message);
    }
  };

  const poll = () => {
    if (timer || stopped) return;
    tick();
    timer = setInterval(tick, pollMs);
  };

  const connect = () => {
    if (stopped) return;
    try {
      socket = new WebSocket(`ws://${location.host}/`);
    } catch {
      poll();
      return;
    }
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
      clearInterval(timer);
      timer = null;
      // The block the socket's first head would only bring with the next block.
      tick();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      const block = message.params?.result;
      if (message.method === "eth_subscription" && block?.number) seen(parseInt(block.number, 16));
    });
    socket.addEventListener("close", () => {
      socket = null;
      if (stopped) return;
      // Poll while the socket is away (which also tells whether the node is); try the socket again a little later.
      poll();
      clearTimeout(retry);
      retry = setTimeout(() => {
        if (!stopped && !socket) connect();
      }, 3000);
    });
  };

  if (useSocket && typeof WebSocket === "function") connect();
  else poll();
  return () => {
    stopped = true;
    socket?.close();
    clearInterval(timer);
    clearTimeout(retry);
  };
}
