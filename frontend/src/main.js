// The dashboard's entry: the key dialog, the namespace picker and the tabs.
import "./style.css";
import { ApiError, api, session } from "./api.js";
import { $, $$, h, say } from "./dom.js";
import { forgetGraph, initGraph, loadGraph } from "./graph.js";
import { closeDetail, initMemories, loadMemories, openDetail, resetMemories } from "./memories.js";
import { initPalace, loadPalace } from "./palace.js";
import { forgetSelection, initReview, loadReview, useSelection } from "./review.js";
import { initSettings, loadSettings } from "./settings.js";

const loaders = { memories: loadMemories, review: loadReview, graph: loadGraph, palace: loadPalace, settings: loadSettings };
let current = "memories";
const stale = new Set();

function showTab(name) {
  current = name;
  for (const tab of $$(".tabs [role=tab]")) tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  for (const panel of $$(".tab")) panel.hidden = panel.id !== `tab-${name}`;
  stale.delete(name);
  return loaders[name]();
}

/** Something changed in the store: reload what shows it when next opened. */
function changed() {
  for (const name of ["memories", "review", "graph"]) if (name !== current) stale.add(name);
  if (stale.has("graph")) forgetGraph();
}

async function openMemory(id) {
  await showTab("memories");
  await openDetail(id);
}

async function signIn(key) {
  session.key = key;
  const { namespaces, home } = await api("/v1/dashboard/namespaces", { scope: "none" });
  const picker = $("#namespace");
  picker.replaceChildren(
    ...namespaces.map((n) => h("option", { value: n.namespace }, `${n.namespace} (${n.memories})`)),
  );
  const names = namespaces.map((n) => n.namespace);
  const remembered = sessionStorage.getItem("engram.namespace");
  session.namespace = names.includes(remembered) ? remembered : home && names.includes(home) ? home : names[0] || null;
  picker.value = session.namespace || "";
  $("#login").hidden = true;
  $("#app").hidden = false;
  $(".tabs").hidden = false;
  $(".who").hidden = false;
  await showTab("memories");
}

function signOut(message = "") {
  session.key = null;
  session.namespace = null;
  sessionStorage.removeItem("engram.namespace");
  forgetGraph();
  forgetSelection();
  resetMemories();
  $("#memory-list").replaceChildren();
  $("#namespace").replaceChildren();
  $("#app").hidden = true;
  $(".tabs").hidden = true;
  $(".who").hidden = true;
  $("#login").hidden = false;
  $("#login-error").textContent = message;
  $("#key").value = "";
  $("#key").focus();
}

function start() {
  initSettings();
  initMemories({ onChange: changed });
  initGraph({ onOpen: openMemory, onReview: (ids, data) => { useSelection(ids, data); showTab("review"); } });
  initReview({ onChange: changed, onOpen: openMemory });
  initPalace({ onOpen: openMemory });
  for (const tab of $$(".tabs [role=tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("#namespace").addEventListener("change", (event) => {
    session.namespace = event.target.value;
    sessionStorage.setItem("engram.namespace", session.namespace);
    forgetGraph();
    forgetSelection();
    resetMemories();
    closeDetail();
    showTab(current);
  });
  $("#signout").addEventListener("click", () => signOut());
  $("#login").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#login-error").textContent = "";
    try {
      await signIn($("#key").value.trim());
    } catch (error) {
      signOut(error instanceof ApiError && error.status === 401 ? error.message : `Could not open: ${error.message}`);
    }
  });
  window.addEventListener("unhandledrejection", (event) => {
    const error = event.reason;
    if (error instanceof ApiError && error.status === 401) signOut(error.message);
    else say(String(error && error.message ? error.message : error), { error: true });
  });
  if (session.key) signIn(session.key).catch((error) => signOut(error.message));
}

start();
