// The memories page: a server-paged list filtered by type, quality, tag, run and date,
// recall search, and the selected memory's detail (detail.js). Its URL holds all of it:
// `#/memories?q=…&type=…&offset=…` and `#/memories/<id>?…` for a selected memory.
import { api } from "./api.js";
import { closeDetail, initDetail, openDetail } from "./detail.js";
import { $, failed, filled, h, loading, pager, qualityClass, signed, short } from "./dom.js";
import { go, parse } from "./router.js";
import { prefs } from "./settings.js";

/** Filter controls and the URL parameter each one sets. */
const FILTERS = {
  type: "#filter-type",
  quality: "#filter-quality",
  tag: "#filter-tag",
  run: "#filter-run",
  since: "#filter-since",
  until: "#filter-until",
};
// shown: the list on screen (its key); wanted: the list last asked for. A list that
// arrives after another was asked for (back, then forward, on a slow server) is dropped.
const state = { shown: null, wanted: null, total: 0 };

/** The list part of the current route's parameters (what a new list URL keeps). */
function listParams(params = parse().params) {
  const kept = {};
  for (const name of ["q", ...Object.keys(FILTERS), "offset"]) if (params[name]) kept[name] = params[name];
  return kept;
}

function goList(changes, args = []) {
  const params = { ...listParams(), ...changes };
  if (!("offset" in changes)) delete params.offset; // a new filter starts at the first page
  go("memories", args, params);
}

export function initMemories({ onChange }) {
  initDetail({
    onChange: (memory, { deleted = false } = {}) => {
      const shown = state.shown;
      onChange(); // the graph and the list are stale for everyone else...
      // ...but a thumb is already in this list's row; a deleted memory must leave it.
      if (!deleted) {
        refreshRow(memory);
        state.shown = shown;
      }
    },
    onClose: () => go("memories", [], listParams()),
  });
  pager($("#memories-pager"), { prev: "prev-page", info: "page-info", next: "next-page" });
  // A phone starts with the filters folded away, so the list is what it sees first.
  if (window.matchMedia("(max-width: 700px)").matches) $("#filters").open = false;
  $("#search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    goList({ q: $("#search").value.trim() });
  });
  $("#clear-search").addEventListener("click", () => goList({ q: "" }));
  for (const [name, selector] of Object.entries(FILTERS)) {
    $(selector).addEventListener("change", () => goList({ [name]: $(selector).value.trim() }));
  }
  $("#clear-filters").addEventListener("click", () => go("memories", [], listParams({ q: parse().params.q })));
  $("#prev-page").addEventListener("click", () => {
    const offset = Math.max(0, Number(parse().params.offset || 0) - prefs.pageSize);
    goList({ offset: offset || "" });
  });
  $("#next-page").addEventListener("click", () => {
    const offset = Number(parse().params.offset || 0) + prefs.pageSize;
    if (offset < state.total) goList({ offset });
  });
}

/** The store changed elsewhere (a prune, an approval): reload the list when next shown. */
export function forgetList() {
  state.shown = null;
}

export function resetMemories() {
  state.shown = null;
  state.wanted = null;
  $("#search").value = "";
  for (const selector of Object.values(FILTERS)) $(selector).value = "";
  $("#memory-list").replaceChildren();
  closeDetail();
}

/** Render `#/memories[/<id>]?…`: the list (unless it already shows these
 * parameters) and the detail of the memory the URL names, or none. */
export async function showMemories(route) {
  const params = listParams(route.params);
  $("#search").value = params.q || "";
  for (const [name, selector] of Object.entries(FILTERS)) $(selector).value = params[name] || "";
  const active = Object.keys(FILTERS).filter((name) => params[name]).length;
  $("#filter-count").hidden = !active;
  $("#filter-count").textContent = active ? `${active} on` : "";
  if (active) $("#filters").open = true;
  const key = JSON.stringify([params, prefs.pageSize, prefs.topK]);
  const id = route.args[0];
  $("#tab-memories .split").classList.toggle("has-detail", Boolean(id));
  const jobs = [];
  if (state.shown !== key || state.wanted !== key) jobs.push(loadList(params, key));
  jobs.push(id ? openDetail(id) : Promise.resolve(closeDetail()));
  await Promise.all(jobs);
}

async function loadList(params, key) {
  const list = $("#memory-list");
  state.wanted = key;
  loading(list);
  $("#page-info").textContent = "";
  const offset = Number(params.offset || 0);
  try {
    let items;
    if (params.q) {
      // Recall cannot filter by date, so these filters apply here; the list route refuses
      // a reversed range with this message, and a search must not show it as "no match".
      if (params.since && params.until && params.until < params.since) {
        throw new Error(`“To” (${params.until}) is before “From” (${params.since}): swap them, or clear one`);
      }
      const filters = {};
      if (params.type) filters.type = params.type;
      if (params.tag) filters.tags = [params.tag];
      if (params.run) filters.run_id = params.run;
      const body = { query: params.q, limit: prefs.topK };
      if (Object.keys(filters).length) body.filters = filters;
      const result = await api("/v1/search", { method: "POST", body, scope: "body" });
      if (state.wanted !== key) return;
      items = result.hits.map((hit) => ({ ...hit.memory, _score: hit.score })).filter((m) => kept(m, params));
      state.total = items.length;
      $("#page-info").textContent = result.abstained
        ? `No memory looked related (${result.abstain_reason || "abstained"})`
        : `${items.length} hit${items.length === 1 ? "" : "s"} for “${short(params.q, 80)}”`;
    } else {
      const query = { limit: prefs.pageSize, offset };
      for (const name of Object.keys(FILTERS)) query[name] = params[name];
      const page = await api("/v1/dashboard/memories", { query });
      if (state.wanted !== key) return;
      items = page.items;
      state.total = page.total;
      const last = Math.min(page.total, page.offset + items.length);
      $("#page-info").textContent = page.total ? `${page.offset + 1}–${last} of ${page.total}` : "No memories";
    }
    $("#prev-page").disabled = Boolean(params.q) || offset === 0;
    $("#next-page").disabled = Boolean(params.q) || offset + prefs.pageSize >= state.total;
    const anyFilter = params.q || Object.keys(FILTERS).some((name) => params[name]);
    filled(
      list,
      items.map((m) => row(m)),
      anyFilter
        ? "No memory matches these filters. Reset the filters or search for something else."
        : h("span", {}, "No memories yet. Add one with ", h("code", {}, 'engram add "…"'), ", POST /v1/memories, or mine a conversation with ", h("code", {}, "engram mine"), "."),
    );
    state.shown = key;
  } catch (error) {
    if (state.wanted !== key) return;
    state.shown = null;
    $("#prev-page").disabled = true;
    $("#next-page").disabled = true;
    failed(list, error, () => loadList(params, key));
  }
}

/** Filters recall cannot apply in the store: quality band and creation dates. */
function kept(memory, params) {
  if (params.quality && band(memory.quality) !== params.quality) return false;
  const day = String(memory.created_at || "").slice(0, 10);
  if (params.since && day < params.since) return false;
  if (params.until && day > params.until) return false;
  return true;
}

function band(quality) {
  if (quality > 0) return "positive";
  if (quality < 0) return "negative";
  return "neutral";
}

function row(memory) {
  const open = () => goList({ offset: parse().params.offset || "" }, [memory.id]);
  return h(
    "li.row",
    {
      dataset: { id: memory.id },
      tabIndex: 0,
      onclick: open,
      onkeydown: (event) => event.key === "Enter" && open(),
    },
    h("span.badge", {}, memory.type),
    h(`span.quality.${qualityClass(memory.quality)}`, { title: "quality" }, signed(memory.quality)),
    h("span.text", {}, memory.title || short(memory.content)),
    memory._score !== undefined ? h("span.score", {}, memory._score.toFixed(3)) : null,
  );
}

/** Replace a memory's row after it changed (a thumb). */
function refreshRow(memory) {
  const old = $(`#memory-list li[data-id="${CSS.escape(memory.id)}"]`);
  if (old) old.replaceWith(row(memory));
}
