// Per-browser settings (sent with each call) and the server's read-only recall settings.
import { api } from "./api.js";
import { $, failed, h, loading, say } from "./dom.js";

const STORE = "engram.settings";
const DEFAULTS = { topK: 10, graphLimit: 600, pageSize: 50 }; // seed 000: 600 graph nodes

function stored() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}");
  } catch {
    return {}; // a hand-edited value: fall back to the defaults instead of a blank page
  }
}

export const prefs = { ...DEFAULTS, ...stored() };

/** The server's limits (``mem.browse.settings()["limits"]``): ids one prune takes. */
export const limits = {}; // filled at sign-in

export async function loadLimits() {
  const s = await api("/v1/dashboard/settings", { scope: "none" });
  Object.assign(limits, s.limits || {});
  return s;
}

function clamp(value, low, high, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(high, Math.max(low, n)) : fallback;
}

export function initSettings() {
  $("#settings-form").addEventListener("submit", (event) => {
    event.preventDefault();
    prefs.topK = clamp($("#set-topk").value, 1, 1000, DEFAULTS.topK);
    prefs.graphLimit = clamp($("#set-graph-limit").value, 1, 5000, DEFAULTS.graphLimit);
    prefs.pageSize = clamp($("#set-page-size").value, 1, 1000, DEFAULTS.pageSize);
    localStorage.setItem(STORE, JSON.stringify(prefs));
    showPrefs();
    say("Settings saved in this browser.");
  });
  showPrefs();
}

function showPrefs() {
  $("#set-topk").value = prefs.topK;
  $("#set-graph-limit").value = prefs.graphLimit;
  $("#set-page-size").value = prefs.pageSize;
}

export async function loadSettings() {
  const table = $("#server-settings");
  loading(table);
  let s;
  try {
    s = await loadLimits();
  } catch (error) {
    failed(table, error, loadSettings);
    return;
  }
  const rows = [
    ["Recall top-k (server default, [recall] limit)", s.recall.limit],
    ["Recall strategy", s.recall.strategy],
    ["Rerank ([recall] rerank)", s.recall.rerank === "none" ? "off" : `${s.recall.rerank} (top ${s.recall.rerank_top_n})`],
    ["Rerank model", s.recall.rerank_model || "—"],
    ["Embedding model", s.embedder.name ? `${s.embedder.name}${s.embedder.dimension ? ` (${s.embedder.dimension}-dim)` : ""}` : `none (${s.embedder.configured}): keyword recall only`],
    ["Auto-mine ([pipeline] enabled)", s.auto_mine ? "on" : "off"],
  ];
  table.removeAttribute("aria-busy");
  table.replaceChildren(
    ...rows.map(([name, value]) => h("tr", {}, h("th", {}, name), h("td", {}, String(value)))),
  );
}
