// A memory's detail: its text (clamped, so the actions stay in view), quality and the
// thumbs and delete first; then tags, dates, metadata, provenance, version history and
// the entities and relations the graph holds of it. Escape closes it.
import { api } from "./api.js";
import { $, clamped, done, fail, failed, h, link, loading, qualityClass, say, short, signed, when } from "./dom.js";
import { href } from "./router.js";

const hooks = { change: () => {}, close: () => {} };
let current = null;

const enc = encodeURIComponent;

export function initDetail({ onChange, onClose }) {
  hooks.change = onChange;
  hooks.close = onClose;
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !current || $("#tab-memories").hidden) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const id = current;
    hooks.close();
    const row = $(`#memory-list li[data-id="${CSS.escape(id)}"]`);
    if (row) row.focus();
  });
}

export function closeDetail() {
  current = null;
  const pane = $("#detail");
  pane.hidden = true;
  pane.replaceChildren();
}

/** Show memory `id` (the route named it); a no-op when it is already shown. */
export async function openDetail(id) {
  const pane = $("#detail");
  if (current === id && !pane.hidden && pane.dataset.id === id) return;
  current = id;
  pane.dataset.id = id;
  pane.hidden = false;
  // On a narrow screen the detail replaces the list: start it at the top, not at the
  // scroll position of the row that was tapped.
  if (window.matchMedia("(max-width: 900px)").matches) window.scrollTo(0, 0);
  loading(pane, "Loading the memory…");
  try {
    const memory = await api(`/v1/memories/${enc(id)}`);
    if (current !== id) return;
    render(memory);
    await Promise.all([historyOf(memory), graphOf(memory), runOf(memory)]);
  } catch (error) {
    if (current !== id) return;
    failed(pane, error, () => {
      current = null;
      openDetail(id);
    });
    pane.prepend(closeButtons());
  }
}

function closeButtons() {
  return h(
    "div.detail-nav",
    {},
    h("button.back", { type: "button", onclick: () => hooks.close() }, "← All memories"),
    h("button.close", { type: "button", onclick: () => hooks.close(), "aria-label": "Close the detail (Escape)", title: "Close (Escape)" }, "×"),
  );
}

function section(title, ...body) {
  return h("section.facet", {}, h("h3", {}, title), ...body);
}

function pairs(rows) {
  const kept = rows.filter(([, value]) => value !== null && value !== undefined && value !== "");
  if (!kept.length) return h("p.hint", {}, "none");
  return h("dl.pairs", {}, kept.flatMap(([name, value]) => [h("dt", {}, name), h("dd", {}, value)]));
}

function render(memory) {
  const pane = $("#detail");
  const actions = h(
    "div#detail-actions.toolbar",
    {},
    h("button#thumb-up", { type: "button", title: "Useful", onclick: () => rate(memory.id, "up", actions) }, "▲ Useful"),
    h("button#thumb-down", { type: "button", title: "Misleading", onclick: () => rate(memory.id, "down", actions) }, "▼ Misleading"),
    h("button#delete.danger", { type: "button", onclick: () => remove(memory.id, actions) }, "Delete"),
  );
  const facts = (memory.facts || []).map((fact) => h("li", {}, fact));
  const meta = Object.entries(memory.metadata || {}).map(([key, value]) => [
    key,
    h("code", {}, typeof value === "string" ? value : JSON.stringify(value)),
  ]);
  done(
    pane,
    closeButtons(),
    h("h2", {}, memory.title || "Memory"),
    h("p.meta", {}, h("span.badge", {}, memory.type), " ", h("code", {}, memory.id), ` · ${memory.namespace}`),
    h(
      "p.meta",
      {},
      "Quality ",
      h(`strong#detail-quality.${qualityClass(memory.quality)}`, {}, signed(memory.quality)),
      memory.score !== null && memory.score !== undefined ? ` · score ${memory.score}` : "",
      memory.importance !== null && memory.importance !== undefined ? ` · importance ${memory.importance}` : "",
    ),
    actions,
    memory.superseded_by
      ? h("p.notice", {}, "Replaced by ", link(href("memories", [memory.superseded_by]), "a newer memory"), ".")
      : null,
    clamped(memory.content),
    memory.narrative ? clamped(memory.narrative, { tag: "p.narrative" }) : null,
    facts.length ? h("ul.facts", {}, facts) : null,
    section(
      "Tags",
      memory.tags && memory.tags.length
        ? h("ul.chips", {}, memory.tags.map((tag) => h("li", {}, link(href("memories", [], { tag }), tag))))
        : h("p.hint", {}, "none"),
    ),
    section(
      "Dates",
      pairs([
        ["Created", when(memory.created_at)],
        ["Updated", when(memory.updated_at)],
      ]),
      h("div#detail-valid"),
    ),
    section(
      "Provenance",
      pairs([
        ["Run", memory.run_id ? link(href("runs", [memory.run_id]), h("code", {}, memory.run_id)) : null],
        ["Session", memory.session_id ? h("code", {}, memory.session_id) : null],
        ["Source memory", memory.source_memory_id ? link(href("memories", [memory.source_memory_id]), h("code", {}, memory.source_memory_id)) : null],
        ["Document", memory.document_id ? h("code", {}, memory.document_id) : null],
        ["Who", memory.who],
        ["Why", memory.why],
        ["User", memory.user_id],
        ["Agent", memory.agent_id],
        ["Extracted by", memory.extraction_model],
        ["Embedded by", memory.embedding_model],
      ]),
      h("div#run-link.meta"),
    ),
    section("Metadata", pairs(meta)),
    section("Entities and relations", h("div#detail-entities")),
    section("History", h("div#detail-history")),
  );
  pane.scrollTop = 0;
}

async function historyOf(memory) {
  const box = $("#detail-history");
  loading(box, "Loading the history…");
  try {
    const events = await api(`/v1/memories/${enc(memory.id)}/history`);
    if (!box.isConnected) return;
    if (!events.length) {
      done(box, h("p.hint", {}, "No recorded changes."));
      return;
    }
    done(box, h("ol.history", {}, events.map(event)));
  } catch (error) {
    failed(box, error);
  }
}

/** One audit row: when, what, who, and the fields it changed (old → new). */
function event(row) {
  const before = row.before || {};
  const after = row.after || {};
  const changed = Object.keys(after).filter(
    (key) => before[key] !== undefined && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  return h(
    "li",
    {},
    when(row.created_at),
    " ",
    h("strong", {}, row.event),
    row.actor ? ` by ${row.actor}` : "",
    row.reason ? h("span.hint", {}, ` · ${row.reason}`) : "",
    changed.length
      ? h(
          "ul.changes",
          {},
          changed.map((key) => h("li", {}, h("code", {}, key), `: ${short(plain(before[key]), 160)} → ${short(plain(after[key]), 160)}`)),
        )
      : null,
  );
}

function plain(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

async function graphOf(memory) {
  const box = $("#detail-entities");
  loading(box, "Loading entities…");
  try {
    const { entities, relations } = await api(`/v1/dashboard/memories/${enc(memory.id)}/graph`);
    if (!box.isConnected) return;
    done(
      box,
      entities.length
        ? h("ul.chips", {}, entities.map((e) => h("li", { title: `${e.entity_type || "entity"} · ${e.mentions} mentions` }, e.name)))
        : h("p.hint", {}, "The graph names no entity in this memory."),
      relations.length
        ? h(
            "ul.relations",
            {},
            relations.map((r) =>
              h(
                "li",
                {},
                `${r.source} `,
                h("em", {}, r.relation_type.replaceAll("_", " ")),
                ` ${r.target} · valid from `,
                when(r.valid_from),
                r.valid_to ? [" to ", when(r.valid_to)] : " (still holds)",
              ),
            ),
          )
        : null,
    );
    const valid = $("#detail-valid");
    if (relations.length && valid) {
      const from = relations.map((r) => r.valid_from).sort()[0];
      const open = relations.some((r) => !r.valid_to);
      const to = open ? null : relations.map((r) => r.valid_to).sort().at(-1);
      valid.replaceChildren(pairs([["Valid from", when(from)], ["Valid to", to ? when(to) : "still holds"]]));
    }
  } catch (error) {
    failed(box, error);
  }
}

/** The run the memory came from (only when it names one: no request otherwise). */
async function runOf(memory) {
  const box = $("#run-link");
  if (!memory.run_id) return;
  try {
    const found = await api(`/v1/runs/${enc(memory.run_id)}`);
    if (!box.isConnected) return;
    const run = found.run;
    const bits = [run.task_type, run.status, run.score === null ? null : `score ${run.score}`].filter(Boolean);
    const injected = found.injected || [];
    done(
      box,
      "Run ",
      link(href("runs", [run.run_id]), h("code", {}, run.run_id)),
      run.task ? `: ${short(run.task, 80)}` : "",
      bits.length ? ` (${bits.join(", ")})` : "",
      ` · produced ${(found.observations || []).length}, injected ${injected.length}`,
      injected.length
        ? h("ul.injected", {}, injected.map((m) => h("li", {}, link(href("memories", [m.id]), m.title || short(m.content, 80)))))
        : null,
    );
  } catch (error) {
    box.replaceChildren(`Run ${memory.run_id}: ${error.status === 404 ? "not recorded in the run log" : error.message}`);
  }
}

async function rate(id, rating, where) {
  try {
    const memory = await api(`/v1/memories/${enc(id)}/feedback`, { method: "POST", body: { rating } });
    const badge = $("#detail-quality");
    badge.textContent = signed(memory.quality);
    badge.className = qualityClass(memory.quality);
    say(`Quality is now ${signed(memory.quality)}.`);
    hooks.change(memory);
  } catch (error) {
    fail(where, error);
  }
}

async function remove(id, where) {
  if (!window.confirm("Delete this memory? It leaves recall at once (purge removes it for good).")) return;
  try {
    const memory = await api(`/v1/memories/${enc(id)}`, { method: "DELETE" });
    say("Deleted.");
    hooks.change(memory, { deleted: true });
    hooks.close();
  } catch (error) {
    fail(where, error);
  }
}
