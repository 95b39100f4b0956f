// The review tab: prune candidates (seed 000's rule) and the pipeline's contradiction
// queue, with bulk actions; deletes are previewed with a dry run first.
import { api, ApiError } from "./api.js";
import { $, $$, h, qualityClass, say, short } from "./dom.js";

const hooks = { changed: () => {}, open: () => {} };
let selection = { ids: [], nodes: new Map() };

export function initReview({ onChange, onOpen }) {
  hooks.changed = onChange;
  hooks.open = onOpen;
  $("#prune-all").addEventListener("change", (e) => checkAll("#prune-list", e.target.checked));
  $("#queue-all").addEventListener("change", (e) => checkAll("#queue-list", e.target.checked));
  $("#prune-preview").addEventListener("click", () => prune(checked("#prune-list"), true));
  $("#prune-apply").addEventListener("click", () => prune(checked("#prune-list"), false));
  $("#queue-approve").addEventListener("click", () => resolve(checked("#queue-list"), "approve"));
  $("#queue-reject").addEventListener("click", () => resolve(checked("#queue-list"), "reject"));
}

function checkAll(list, on) {
  for (const box of $$(`${list} input[type=checkbox]`)) box.checked = on;
}

function checked(list) {
  return $$(`${list} input[type=checkbox]:checked`).map((box) => box.value);
}

/** Memories brushed in the graph, offered for the same bulk actions. */
export function useSelection(ids, graph) {
  const nodes = new Map((graph ? graph.nodes : []).map((n) => [n.id, n]));
  selection = { ids, nodes };
  renderSelection();
}

export function forgetSelection() {
  selection = { ids: [], nodes: new Map() };
  renderSelection();
}

function renderSelection() {
  const box = $("#selection-box");
  if (!selection.ids.length) {
    box.replaceChildren(h("p.hint", {}, "Brush a region of the graph to select memories here."));
    return;
  }
  box.replaceChildren(
    h(
      "div.toolbar",
      {},
      h("span#selection-count", {}, `${selection.ids.length} memories selected`),
      h("label", { title: "Skip selected memories that are not prune candidates (seed 000's rule)" },
        h("input#selection-only", { type: "checkbox", checked: true }), " only prune candidates"),
      h("button#selection-preview", { type: "button", onclick: () => prune(selection.ids, true, onlyCandidates()) }, "Preview delete (dry run)"),
      h("button#selection-apply.danger", { type: "button", onclick: () => prune(selection.ids, false, onlyCandidates()) }, "Delete selected"),
      h("button", { type: "button", onclick: forgetSelection }, "Clear"),
    ),
    h(
      "ul#selection-list.rows",
      {},
      selection.ids.map((id) => {
        const n = selection.nodes.get(id) || {};
        return h(
          "li.row",
          { dataset: { id }, onclick: () => hooks.open(id) },
          h(`span.quality.${qualityClass(n.quality || 0)}`, {}, String(n.quality ?? "")),
          h("span.text", {}, n.title || id),
        );
      }),
    ),
  );
}

export async function loadReview() {
  renderSelection();
  await Promise.all([loadCandidates(), loadQueue()]);
}

async function loadCandidates() {
  const list = $("#prune-list");
  try {
    const data = await api("/v1/review/prune-candidates", { query: { limit: 200 } });
    const items = (data.items || data.candidates || []).map((item) => item.memory || item);
    list.replaceChildren(
      ...(items.length
        ? items.map((m) =>
            h(
              "li.row",
              { dataset: { id: m.id } },
              h("input", { type: "checkbox", value: m.id, "aria-label": "select" }),
              h(`span.quality.${qualityClass(m.quality)}`, {}, String(m.quality)),
              h("span.score", {}, m.score === null || m.score === undefined ? "–" : String(m.score)),
              h("span.text", { onclick: () => hooks.open(m.id) }, m.title || short(m.content)),
            ),
          )
        : [h("li.hint", {}, "No prune candidates.")]),
    );
  } catch (error) {
    const gone = error instanceof ApiError && (error.status === 404 || error.status === 405);
    list.replaceChildren(h("li.hint", {}, gone ? "Prune review is not available on this server." : error.message));
  }
}

async function loadQueue() {
  const list = $("#queue-list");
  try {
    const data = await api("/v1/review", { query: { status: "pending", limit: 200 } });
    list.replaceChildren(
      ...(data.items.length
        ? data.items.map((item) =>
            h(
              "li.row",
              { dataset: { id: item.id } },
              h("input", { type: "checkbox", value: String(item.id), "aria-label": "select" }),
              h("span.badge", {}, item.action),
              h("span.text", {}, short(JSON.stringify(item.proposal), 120)),
              h("span.hint", {}, item.reason),
            ),
          )
        : [h("li.hint", {}, "Nothing waits for review.")]),
    );
  } catch (error) {
    list.replaceChildren(h("li.hint", {}, error.message));
  }
}

function onlyCandidates() {
  const box = $("#selection-only");
  return box ? box.checked : true;
}

function report(result) {
  const head = result.dry_run
    ? `Dry run: would delete ${result.would_delete.length}`
    : `Deleted ${result.deleted.length}`;
  const skipped = result.items.filter((item) => item.action === "skipped" || item.action === "not_found");
  const lines = result.items.map((item) => `${item.action.padEnd(12)} ${item.id}  ${item.reason}`);
  return [`${head}${skipped.length ? `, skipped ${skipped.length}` : ""}`, ...lines].join("\n");
}

async function prune(ids, dryRun, only = true) {
  if (!ids.length) return say("Select memories first.", { error: true });
  if (!dryRun && !window.confirm(`Delete ${ids.length} memories? Preview with a dry run first if unsure.`)) return;
  try {
    const body = { ids, dry_run: dryRun, only_candidates: only };
    const result = await api("/v1/review/prune", { method: "POST", body, scope: "body" });
    const out = $("#prune-result");
    out.textContent = report(result);
    out.hidden = false;
    out.dataset.dryRun = String(dryRun);
    out.scrollIntoView({ block: "nearest" });
    if (!dryRun) {
      if (selection.ids.length) forgetSelection();
      hooks.changed();
      await loadCandidates();
    }
  } catch (error) {
    say(error.message, { error: true });
  }
}

async function resolve(ids, verb) {
  if (!ids.length) return say("Select review items first.", { error: true });
  let done = 0;
  for (const id of ids) {
    try {
      await api(`/v1/review/${encodeURIComponent(id)}/${verb}`, { method: "POST", body: {} });
      done += 1;
    } catch (error) {
      say(`Item ${id}: ${error.message}`, { error: true });
    }
  }
  if (done) say(`${verb === "approve" ? "Approved" : "Rejected"} ${done} item${done === 1 ? "" : "s"}.`);
  hooks.changed();
  await loadQueue();
}
