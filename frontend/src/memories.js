// The memories tab: a server-paged list filtered by type and quality, recall search,
// and the detail pane with thumbs, delete and the run link.
import { api, optional, session } from "./api.js";
import { $, h, qualityClass, say, short } from "./dom.js";
import { prefs } from "./settings.js";

const state = { offset: 0, total: 0, query: "", selected: null };
const hooks = { changed: () => {} };

export function initMemories({ onChange }) {
  hooks.changed = onChange;
  $("#search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    state.query = $("#search").value.trim();
    state.offset = 0;
    loadMemories();
  });
  $("#clear-search").addEventListener("click", () => {
    $("#search").value = "";
    state.query = "";
    state.offset = 0;
    loadMemories();
  });
  for (const id of ["#filter-type", "#filter-quality"]) {
    $(id).addEventListener("change", () => {
      state.offset = 0;
      loadMemories();
    });
  }
  $("#prev-page").addEventListener("click", () => {
    state.offset = Math.max(0, state.offset - prefs.pageSize);
    loadMemories();
  });
  $("#next-page").addEventListener("click", () => {
    if (state.offset + prefs.pageSize < state.total) state.offset += prefs.pageSize;
    loadMemories();
  });
}

export function resetMemories() {
  state.offset = 0;
  state.query = "";
  $("#search").value = "";
  closeDetail();
}

export async function loadMemories() {
  const type = $("#filter-type").value;
  const quality = $("#filter-quality").value;
  const list = $("#memory-list");
  list.setAttribute("aria-busy", "true");
  try {
    let items;
    if (state.query) {
      const body = { query: state.query, limit: prefs.topK };
      if (type) body.filters = { type };
      const result = await api("/v1/search", { method: "POST", body, scope: "body" });
      items = result.hits.map((hit) => ({ ...hit.memory, _score: hit.score }));
      if (quality) items = items.filter((m) => band(m.quality) === quality);
      state.total = items.length;
      $("#page-info").textContent = result.abstained
        ? `No memory looked related (${result.abstain_reason || "abstained"})`
        : `${items.length} hit${items.length === 1 ? "" : "s"} for “${state.query}”`;
    } else {
      const page = await api("/v1/dashboard/memories", {
        query: { type, quality, limit: prefs.pageSize, offset: state.offset },
      });
      items = page.items;
      state.total = page.total;
      const last = Math.min(page.total, page.offset + items.length);
      $("#page-info").textContent = page.total
        ? `${page.offset + 1}–${last} of ${page.total}`
        : "No memories";
    }
    $("#prev-page").disabled = !!state.query || state.offset === 0;
    $("#next-page").disabled = !!state.query || state.offset + prefs.pageSize >= state.total;
    list.replaceChildren(...items.map(row));
  } catch (error) {
    say(error.message, { error: true });
  } finally {
    list.removeAttribute("aria-busy");
  }
}

function band(quality) {
  if (quality > 0) return "positive";
  if (quality < 0) return "negative";
  return "neutral";
}

function row(memory) {
  return h(
    "li.row",
    {
      dataset: { id: memory.id },
      tabIndex: 0,
      onclick: () => openDetail(memory.id),
      onkeydown: (event) => event.key === "Enter" && openDetail(memory.id),
    },
    h("span.badge", {}, memory.type),
    h(`span.quality.${qualityClass(memory.quality)}`, { title: "quality" }, signed(memory.quality)),
    h("span.text", {}, memory.title || short(memory.content)),
    memory._score !== undefined ? h("span.score", {}, memory._score.toFixed(3)) : null,
  );
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export function closeDetail() {
  state.selected = null;
  $("#detail").hidden = true;
  $("#detail").replaceChildren();
}

/** Show one memory in the detail pane (from the list, the graph or a pointer). */
export async function openDetail(id) {
  try {
    const memory = await api(`/v1/memories/${encodeURIComponent(id)}`);
    state.selected = memory;
    renderDetail(memory);
    const run = await runOf(memory);
    if (state.selected && state.selected.id === memory.id) $("#run-link").replaceChildren(run);
  } catch (error) {
    say(error.message, { error: true });
  }
}

async function runOf(memory) {
  let found = null;
  try {
    found = await optional(`/v1/memories/${encodeURIComponent(memory.id)}/run`);
  } catch (error) {
    if (!memory.run_id) return "";
    return h("span", {}, `run ${memory.run_id} (${error.message})`);
  }
  const run = found && found.run;
  if (run && run.run_id) {
    const bits = [run.task_type, run.status, run.score === null ? null : `score ${run.score}`].filter(Boolean);
    const injected = found.injected || [];
    return h(
      "span",
      {},
      "Run ",
      h("code", {}, run.run_id),
      run.task ? `: ${short(run.task, 80)}` : "",
      bits.length ? ` (${bits.join(", ")})` : "",
      ` · produced ${(found.observations || []).length}, injected ${injected.length}`,
      injected.length
        ? h("ul.injected", {}, injected.map((m) => h("li", { onclick: () => openDetail(m.id) }, m.title || short(m.content, 80))))
        : null,
    );
  }
  return memory.run_id ? h("span", {}, "Run ", h("code", {}, memory.run_id), " (not recorded)") : "";
}

function renderDetail(memory) {
  const pane = $("#detail");
  const facts = (memory.facts || []).map((fact) => h("li", {}, fact));
  const parts = [
    h("button.close", { type: "button", onclick: closeDetail, title: "Close" }, "×"),
    h("h2", {}, memory.title || "Memory"),
    h("p.meta", {}, h("code", {}, memory.id), ` · ${memory.type} · ${memory.namespace} · ${memory.created_at}`),
    h("p.content", {}, memory.content),
    memory.narrative ? h("p.narrative", {}, memory.narrative) : null,
    facts.length ? h("ul.facts", {}, facts) : null,
    h(
      "p.meta",
      {},
      "Quality ",
      h(`strong#detail-quality.${qualityClass(memory.quality)}`, {}, signed(memory.quality)),
      memory.score !== null && memory.score !== undefined ? ` · score ${memory.score}` : "",
    ),
    h("p#run-link.meta", {}),
    h(
      "div.toolbar",
      {},
      h("button#thumb-up", { type: "button", title: "Useful", onclick: () => rate(memory.id, "up") }, "▲ Useful"),
      h("button#thumb-down", { type: "button", title: "Misleading", onclick: () => rate(memory.id, "down") }, "▼ Misleading"),
      h("button#delete.danger", { type: "button", onclick: () => remove(memory.id) }, "Delete"),
    ),
  ];
  pane.replaceChildren(...parts.filter(Boolean));
  pane.hidden = false;
}

async function rate(id, rating) {
  try {
    const memory = await api(`/v1/memories/${encodeURIComponent(id)}/feedback`, {
      method: "POST",
      body: { rating },
    });
    state.selected = memory;
    const badge = $("#detail-quality");
    badge.textContent = signed(memory.quality);
    badge.className = qualityClass(memory.quality);
    say(`Quality is now ${signed(memory.quality)}.`);
    hooks.changed();
    refreshRow(memory);
  } catch (error) {
    say(error.message, { error: true });
  }
}

function refreshRow(memory) {
  const old = $(`#memory-list li[data-id="${CSS.escape(memory.id)}"]`);
  if (old) old.replaceWith(row(memory));
}

async function remove(id) {
  if (!window.confirm("Delete this memory? It leaves recall at once (purge removes it for good).")) return;
  try {
    await api(`/v1/memories/${encodeURIComponent(id)}`, { method: "DELETE" });
    closeDetail();
    say("Deleted.");
    hooks.changed();
    await loadMemories();
  } catch (error) {
    say(error.message, { error: true });
  }
}

export { session };
