// The app API (/app/api/v1, docs/APP.md): every request carries the Firebase ID token; errors come back as
// {"error": {"code", "message"}} with a message written for people, which the page shows as it is.

import { AuthError, idToken } from "./auth.js";

const BASE = "/app/api/v1";

/** An error the API answered (or the network's): `code` is the API's (CAR_TAKEN, WRONG_PASSPHRASE, …). */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Reads get an answer within this long, writes (a keystore unlock, a mined transaction) within the longer one. */
const READ_TIMEOUT_MS = 30000;
const WRITE_TIMEOUT_MS = 180000;

async function request(method, path, { body, query, auth = true } = {}) {
  const headers = {};
  if (auth) headers.Authorization = `Bearer ${await idToken()}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const url = BASE + path + (query ? `?${new URLSearchParams(query)}` : "");
  let response;
  try {
    response = await fetch(url, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(method === "GET" ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS),
    });
  } catch (error) {
    const why = error.name === "TimeoutError" ? "no answer in time" : error.message;
    throw new ApiError("NODE_UNREACHABLE", `The server is unreachable (${why}): is carchain still running?`, 0);
  }
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const error = json?.error;
    throw new ApiError(error?.code ?? `HTTP_${response.status}`, error?.message ?? `The server answered HTTP ${response.status}.`, response.status);
  }
  return json;
}

export const api = {
  config: () => request("GET", "/config", { auth: false }),
  head: () => request("GET", "/head", { auth: false }),
  me: () => request("GET", "/me"),
  history: () => request("GET", "/me/history"),
  cars: (query) => request("GET", "/cars", { query }),
  availability: () => request("GET", "/availability"),
  stats: () => request("GET", "/stats"),
  users: () => request("GET", "/users"),
  quote: (query) => request("GET", "/quote", { query }),
  transaction: (hash) => request("GET", `/transactions/${hash}`),
  setUpAccount: (body) => request("POST", "/account", { body }),
  rent: (body) => request("POST", "/rent", { body }),
  returnCar: (body) => request("POST", "/return", { body }),
  buyCredit: (body) => request("POST", "/credit", { body }),
  registerCar: (body) => request("POST", "/cars", { body }),
  placeCar: (plate, body) => request("POST", `/cars/${encodeURIComponent(plate)}/position`, { body }),
  prepare: (body) => request("POST", "/prepare", { body }),
  relay: (body) => request("POST", "/transactions", { body }),
};

/** Whether an error means the session is gone (sign in again). */
export function isSignedOut(error) {
  return (error instanceof AuthError && ["SIGNED_OUT", "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN", "USER_NOT_FOUND"].includes(error.code))
    || (error instanceof ApiError && ["UNAUTHENTICATED", "INVALID_TOKEN", "TOKEN_EXPIRED"].includes(error.code));
}
