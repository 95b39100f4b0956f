// The review page: dry-run results first, then memories brushed in the graph, the prune
// candidates (seed 000's rule) and the pipeline's contradiction queue — each proposal
// as the stored claim beside the new one, the reason in words, and links to both.
import { api, ApiError } from "./api.js";
import { $, $$, done, empty, fail, failed, filled, h, link, loading, qualityClass, say, short, signed } from "./dom.js";
import { href } from "./router.js";

const hooks = { changed: () => {} };
let selection = { ids: [], nodes: new Map() };
const titles = new Map(); // id -> what a person reads for it, for the prune report

export function initReview({ onChange }) {
  hooks.changed = onChange;
  $("#prune-all").addEventListener("change", (e) => checkAll("#prune-list", e.target.checked));
  $("#queue-all").addEventListener("change", (e) => checkAll("#queue-list", e.target.checked));
  $("#prune-preview").addEventListener("click", () => prune(checked("#prune-list"), true, true, $("#prune-tools")));
  $("#prune-apply").addEventListener("click", () => prune(checked("#prune-list"), false, true, $("#prune-tools")));
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
  for (const [id, node] of nodes) titles.set(id, node.title || id);
  renderSelection();
}

export function forgetSelection() {
  selection = { ids: [], nodes: new Map() };
  renderSelection();
}

function renderSelection() {
  const box = $("#selection-box");
  if (!selection.ids.length) {
    empty(box, "Nothing selected. Brush a region of the ", link(href("graph"), "graph"), " to review those memories here.");
    return;
  }
  const tools = h(
    "div.toolbar",
    {},
    h("span#selection-count", {}, `${selection.ids.length} memories selected`),
    h("label", { title: "Skip selected memories that are not prune candidates (seed 000's rule)" },
      h("input#selection-only", { type: "checkbox", checked: true }), " only prune candidates"),
    h("button#selection-preview", { type: "button", onclick: () => prune(selection.ids, true, onlyCandidates(), tools) }, "Preview delete (dry run)"),
    h("button#selection-apply.danger", { type: "button", onclick: () => prune(selection.ids, false, onlyCandidates(), tools) }, "Delete selected"),
    h("button", { type: "button", onclick: forgetSelection }, "Clear"),
  );
  box.replaceChildren(
    tools,
    h(
      "ul#selection-list.rows",
      {},
      selection.ids.map((id) => {
        const n = selection.nodes.get(id) || {};
        return h(
          "li.row",
          { dataset: { id } },
          h(`span.quality.${qualityClass(n.quality || 0)}`, {}, signed(n.quality || 0)),
          h("span.text", {}, link(href("memories", [id]), n.title || id)),
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
  loading(list);
  try {
    const data = await api("/v1/review/prune-candidates", { query: { limit: 200 } });
    const items = (data.items || []).map((item) => item.memory || item);
    for (const m of items) titles.set(m.id, m.title || short(m.content, 80));
    filled(
      list,
      items.map((m) =>
        h(
          "li.row",
          { dataset: { id: m.id } },
          // The label around the box is its touch target on a phone (style.css).
          h("label.pick", {}, h("input", { type: "checkbox", value: m.id, "aria-label": `Select “${short(m.title || m.content, 60)}”` })),
          h(`span.quality.${qualityClass(m.quality)}`, { title: "quality" }, signed(m.quality)),
          h("span.score", { title: "score" }, m.score === null || m.score === undefined ? "–" : String(m.score)),
          h("span.text", {}, link(href("memories", [m.id]), m.title || short(m.content))),
          m.reason ? h("span.hint", {}, m.reason) : null,
        ),
      ),
      "No prune candidates: no memory is rated down enough to delete.",
    );
  } catch (error) {
    const gone = error instanceof ApiError && (error.status === 404 || error.status === 405);
    if (gone) empty(list, "Prune review is not available on this server.");
    else failed(list, error, loadCandidates);
  }
}

/** What a proposal would do, in words. */
const ACTIONS = {
  UPDATE: "would replace the stored memory with the new claim",
  DELETE: "would delete the stored memory",
  ADD: "would add the new claim beside the stored memory",
  SUPERSEDE: "would mark the stored memory as replaced by the new claim",
};

/** A claim's text from a field that may be a string or a record. */
function claimText(value) {
  if (!value) return null;
  if (typeof value === "string") return value;
  return value.content || value.text || value.claim || value.fact || null;
}

async function loadQueue() {
  const list = $("#queue-list");
  loading(list);
  try {
    const data = await api("/v1/review", { query: { status: "pending", limit: 200 } });
    const cards = await Promise.all(data.items.map(card));
    filled(list, cards, "Nothing waits for review: every proposal the pipeline made was applied.");
  } catch (error) {
    failed(list, error, loadQueue);
  }
}

/** One proposal: the stored claim beside the proposed one. Uses the queue's `old`/`new`
 * fields when the server sends them; otherwise reads the stored memory it would change. */
async function card(item) {
  const proposal = item.proposal || {};
  // `sides` (issue 28): {old, new: {memory_id, text, claim}, reason} from the detector.
  const sides = item.sides || {};
  const proposed =
    claimText(sides.new) || claimText(item.new) || claimText(proposal) || claimText(proposal.new) || short(JSON.stringify(proposal), 300);
  let stored = claimText(sides.old) || claimText(item.old) || claimText(proposal.old);
  const target = (sides.old && sides.old.memory_id) || item.target_id || (item.old && item.old.id) || null;
  const source = (sides.new && sides.new.memory_id) || item.memory_id || null;
  const clause = (side) => (side && side.claim && side.claim !== side.text ? h("p.hint", {}, "The claim: ", side.claim) : null);
  if (!stored && target) {
    try {
      stored = (await api(`/v1/memories/${encodeURIComponent(target)}`)).content;
    } catch (error) {
      stored = error.status === 404 ? "(the stored memory is gone)" : `(could not read it: ${error.message})`;
    }
  }
  const action = String(item.action || proposal.action || "").toUpperCase();
  return h(
    "li.card",
    { dataset: { id: String(item.id) } },
    h(
      "div.card-head",
      {},
      h("label.pick", {}, h("input", { type: "checkbox", value: String(item.id), "aria-label": `Select proposal ${item.id}` })),
      h("span.badge", {}, action || "proposal"),
      h("span.reason", {}, "Held back: ", h("strong", {}, sides.reason || item.reason || "it contradicts a stored memory"), ". Approving it ", ACTIONS[action] || "applies it", "."),
    ),
    h(
      "div.claims",
      {},
      h(
        "div.claim.old",
        {},
        h("h4", {}, "Stored claim"),
        h("p", {}, stored || "(none)"),
        clause(sides.old),
        target ? link(href("memories", [target]), "Open the stored memory") : null,
      ),
      h(
        "div.claim.new",
        {},
        h("h4", {}, "New claim"),
        h("p", {}, proposed),
        clause(sides.new),
        source ? link(href("memories", [source]), "Open the memory it came from") : null,
      ),
    ),
  );
}

function onlyCandidates() {
  const box = $("#selection-only");
  return box ? box.checked : true;
}

/** The prune outcome at the top of the page, each id by its title and why. */
function report(result) {
  const out = $("#prune-result");
  const head = result.dry_run ? `Dry run: would delete ${result.would_delete.length}` : `Deleted ${result.deleted.length}`;
  const skipped = result.items.filter((item) => item.action === "skipped" || item.action === "not_found");
  const words = { would_delete: "would delete", deleted: "deleted", skipped: "skipped", not_found: "not found" };
  done(
    out,
    h("h3", {}, `${head}${skipped.length ? `, skipped ${skipped.length}` : ""}`),
    result.dry_run ? h("p.hint", {}, "Nothing was deleted. Check the list, then choose Delete selected.") : null,
    h(
      "ul",
      {},
      result.items.map((item) =>
        h("li", { dataset: { action: item.action } }, h("strong", {}, words[item.action] || item.action), " ", link(href("memories", [item.id]), titles.get(item.id) || item.id), item.reason ? h("span.hint", {}, ` · ${item.reason}`) : null),
      ),
    ),
  );
  out.hidden = false;
  out.dataset.dryRun = String(result.dry_run);
  out.scrollIntoView({ block: "start" });
  out.focus({ preventScroll: true });
}

async function prune(ids, dryRun, only, where) {
  if (!ids.length) return fail(where, "Select memories first.");
  if (!dryRun && !window.confirm(`Delete ${ids.length} memories? Preview with a dry run first if unsure.`)) return undefined;
  try {
    const body = { ids, dry_run: dryRun, only_candidates: only };
    const result = await api("/v1/review/prune", { method: "POST", body, scope: "body" });
    report(result);
    if (!dryRun) {
      if (selection.ids.length) forgetSelection();
      hooks.changed();
      await loadCandidates();
    }
  } catch (error) {
    fail(where, error);
  }
  return undefined;
}

async function resolve(ids, verb) {
  const where = $("#queue-tools");
  if (!ids.length) return fail(where, "Select review items first.");
  let done = 0;
  const errors = [];
  for (const id of ids) {
    try {
      await api(`/v1/review/${encodeURIComponent(id)}/${verb}`, { method: "POST", body: {} });
      done += 1;
    } catch (error) {
      errors.push(`Item ${id}: ${error.message}`);
    }
  }
  if (done) say(`${verb === "approve" ? "Approved" : "Rejected"} ${done} item${done === 1 ? "" : "s"}.`);
  hooks.changed();
  await loadQueue();
  if (errors.length) fail(where, errors.join(" · "));
  return undefined;
}
