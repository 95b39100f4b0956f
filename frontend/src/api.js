// The one door to engram's HTTP API: every call carries the session's key and the
// chosen namespace, and an error body ({error, detail}) becomes an ApiError. A 401 (a
// revoked or unknown key) also fires "engram:unauthorized", which returns to the key
// prompt with the server's reason wherever the call was made.

const KEY = "engram.key";

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

export const session = {
  get key() {
    return sessionStorage.getItem(KEY);
  },
  set key(value) {
    if (value) sessionStorage.setItem(KEY, value);
    else sessionStorage.removeItem(KEY);
  },
  namespace: null,
};

/**
 * Call `path` with the key; `query` goes in the URL, `body` as JSON. `scope` says where
 * the chosen namespace goes: "query" (routes on one record), "body" (collection POSTs
 * whose JSON names the namespace) or "none".
 */
export async function api(path, { method = "GET", query = {}, body, scope = "query" } = {}) {
  // Relative to the page, not to the host's root: behind a reverse proxy that serves
  // engram under a path (https://tools.example.com/engram/), "/v1/..." would leave it.
  const url = new URL(path.replace(/^\//, ""), document.baseURI);
  const ns = session.namespace;
  const params = scope === "query" && ns ? { namespace: ns, ...query } : query;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    url.searchParams.set(name, String(value));
  }
  const headers = { Authorization: `Bearer ${session.key || ""}` };
  let payload;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(scope === "body" && ns ? { namespace: ns, ...body } : body);
  }
  const response = await fetch(url, { method, headers, body: payload });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page: say what came back instead of a JSON parse error.
    throw new ApiError(response.status, "bad_response", `HTTP ${response.status} from ${url.pathname}: not JSON`);
  }
  if (!response.ok) {
    const detail = data && (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail));
    const error = new ApiError(response.status, data && data.error, detail);
    if (response.status === 401) window.dispatchEvent(new CustomEvent("engram:unauthorized", { detail: error.message }));
    throw error;
  }
  return data;
}

/** Like `api`, but a 404 (a route or record that is not there) is `null`. */
export async function optional(path, options) {
  try {
    return await api(path, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
