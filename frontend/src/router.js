// Hash routes: every page and every selected record has a URL, so back and forward,
// reload and a pasted link all land on the same place. A route is
// `#/<page>/<arg>/<arg>?<params>`, e.g. `#/memories/<id>?q=tea` or `#/palace/W-001/R-01`.

export const PAGES = ["memories", "runs", "review", "graph", "palace", "settings"];

function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a hand-typed "%" stays as typed rather than breaking the page
  }
}

/** The route in `hash`: `{page, args, params}`; an unknown page is the memories list. */
export function parse(hash = window.location.hash) {
  const raw = hash.replace(/^#\/?/, "");
  const cut = raw.indexOf("?");
  const path = cut < 0 ? raw : raw.slice(0, cut);
  const search = cut < 0 ? "" : raw.slice(cut + 1);
  const parts = path.split("/").filter(Boolean).map(decode);
  const known = PAGES.includes(parts[0]);
  return {
    page: known ? parts[0] : "memories",
    args: known ? parts.slice(1) : [],
    params: Object.fromEntries(new URLSearchParams(search)),
  };
}

/** The hash of a route; empty params are left out so URLs stay short. */
export function href(page, args = [], params = {}) {
  const path = [page, ...args].map((p) => encodeURIComponent(p)).join("/");
  const kept = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "");
  const search = new URLSearchParams(kept).toString();
  return `#/${path}${search ? `?${search}` : ""}`;
}

let listener = () => {};

/** Go to a route: a new history entry, or with `replace` the current one rewritten. */
export function go(page, args = [], params = {}, { replace = false } = {}) {
  const target = href(page, args, params);
  if (target === window.location.hash) return listener(parse(target));
  if (replace) {
    window.history.replaceState(null, "", target);
    return listener(parse(target));
  }
  window.location.hash = target; // the hashchange event renders it
  return undefined;
}

/** Call `render(route)` on every change of the hash (links, back, forward, `go`). */
export function onRoute(render) {
  listener = render;
  window.addEventListener("hashchange", () => render(parse()));
}
