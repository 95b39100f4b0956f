// The runs page: the run log (`#/runs`: task, score, status, time) and one run
// (`#/runs/<id>`): its output excerpt, the evaluator's issues, the observations it
// produced and the memories injected into it, by rank.
import { api } from "./api.js";
import { $, clamped, done, failed, filled, h, link, loading, pager, qualityClass, short, signed, when } from "./dom.js";
import { go, href, parse } from "./router.js";
import { prefs } from "./settings.js";

/** How much of a run's output the page shows before "Show more" (a full output can be
 * megabytes; the excerpt is what a person scans to judge the run). */
const EXCERPT = 4000;
const state = { total: 0 };

export function initRuns() {
  pager($("#runs-pager"), { prev: "runs-prev", info: "runs-info", next: "runs-next" });
  $("#runs-status").addEventListener("change", () => go("runs", [], { status: $("#runs-status").value }));
  $("#runs-prev").addEventListener("click", () => page(-1));
  $("#runs-next").addEventListener("click", () => page(1));
}

function page(step) {
  const params = parse().params;
  const offset = Math.max(0, Number(params.offset || 0) + step * prefs.pageSize);
  if (step > 0 && offset >= state.total) return;
  go("runs", [], { ...params, offset: offset || "" });
}

export async function showRuns(route) {
  const id = route.args[0];
  $("#runs-list-view").hidden = Boolean(id);
  $("#run-view").hidden = !id;
  if (id) return showRun(id);
  return showList(route.params);
}

async function showList(params) {
  const list = $("#runs-list");
  $("#runs-status").value = params.status || "";
  loading(list);
  $("#runs-info").textContent = "";
  const offset = Number(params.offset || 0);
  try {
    const data = await api("/v1/runs", { query: { status: params.status, limit: prefs.pageSize, offset } });
    state.total = data.total;
    const last = Math.min(data.total, offset + data.items.length);
    $("#runs-info").textContent = data.total ? `${offset + 1}–${last} of ${data.total}` : "";
    $("#runs-prev").disabled = offset === 0;
    $("#runs-next").disabled = offset + prefs.pageSize >= data.total;
    filled(
      list,
      data.items.map(runRow),
      params.status
        ? `No ${params.status} runs.`
        : h("span", {}, "No runs recorded yet. A harness records each task with ", h("code", {}, "POST /v1/runs"), " or ", h("code", {}, "POST /v1/observations"), " (", h("code", {}, "mem.runs.compress_and_store"), ")."),
    );
  } catch (error) {
    failed(list, error, () => showList(params));
  }
}

function scoreText(score) {
  return score === null || score === undefined ? "–" : Number(score).toFixed(1);
}

function runRow(run) {
  const open = () => go("runs", [run.run_id]);
  return h(
    "li.row.run-row",
    { dataset: { id: run.run_id }, tabIndex: 0, onclick: open, onkeydown: (e) => e.key === "Enter" && open() },
    h(`span.badge.status-${run.status}`, {}, run.status),
    h("span.score", { title: "evaluator score (0–10)" }, scoreText(run.score)),
    h("span.text", {}, run.task ? short(run.task, 120) : h("code", {}, run.run_id)),
    h("span.when", {}, when(run.finished_at || run.updated_at || run.created_at)),
  );
}

async function showRun(id) {
  const view = $("#run-view");
  loading(view, "Loading the run…");
  try {
    const found = await api(`/v1/runs/${encodeURIComponent(id)}`);
    if (parse().args[0] !== id) return;
    render(found);
  } catch (error) {
    failed(view, error, () => showRun(id));
    view.prepend(back());
  }
}

function back() {
  return h("p.links", {}, link(href("runs"), "← All runs"));
}

function render({ run, observations, injected, hits }) {
  const view = $("#run-view");
  const live = new Map(injected.map((m) => [m.id, m]));
  const output = run.output || "";
  const excerpt = output.length > EXCERPT ? `${output.slice(0, EXCERPT)}…` : output;
  done(
    view,
    back(),
    h("h2", {}, run.task ? short(run.task, 200) : run.run_id),
    h(
      "p.meta",
      {},
      h(`span.badge.status-${run.status}`, {}, run.status),
      ` · score ${scoreText(run.score)}`,
      run.task_type ? ` · ${run.task_type}` : "",
      " · ",
      h("code", {}, run.run_id),
    ),
    h(
      "dl.pairs",
      {},
      [
        ["Started", run.started_at ? when(run.started_at) : null],
        ["Finished", run.finished_at ? when(run.finished_at) : null],
        ["Recorded", when(run.created_at)],
        ["Tokens", run.tokens_in !== null || run.tokens_out !== null ? `${run.tokens_in ?? "?"} in, ${run.tokens_out ?? "?"} out` : null],
        ["Output file", run.output_path ? h("code", {}, run.output_path) : null],
      ]
        .filter(([, v]) => v)
        .flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
    ),
    h("h3", {}, "Output"),
    output
      ? [clamped(excerpt, { limit: 600, tag: "pre.output" }), output.length > EXCERPT ? h("p.hint", {}, `The first ${EXCERPT.toLocaleString()} of ${output.length.toLocaleString()} characters.`) : null]
      : h("p.hint", {}, run.output_chars ? `${run.output_chars} characters, not kept in the run log.` : "No output recorded."),
    h("h3", {}, "Evaluator issues"),
    run.issues.length ? h("ul#run-issues.issues", {}, run.issues.map((i) => h("li", {}, i))) : h("p.hint", {}, "None recorded."),
    h("h3", {}, `Observations produced (${observations.length})`),
    observations.length
      ? h("ul#run-observations.rows", {}, observations.map((m) => memoryRow(m)))
      : h("p.hint", {}, "This run produced no observation."),
    h("p.links", {}, link(href("memories", [], { run: run.run_id }), "Every memory this run wrote")),
    h("h3", {}, `Memories injected (${hits.length})`),
    hits.length
      ? h(
          "ol#run-injected.rows",
          {},
          hits
            .slice()
            .sort((a, b) => a.rank - b.rank)
            .map((hit) => memoryRow(live.get(hit.memory_id), hit)),
        )
      : h("p.hint", {}, "Nothing was injected into this run (or its harness did not log it)."),
  );
}

/** A memory of the run: a link to its detail; an injected one with its rank and score,
 * or marked as deleted when it no longer lives. */
function memoryRow(memory, hit) {
  const title = memory ? memory.title || short(memory.content, 120) : (hit && hit.title) || (hit && hit.memory_id);
  return h(
    "li.row",
    { dataset: { id: memory ? memory.id : hit.memory_id } },
    hit ? h("span.rank", { title: "rank in the injected context" }, `#${hit.rank}`) : null,
    memory ? h(`span.quality.${qualityClass(memory.quality)}`, { title: "quality" }, signed(memory.quality)) : null,
    h("span.text", {}, memory ? link(href("memories", [memory.id]), title) : [title, h("span.hint", {}, " (deleted)")]),
    hit && hit.score !== null && hit.score !== undefined ? h("span.score", {}, Number(hit.score).toFixed(3)) : null,
  );
}
