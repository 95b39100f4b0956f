// The dashboard's entry: the key prompt, the namespace picker, the nav, and the router
// that shows the page a URL names (see router.js).
import "./style.css";
import { ApiError, api, session } from "./api.js";
import { $, $$, clearErrorsOnNextAction, h, say } from "./dom.js";
import { forgetGraph, initGraph, loadGraph } from "./graph.js";
import { forgetList, initMemories, resetMemories, showMemories } from "./memories.js";
import { initPalace, showPalace } from "./palace.js";
import { forgetSelection, initReview, loadReview, useSelection } from "./review.js";
import { go, onRoute, parse } from "./router.js";
import { initRuns, showRuns } from "./runs.js";
import { initSettings, loadLimits, loadSettings } from "./settings.js";

const pages = {
  memories: showMemories,
  runs: showRuns,
  review: loadReview,
  graph: () => loadGraph(),
  palace: showPalace,
  settings: loadSettings,
};
let signedIn = false;

/** Show the page `route` names: its panel, its nav link, then its content. */
function render(route) {
  if (!signedIn) return undefined;
  for (const link of $$(".tabs a")) {
    if (link.dataset.tab === route.page) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  for (const panel of $$(".tab")) panel.hidden = panel.id !== `tab-${route.page}`;
  document.title = `engram · ${route.page}`;
  menu(false);
  return pages[route.page](route);
}

/** Something changed in the store: the graph and the memories list are read afresh
 * when next shown (the review and runs pages read theirs on every visit). */
function changed() {
  forgetGraph();
  forgetList();
}

function menu(open) {
  $("#menu").setAttribute("aria-expanded", String(open));
  $(".top").classList.toggle("open", open);
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
  await loadLimits();
  signedIn = true;
  $("#login").hidden = true;
  $("#app").hidden = false;
  $("#nav-panel").hidden = false;
  $("#menu").hidden = false;
  await render(parse());
}

/** Back to the key prompt. A refused key keeps the URL, so a fresh key returns to the
 * same place; "Forget key" leaves nothing of the last user's place behind. */
function signOut(message = "", { keepPlace = true } = {}) {
  signedIn = false;
  if (!keepPlace) window.history.replaceState(null, "", "#/memories");
  session.key = null;
  session.namespace = null;
  sessionStorage.removeItem("engram.namespace");
  forgetGraph();
  forgetSelection();
  resetMemories();
  $("#namespace").replaceChildren();
  $("#app").hidden = true;
  $("#nav-panel").hidden = true;
  $("#menu").hidden = true;
  $("#login").hidden = false;
  $("#login-error").textContent = message;
  $("#key").value = "";
  $("#key").focus();
}

function start() {
  clearErrorsOnNextAction();
  initSettings();
  initMemories({ onChange: changed });
  initRuns();
  initGraph({ onReview: (ids, data) => { useSelection(ids, data); go("review"); } });
  initReview({ onChange: changed });
  initPalace();
  onRoute(render);
  $("#menu").addEventListener("click", () => menu($("#menu").getAttribute("aria-expanded") !== "true"));
  $("#namespace").addEventListener("change", (event) => {
    session.namespace = event.target.value;
    sessionStorage.setItem("engram.namespace", session.namespace);
    forgetGraph();
    forgetSelection();
    resetMemories();
    // A record of the old namespace is not in the new one: back to the page's list.
    go(parse().page, [], {}, { replace: true });
  });
  $("#signout").addEventListener("click", () => signOut("", { keepPlace: false }));
  $("#login").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#login-error").textContent = "";
    try {
      await signIn($("#key").value.trim());
    } catch (error) {
      signOut(error instanceof ApiError && error.status === 401 ? error.message : `Could not open: ${error.message}`);
    }
  });
  // Any call refused for the key (revoked, or unknown to this server): back to the
  // prompt, saying why, wherever the user was.
  window.addEventListener("engram:unauthorized", (event) => {
    if (signedIn) signOut(`Your key no longer opens this store: ${event.detail}. Paste a current key.`);
  });
  window.addEventListener("unhandledrejection", (event) => {
    const error = event.reason;
    if (error instanceof ApiError && error.status === 401) return;
    say(String(error && error.message ? error.message : error), { error: true });
  });
  if (session.key) signIn(session.key).catch((error) => signOut(error.message));
}

start();
