// Live updates: the page subscribes to new blocks over the node's WebSocket (eth_subscribe "newHeads" on the same
// port) and calls `onBlock` for each; without a WebSocket (or when it drops) it polls the head instead.

/** Calls `onBlock(number)` whenever the chain head changes; returns a function that stops. */
export function watchHeads(onBlock, { pollMs = 1000 } = {}) {
  let socket = null;
  let timer = null;
  let stopped = false;
  let last = null;

  const seen = (number) => {
    if (number === last) return;
    last = number;
    onBlock(number);
  };

  const poll = () => {
    if (timer || stopped) return;
    timer = setInterval(async () => {
      try {
        const response = await fetch("/", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
        });
        const json = await response.json();
        if (json.result) seen(parseInt(json.result, 16));
      } catch {
        // The node is down; the next tick tries again.
      }
    }, pollMs);
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
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      const head = message.params?.result;
      if (message.method === "eth_subscription" && head?.number) seen(parseInt(head.number, 16));
    });
    socket.addEventListener("close", () => {
      socket = null;
      if (stopped) return;
      // Poll while the socket is away; try the socket again a little later.
      poll();
      setTimeout(() => {
        if (!stopped && !socket) {
          clearInterval(timer);
          timer = null;
          connect();
        }
      }, 5000);
    });
  };

  if (typeof WebSocket === "function") connect();
  else poll();
  return () => {
    stopped = true;
    socket?.close();
    clearInterval(timer);
  };
}
