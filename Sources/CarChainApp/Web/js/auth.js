// Firebase Authentication over its REST API, called exactly as the Firebase JS SDK calls it: JSON POSTs to
// /identitytoolkit.googleapis.com/v1/accounts:<operation>?key=<apiKey> and the form-encoded Secure Token refresh at
// /securetoken.googleapis.com/v1/token — on the node's own origin (the auth emulator's paths), on another emulator, or
// on Google's hosts (real Firebase), as the app's configuration says. The session (tokens only) is kept in
// localStorage, as the SDK's browserLocalPersistence keeps it.

const STORAGE_KEY = "carchain.session";
const HEADERS = { "Content-Type": "application/json", "X-Client-Version": "Chrome/JsCore/10.12.0/FirebaseCore-web" };

/** An error of the auth service: `code` is Firebase's (EMAIL_EXISTS, INVALID_LOGIN_CREDENTIALS, …). */
export class AuthError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** What people read for Firebase's codes. */
const MESSAGES = {
  EMAIL_EXISTS: "An account with this email already exists: sign in instead.",
  INVALID_LOGIN_CREDENTIALS: "Wrong email or password.",
  EMAIL_NOT_FOUND: "No account has this email.",
  INVALID_PASSWORD: "Wrong email or password.",
  INVALID_EMAIL: "That is not an email address.",
  WEAK_PASSWORD: "The password must have at least 6 characters.",
  MISSING_PASSWORD: "Type a password.",
  MISSING_EMAIL: "Type your email.",
  TOO_MANY_ATTEMPTS_TRY_LATER: "Too many attempts: wait a few minutes and try again.",
  USER_DISABLED: "This account is disabled.",
  INVALID_OOB_CODE: "The reset code is wrong or was used already.",
  EXPIRED_OOB_CODE: "The reset code has expired: ask for a new one.",
  TOKEN_EXPIRED: "Your session has ended: sign in again.",
  INVALID_REFRESH_TOKEN: "Your session has ended: sign in again.",
  USER_NOT_FOUND: "This account no longer exists.",
};

/** Where the auth service is: the page's own origin (the node's emulator routes), another emulator, or real Firebase.
 * The server's configuration says (GET /app/api/v1/config `auth`): the page names no origin itself. */
const service = { identity: "/identitytoolkit.googleapis.com", token: "/securetoken.googleapis.com", apiKey: "carchain-web" };

export function configure({ identity, token, apiKey } = {}) {
  Object.assign(service, { identity: identity ?? service.identity, token: token ?? service.token, apiKey: apiKey ?? service.apiKey });
}

/** The URL of an emulator-style path (`/identitytoolkit.googleapis.com/v1/accounts:signUp`). */
function endpoint(path) {
  for (const [prefix, base] of [["/identitytoolkit.googleapis.com", service.identity], ["/securetoken.googleapis.com", service.token]]) {
    if (path.startsWith(prefix + "/")) return base + path.slice(prefix.length);
  }
  throw new Error(`not an auth endpoint: ${path}`);
}

async function post(path, body, { form = false } = {}) {
  let response;
  try {
    response = await fetch(`${endpoint(path)}?key=${encodeURIComponent(service.apiKey)}`, {
      signal: AbortSignal.timeout(30000),
      method: "POST",
      headers: form ? { "Content-Type": "application/x-www-form-urlencoded" } : HEADERS,
      body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    });
  } catch (error) {
    throw new AuthError("NETWORK", `The sign-in service is unreachable (${error.name === "TimeoutError" ? "no answer in time" : error.message}).`);
  }
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const text = json?.error?.message ?? `HTTP ${response.status}`;
    const code = text.split(" : ")[0].split(":")[0].trim();
    throw new AuthError(code, MESSAGES[code] ?? text);
  }
  return json;
}

const identity = (operation, body) => post(`/identitytoolkit.googleapis.com/v1/accounts:${operation}`, body);

function sessionFrom(json, email) {
  return {
    uid: json.localId ?? json.user_id,
    email: json.email ?? email,
    displayName: json.displayName ?? "",
    idToken: json.idToken ?? json.id_token,
    refreshToken: json.refreshToken ?? json.refresh_token,
    expiresAt: Date.now() + Number(json.expiresIn ?? json.expires_in ?? 3600) * 1000,
  };
}

/** The signed-in user's tokens, persisted between visits. */
export const session = {
  current: null,

  load() {
    try {
      this.current = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    } catch {
      this.current = null;
    }
    return this.current;
  },

  save(value) {
    this.current = value;
    if (value) localStorage.setItem(STORAGE_KEY, JSON.stringify(value));
    else localStorage.removeItem(STORAGE_KEY);
  },
};

/** createUserWithEmailAndPassword. */
export async function signUp(email, password) {
  const json = await identity("signUp", { email, password, returnSecureToken: true, clientType: "CLIENT_TYPE_WEB" });
  session.save(sessionFrom(json, email));
  return session.current;
}

/** updateProfile({displayName}): the name shown in the page (kept in the session too). */
export async function setDisplayName(displayName) {
  const json = await identity("update", { idToken: await idToken(), displayName, returnSecureToken: true });
  const current = session.current;
  const next = json.idToken && json.refreshToken ? { ...sessionFrom(json, current.email), uid: current.uid } : { ...current };
  next.displayName = json.displayName ?? displayName;
  session.save(next);
}

/** signInWithEmailAndPassword. */
export async function signIn(email, password) {
  const json = await identity("signInWithPassword", { email, password, returnSecureToken: true, clientType: "CLIENT_TYPE_WEB" });
  session.save(sessionFrom(json, email));
  return session.current;
}

/** user.reload(): the account the ID token belongs to. */
export async function lookup() {
  const json = await identity("lookup", { idToken: await idToken() });
  return json.users?.[0];
}

/** sendPasswordResetEmail. */
export async function sendPasswordReset(email) {
  await identity("sendOobCode", { requestType: "PASSWORD_RESET", email, clientType: "CLIENT_TYPE_WEB" });
}

/** confirmPasswordReset. */
export async function resetPassword(oobCode, newPassword) {
  return identity("resetPassword", { oobCode, newPassword });
}

/** signOut: forgets the tokens here and ends the session's refresh token on the service. */
export async function signOut() {
  const current = session.current;
  session.save(null);
  if (!current) return;
  try {
    await identity("revokeToken", { providerId: "password", tokenType: "REFRESH_TOKEN", token: current.refreshToken, idToken: current.idToken });
  } catch {
    // Signed out here either way; an expired session has nothing left to revoke.
  }
}

/** getIdToken(): the ID token, refreshed (refresh tokens rotate) when it expires within five minutes. */
export async function idToken({ force = false } = {}) {
  const current = session.current;
  if (!current) throw new AuthError("SIGNED_OUT", "Sign in first.");
  if (!force && current.expiresAt - Date.now() > 5 * 60 * 1000) return current.idToken;
  try {
    const json = await post("/securetoken.googleapis.com/v1/token", { grant_type: "refresh_token", refresh_token: current.refreshToken }, { form: true });
    session.save({ ...sessionFrom(json, current.email), email: current.email, displayName: current.displayName ?? "" });
  } catch (error) {
    if (error.code !== "NETWORK") session.save(null);
    throw error;
  }
  return session.current.idToken;
}
