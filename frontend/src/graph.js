// The graph tab: seed 000's UMAP scatter in D3 — zoom and pan, brush selection, colour
// by quality, a cluster legend, a tooltip on click and the detail pane on double-click.
import { extent } from "d3-array";
import { brush } from "d3-brush";
import { select } from "d3-selection";
import { zoom, zoomIdentity } from "d3-zoom";
import { api } from "./api.js";
import { $, h, say, short } from "./dom.js";
import { prefs } from "./settings.js";

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
const view = { data: null, transform: zoomIdentity, selected: new Set(), focus: null };
const hooks = { open: () => {}, review: () => {} };

export const clusterColour = (cluster) => CLUSTER_COLOURS[((cluster % 10) + 10) % 10];

export function qualityFill(quality) {
  if (quality > 0) return "#1a9850"; // green: positively rated (seed 000)
  if (quality < 0) return "#d73027"; // red: negatively rated
  return "#9aa3ad"; // dim: neutral
}

export function initGraph({ onOpen, onReview }) {
  hooks.open = onOpen;
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
  window.addEventListener("resize", () => view.data && draw());
}

export function forgetGraph() {
  cache.clear();
  view.data = null;
  view.selected.clear();
  select("#graph").selectAll("*").remove();
  $("#legend").replaceChildren();
}

export async function loadGraph({ fresh = false } = {}) {
  const started = performance.now();
  const key = `${prefsKey()}`;
  $("#graph-info").textContent = "Laying out…";
  try {
    if (fresh || !cache.has(key)) {
      cache.set(key, await api("/v1/review/graph", { query: { limit: prefs.graphLimit } }));
    }
    view.data = cache.get(key);
    view.selected.clear();
    draw();
    const ms = Math.round(performance.now() - started);
    const d = view.data;
    $("#graph-info").textContent =
      `${d.nodes.length} of ${d.total} memories · ${d.method.toUpperCase()}${d.note ? ` · ${d.note}` : ""} · ${ms} ms`;
    $("#graph").dataset.renderMs = String(ms);
  } catch (error) {
    $("#graph-info").textContent = "";
    say(error.status === 404 ? "The graph view is not available on this server." : error.message, { error: true });
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
  $("#graph-selected").textContent = n ? `${n} selected` : "";
  $("#graph-review").hidden = n === 0;
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
            onclick: () => focusCluster(c.id),
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
    h("div.hint", {}, `${node.task_type || node.type || ""} · cluster ${node.cluster} · double-click to open`),
  );
  tip.style.left = `${event.clientX - wrap.left + 12}px`;
  tip.style.top = `${event.clientY - wrap.top + 12}px`;
  tip.hidden = false;
}

function hideTooltip() {
  $("#tooltip").hidden = true;
}
