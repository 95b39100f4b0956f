// The graph page: seed 000's UMAP scatter in D3 — zoom and pan, brush selection, colour
// by quality, a cluster legend, a tooltip on click and the detail on double-click. The
// layout is computed on the server (seconds for thousands of nodes), so a progress line
// counts the wait; the keyboard walks and selects nodes as the mouse does.
import { extent } from "d3-array";
import { brush } from "d3-brush";
import { select } from "d3-selection";
import { zoom, zoomIdentity } from "d3-zoom";
import { api } from "./api.js";
import { $, fail, h, short } from "./dom.js";
import { go } from "./router.js";
import { limits, prefs } from "./settings.js";

// Ring colours of the clusters (KMeans makes at most 8, seed 000): no green, red or
// grey, which the fill uses for quality.
const CLUSTER_COLOURS = ["#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79", "#e7ba52", "#5254a3"];
const MARGIN = 24;

/** A linear map from `domain` onto `range` (all the scale the scatter needs). */
function scaleLinear(domain, range) {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (value) => r0 + (value - d0) * k;
}

const cache = new Map(); // namespace -> graph payload: one request per tab open per session (seed 000)
const view = { data: null, transform: zoomIdentity, selected: new Set(), focus: null, cursor: -1, order: [] };
const hooks = { open: (id) => go("memories", [id]), review: () => {} };
let pending = null; // the layout request in flight, so a second visit waits on it

export const clusterColour = (cluster) => CLUSTER_COLOURS[((cluster % 10) + 10) % 10];

export function qualityFill(quality) {
  if (quality > 0) return "#1a9850"; // green: positively rated (seed 000)
  if (quality < 0) return "#d73027"; // red: negatively rated
  return "#848d97"; // grey: neutral (3.4:1 on white, WCAG's 3:1 for graphics)
}

export function initGraph({ onReview }) {
  hooks.review = onReview;
  $("#graph-refresh").addEventListener("click", () => loadGraph({ fresh: true }));
  $("#graph-reset").addEventListener("click", () => draw());
  for (const radio of document.querySelectorAll('input[name="graph-mode"]')) {
    radio.addEventListener("change", () => setMode(radio.value));
  }
  $("#graph-review").addEventListener("click", () => hooks.review([...view.selected], view.data));
  select("#graph").on("click.tooltip", (event) => {
    if (event.target.tagName !== "circle") hideTooltip();
  });
  $("#graph").addEventListener("keydown", keyboard);
  window.addEventListener("resize", () => view.data && draw());
}

export function forgetGraph() {
  cache.clear();
  view.data = null;
  view.selected.clear();
  select("#graph").selectAll("*").remove();
  $("#legend").replaceChildren();
}

/** A progress line over the map while the server lays it out: the layout of thousands
 * of nodes takes seconds, and a blank canvas reads as broken. */
function progress(on) {
  const box = $("#graph-progress");
  clearInterval(progress.timer);
  box.hidden = !on;
  if (!on) return;
  const started = performance.now();
  const tick = () => {
    const s = Math.round((performance.now() - started) / 1000);
    $("#graph-progress-text").textContent =
      `Laying out up to ${prefs.graphLimit} memories${s ? ` · ${s} s` : ""}… a few thousand take several seconds.`;
  };
  tick();
  progress.timer = setInterval(tick, 1000);
}

export async function loadGraph({ fresh = false } = {}) {
  const started = performance.now();
  const key = `${prefsKey()}`;
  $("#graph-info").textContent = "";
  try {
    if (fresh || !cache.has(key)) {
      progress(true);
      if (view.data) select("#graph").selectAll("*").remove();
      view.data = null;
      if (!pending || pending.key !== key || fresh) {
        pending = { key, request: api("/v1/review/graph", { query: { limit: prefs.graphLimit } }) };
      }
      const data = await pending.request;
      cache.set(key, data);
      pending = null;
    } else if (view.data === cache.get(key)) {
      return; // already drawn: keep the zoom and selection
    }
    view.data = cache.get(key);
    view.selected.clear();
    view.cursor = -1;
    draw();
    const ms = Math.round(performance.now() - started);
    const d = view.data;
    $("#graph-info").textContent = d.nodes.length
      ? `${d.nodes.length} of ${d.total} memories · ${d.method.toUpperCase()}${d.note ? ` · ${d.note}` : ""} · ${ms} ms`
      : "No memories to map yet: add some, then Refresh.";
    $("#graph").dataset.renderMs = String(ms);
  } catch (error) {
    pending = null;
    fail($("#graph-tools"), error.status === 404 ? "The graph view is not available on this server." : `The map could not be laid out: ${error.message}`);
  } finally {
    progress(false);
  }
}

function prefsKey() {
  return `${document.querySelector("#namespace").value}|${prefs.graphLimit}`;
}

function size() {
  const box = $("#graph").getBoundingClientRect();
  return { width: Math.max(320, box.width), height: Math.max(240, box.height) };
}

function draw() {
  const data = view.data;
  if (!data) return;
  const { width, height } = size();
  const svg = select("#graph").attr("viewBox", `0 0 ${width} ${height}`);
  svg.selectAll("*").remove();
  const xs = scaleLinear(padded(extent(data.nodes, (d) => d.x)), [MARGIN, width - MARGIN]);
  const ys = scaleLinear(padded(extent(data.nodes, (d) => d.y)), [height - MARGIN, MARGIN]);
  for (const node of data.nodes) {
    node.sx = xs(node.x);
    node.sy = ys(node.y);
  }
  const plot = svg.append("g").attr("class", "plot");
  plot
    .selectAll("circle")
    .data(data.nodes, (d) => d.id)
    .join("circle")
    .attr("class", "node")
    .attr("data-id", (d) => d.id)
    .attr("data-cluster", (d) => d.cluster)
    .attr("cx", (d) => d.sx)
    .attr("cy", (d) => d.sy)
    .attr("r", 4.5)
    .attr("fill", (d) => qualityFill(d.quality))
    .attr("stroke", (d) => clusterColour(d.cluster))
    .on("click", (event, d) => {
      event.stopPropagation();
      showTooltip(event, d);
    })
    .on("dblclick", (event, d) => {
      event.stopPropagation();
      hideTooltip();
      hooks.open(d.id);
    });
  svg.append("g").attr("class", "brush");
  view.zoom = zoom()
    .scaleExtent([0.5, 40])
    .on("zoom", (event) => {
      view.transform = event.transform;
      plot.attr("transform", event.transform);
      plot.selectAll("circle").attr("r", 4.5 / event.transform.k).attr("stroke-width", 2 / event.transform.k);
    });
  view.transform = zoomIdentity;
  view.brush = brush()
    .extent([[0, 0], [width, height]])
    .on("start", hideTooltip)
    .on("end", (event) => brushed(event.selection));
  view.order = [...data.nodes].sort((a, b) => a.sx - b.sx || a.sy - b.sy);
  legend(data);
  markSelected();
  setMode(document.querySelector('input[name="graph-mode"]:checked').value);
}

function padded([low, high]) {
  if (low === undefined) return [0, 1];
  const pad = (high - low || 1) * 0.05;
  return [low - pad, high + pad];
}

function setMode(mode) {
  const svg = select("#graph");
  const layer = svg.select("g.brush");
  if (!view.zoom) return;
  if (mode === "brush") {
    svg.on(".zoom", null);
    layer.call(view.brush);
  } else {
    layer.on(".brush", null).selectAll("*").remove();
    svg.call(view.zoom).on("dblclick.zoom", null);
    svg.call(view.zoom.transform, view.transform);
  }
  svg.attr("data-mode", mode);
}

function brushed(selection) {
  view.selected.clear();
  if (selection) {
    const [[x0, y0], [x1, y1]] = selection;
    for (const node of view.data.nodes) {
      const [x, y] = view.transform.apply([node.sx, node.sy]);
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) view.selected.add(node.id);
    }
  }
  markSelected();
}

function markSelected() {
  select("#graph").selectAll("circle.node").classed("selected", (d) => view.selected.has(d.id));
  const n = view.selected.size;
  const most = limits.prune_ids;
  const over = most !== undefined && n > most;
  $("#graph-selected").textContent = !n
    ? ""
    : over
      ? `${n} selected: a review previews at most ${most} memories at once, so brush a smaller region (or zoom in first).`
      : `${n} selected`;
  $("#graph-selected").classList.toggle("warn", over);
  $("#graph-review").hidden = n === 0;
  $("#graph-review").disabled = over;
}

/** The keyboard over the map: ←/→ (and ↑/↓) walk the nodes left to right, Space adds
 * or removes the one in focus, Enter opens it, Escape clears the selection. */
function keyboard(event) {
  const nodes = view.order;
  if (!nodes.length) return;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (step) {
    view.cursor = (view.cursor + step + nodes.length) % nodes.length;
    showCursor();
  } else if (event.key === " " && view.cursor >= 0) {
    const id = nodes[view.cursor].id;
    if (view.selected.has(id)) view.selected.delete(id);
    else view.selected.add(id);
    markSelected();
  } else if (event.key === "Enter" && view.cursor >= 0) {
    hooks.open(nodes[view.cursor].id);
  } else if (event.key === "Escape") {
    view.selected.clear();
    markSelected();
    hideTooltip();
  } else {
    return;
  }
  event.preventDefault();
}

function showCursor() {
  const node = view.order[view.cursor];
  select("#graph").selectAll("circle.node").classed("cursor", (d) => d === node);
  const [x, y] = view.transform.apply([node.sx, node.sy]);
  const box = $("#graph").getBoundingClientRect();
  const scale = box.width / size().width;
  showTooltip({ clientX: box.left + x * scale, clientY: box.top + y * scale }, node);
  $("#graph-selected").dataset.cursor = node.id;
}

function legend(data) {
  const quality = [
    ["positive", qualityFill(1)],
    ["neutral", qualityFill(0)],
    ["negative", qualityFill(-1)],
  ];
  $("#legend").replaceChildren(
    h("h3", {}, "Quality (fill)"),
    h("ul", {}, quality.map(([name, colour]) => h("li", {}, swatch(colour, true), name))),
    h("h3", {}, "Clusters (ring)"),
    h(
      "ul.clusters",
      {},
      data.clusters.map((c) =>
        h(
          "li.cluster",
          {
            dataset: { cluster: c.id },
            tabIndex: 0,
            title: "Highlight this cluster",
            role: "button",
            onclick: () => focusCluster(c.id),
            onkeydown: (event) => (event.key === "Enter" || event.key === " ") && (event.preventDefault(), focusCluster(c.id)),
          },
          swatch(clusterColour(c.id), false),
          `Cluster ${c.id} (${c.size})`,
        ),
      ),
    ),
    h("p.hint", {}, "KMeans labels carry no meaning of their own: read the titles inside."),
  );
}

function swatch(colour, filled) {
  const el = h("span.swatch");
  el.style.setProperty(filled ? "background" : "border-color", colour);
  return el;
}

function focusCluster(id) {
  view.focus = view.focus === id ? null : id;
  select("#graph").selectAll("circle.node").classed("faded", (d) => view.focus !== null && d.cluster !== view.focus);
}

function showTooltip(event, node) {
  const tip = $("#tooltip");
  const wrap = $(".graph-wrap").getBoundingClientRect();
  tip.replaceChildren(
    h("strong", {}, short(node.title || node.id, 90)),
    h("div", {}, `quality ${node.quality > 0 ? "+" : ""}${node.quality}`, node.score !== null && node.score !== undefined ? ` · score ${node.score}` : ""),
    h("div.hint", {}, `${node.task_type || node.type || ""} · cluster ${node.cluster} · double-click or Enter to open`),
  );
  // Measured at the left edge, where nothing squeezes it, then kept inside the map: a
  // node near the right edge of a phone's map squeezed it to one letter a line (round 26).
  tip.style.left = "0px";
  tip.style.top = `${event.clientY - wrap.top + 12}px`;
  tip.hidden = false;
  const right = event.clientX - wrap.left + 12;
  tip.style.left = `${Math.max(0, Math.min(right, wrap.width - tip.offsetWidth))}px`;
}

function hideTooltip() {
  $("#tooltip").hidden = true;
}
