// The palace page: wings → rooms → closets → drawers, with AAAK pointer previews. A room
// has its own URL (`#/palace/<wing>/<room>`), opened on load and by back and forward.
import { api, session } from "./api.js";
import { $, $$, clamped, empty, fail, failed, h, link, loading, when } from "./dom.js";
import { go, href } from "./router.js";

let loadedFor = null; // the namespace whose tree is shown

export function initPalace() {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("#tab-palace").hidden && !$("#palace-preview").hidden) {
      $("#palace-preview").hidden = true;
    }
  });
}

/** Render `#/palace[/<wing>[/<room>]]`: the tree (once per namespace), with the named
 * wing and room opened. */
export async function showPalace(route) {
  const tree = $("#palace-tree");
  if (loadedFor !== session.namespace || !tree.querySelector("li.wing")) {
    $("#palace-preview").hidden = true;
    loading(tree, "Loading the palace…");
    try {
      const { wings } = await api("/v1/palace");
      if (!wings.length) {
        empty(tree, "No palace yet. Mine a conversation into one with ", h("code", {}, "engram mine FILE"), " (or POST /v1/palace/mine), then reload.");
        loadedFor = session.namespace;
        return;
      }
      tree.removeAttribute("aria-busy");
      tree.replaceChildren(h("ul.wings", {}, wings.map(wingNode)));
      loadedFor = session.namespace;
    } catch (error) {
      failed(tree, error, () => showPalace(route));
      return;
    }
  }
  const [wing, room] = route.args;
  missing(tree, wing, room);
  for (const details of $$("#palace-tree details")) {
    const li = details.parentElement;
    const code = li.dataset.code;
    const opened = li.classList.contains("wing") ? code === wing : li.closest("li.wing").dataset.code === wing && code === room;
    if (opened && !details.open) details.open = true;
    if (opened && li.classList.contains("room")) li.scrollIntoView({ block: "nearest" });
  }
}

/** A pasted or mistyped address naming a wing or room this palace lacks says so at the
 * top of the tree (round 26: it showed the tree as if the address were right, with the
 * last room and its preview still open). */
function missing(tree, wing, room) {
  for (const old of $$(".missing", tree)) old.remove();
  if (!wing || !tree.querySelector("li.wing")) return;
  const wingLi = $$("li.wing", tree).find((li) => li.dataset.code === wing);
  const roomLi = wingLi && room ? $$("li.room", wingLi).find((li) => li.dataset.code === room) : wingLi;
  if (roomLi) return;
  $("#palace-preview").hidden = true;
  const what = wingLi ? `No room ${room} in wing ${wing}` : `No wing ${wing}`;
  tree.prepend(h("p.missing.error", { role: "alert" }, `${what} in this palace. `, link(href("palace"), "Show the whole palace")));
}

function wingNode(node) {
  const wing = node.wing;
  return h(
    "li.wing",
    { dataset: { code: wing.code } },
    h(
      "details",
      {},
      h("summary", {}, h("code", {}, wing.code), ` ${wing.name} `, h("span.hint", {}, `${wing.kind} · ${node.drawers} drawers`)),
      h("ul.rooms", {}, node.rooms.map((room) => roomNode(wing, room))),
    ),
  );
}

/** A room's own part of its code: "R-01" of "W-001/R-01" (the URL's last segment). */
const roomKey = (room) => room.code.split("/").pop();

function roomNode(wing, node) {
  const room = node.room;
  const drawers = h("ul.drawers");
  const details = h(
    "details",
    {},
    h("summary", {}, h("code", {}, room.code), ` ${room.name} `, h("span.hint", {}, `${node.drawers} drawers`)),
    node.closets.length
      ? h("ul.closets", {}, node.closets.map((c) => h("li.closet", {}, h("span.hint", {}, "closet "), `${c.name} `, h("span.hint", {}, `${c.drawers} drawers`))))
      : null,
    drawers,
  );
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    if (!drawers.childElementCount) loadDrawers(wing, room, drawers);
    // Opening a room gives it a URL (a no-op when the URL already named it).
    const target = href("palace", [wing.code, roomKey(room)]);
    if (window.location.hash !== target) go("palace", [wing.code, roomKey(room)]);
  });
  return h("li.room", { dataset: { code: roomKey(room) } }, details);
}

async function loadDrawers(wing, room, list) {
  loading(list);
  try {
    const { drawers } = await api("/v1/palace/drawers", { query: { wing: wing.code, room: room.number } });
    list.removeAttribute("aria-busy");
    if (!drawers.length) return empty(list, "This room has no drawers.");
    // A drawer is written when its turn is mined (the memory's `memory_mined` event), so a
    // room that holds a chat conversation reads as that conversation's mining log.
    const times = drawers.map((d) => d.created_at).filter(Boolean).sort();
    const summary = times.length
      ? h("li.mined.hint", {}, `${drawers.length} turns mined, first `, when(times[0]), ", last ", when(times[times.length - 1]))
      : null;
    list.replaceChildren(
      ...[summary].filter(Boolean),
      ...drawers.map((d) =>
        h(
          "li.drawer",
          { dataset: { memoryId: d.memory_id } },
          h("button.pointer", { type: "button", title: "Preview", onclick: (e) => preview(d.pointer, e.currentTarget) }, d.pointer),
          d.role ? h("span.hint", {}, ` ${d.role}`) : null,
          d.created_at ? h("span.hint", {}, " · mined ", when(d.created_at)) : null,
          " ",
          link(href("memories", [d.memory_id]), "memory"),
        ),
      ),
    );
  } catch (error) {
    failed(list, error, () => loadDrawers(wing, room, list));
  }
  return undefined;
}

async function preview(pointer, where) {
  try {
    const { drawer, memory } = await api("/v1/palace/resolve", { query: { pointer } });
    const pane = $("#palace-preview");
    pane.replaceChildren(
      h("button.close", { type: "button", onclick: () => (pane.hidden = true), "aria-label": "Close the preview (Escape)" }, "×"),
      h("h2", {}, h("code", {}, drawer.pointer)),
      h("p.meta", {}, `turn ${drawer.turn}${drawer.role ? ` · ${drawer.role}` : ""} · `, when(memory.created_at)),
      clamped(memory.content),
      h("button.open", { type: "button", onclick: () => go("memories", [memory.id]) }, "Open in memories"),
    );
    pane.hidden = false;
    pane.dataset.pointer = drawer.pointer;
    // On a phone the pane stacks under the tree, below a long room's drawers: bring it
    // into view, or the tap seems to do nothing (round 26). Beside the tree it is in view.
    pane.scrollIntoView({ block: "nearest" });
  } catch (error) {
    fail(where, error);
  }
}
