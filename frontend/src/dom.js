// Small DOM helpers: build elements without innerHTML, so stored text is never markup;
// the loading, empty and error states every page shows; errors at the action.

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** `h("li#id.row", {dataset: {id}}, "text", child)`: an element with props and children. */
export function h(tag, props = {}, ...children) {
  const [head, ...classes] = tag.split(".");
  const [name, id] = head.split("#");
  const el = document.createElement(name);
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key in el && key !== "list") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

let statusTimer;
/** A passing message in the status line (success notes; errors go to the action). */
export function say(message, { error = false } = {}) {
  const status = $("#status");
  status.textContent = message;
  status.classList.toggle("error", error);
  clearTimeout(statusTimer);
  if (!error && message) statusTimer = setTimeout(() => (status.textContent = ""), 4000);
}

/** An error shown right after `where` (the toolbar or control that acted); the next
 * click, submit or change anywhere clears it (see `clearErrorsOnNextAction`). */
export function fail(where, error) {
  const text = error && error.message ? error.message : String(error);
  const next = where.nextElementSibling;
  const box = next && next.classList.contains("action-error") ? next : h("p.action-error", { role: "alert" });
  box.textContent = text;
  if (box !== next) where.after(box);
  return box;
}

export function clearErrorsOnNextAction() {
  const clear = () => {
    for (const box of $$(".action-error")) box.remove();
    const status = $("#status");
    if (status.classList.contains("error")) say("");
  };
  // Capture: cleared before the new action runs, so that action's own error stays.
  for (const type of ["click", "submit", "change"]) document.addEventListener(type, clear, true);
}

function stateNode(el, kind, children) {
  const props = kind === "error" ? { role: "alert" } : {};
  if (el.tagName === "TABLE") return h("tr", {}, h(`td.state.${kind}`, { ...props, colSpan: 2 }, ...children));
  const tag = el.tagName === "UL" || el.tagName === "OL" ? "li" : "div";
  return h(`${tag}.state.${kind}`, props, ...children);
}

/** The loading state of a list or pane. */
export function loading(el, text = "Loading…") {
  el.setAttribute("aria-busy", "true");
  el.replaceChildren(stateNode(el, "loading", [h("span.spinner", { "aria-hidden": "true" }), text]));
}

/** The empty state: what is missing and how to fill it. */
export function empty(el, ...children) {
  el.removeAttribute("aria-busy");
  el.replaceChildren(stateNode(el, "empty", children));
}

/** The error state of a pane that could not load, with a retry. */
export function failed(el, error, retry) {
  el.removeAttribute("aria-busy");
  const text = error && error.message ? error.message : String(error);
  el.replaceChildren(
    stateNode(el, "error", [
      `Could not load: ${text}`,
      retry ? h("button.retry", { type: "button", onclick: retry }, "Retry") : null,
    ]),
  );
}

/** Replace a loading pane's content with what loaded. */
export function done(el, ...children) {
  el.removeAttribute("aria-busy");
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** Fill a list or pane with its items (or the empty state when there are none). */
export function filled(el, items, ...whenEmpty) {
  el.removeAttribute("aria-busy");
  if (!items.length) return empty(el, ...whenEmpty);
  el.replaceChildren(...items);
  return undefined;
}

/** A list's pager in `el`: ← Prev, the page's place, Next → (each with its own id). */
export function pager(el, { prev, info, next }) {
  el.replaceChildren(
    h(`button#${prev}`, { type: "button" }, "← Prev"),
    h(`span#${info}`),
    h(`button#${next}`, { type: "button" }, "Next →"),
  );
}

/** Long text clamped to a few lines with "Show more", so the actions after it stay in
 * view (a 20,000-character memory would otherwise push them thousands of pixels down). */
export function clamped(text, { limit = 900, tag = "p.content" } = {}) {
  const body = h(tag, {}, text);
  if (String(text || "").length <= limit) return body;
  body.classList.add("clamped");
  const toggle = h("button.more", { type: "button", "aria-expanded": "false" }, "Show more");
  toggle.addEventListener("click", () => {
    const open = body.classList.toggle("clamped") === false;
    toggle.textContent = open ? "Show less" : "Show more";
    toggle.setAttribute("aria-expanded", String(open));
  });
  return h("div.clamp", {}, body, toggle);
}

export function qualityClass(quality) {
  if (quality > 0) return "q-pos";
  if (quality < 0) return "q-neg";
  return "q-neutral";
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export function short(text, length = 140) {
  const flat = String(text || "").replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** A stored timestamp as the reader's local date and time (the ISO value in a title). */
export function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const el = h("time", { dateTime: iso, title: iso }, date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));
  return el;
}

/** A link inside the dashboard. */
export function link(hash, ...children) {
  return h("a", { href: hash }, ...children);
}
