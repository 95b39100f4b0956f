// The palace tab: wings → rooms → closets → drawers, with AAAK pointer previews.
import { api } from "./api.js";
import { $, h, say, short } from "./dom.js";

const hooks = { open: () => {} };

export function initPalace({ onOpen }) {
  hooks.open = onOpen;
}

export async function loadPalace() {
  const tree = $("#palace-tree");
  $("#palace-preview").hidden = true;
  try {
    const { wings } = await api("/v1/palace");
    if (!wings.length) {
      tree.replaceChildren(h("p.hint", {}, "No palace yet: mine a conversation (engram palace mine, or POST /v1/palace/mine)."));
      return;
    }
    tree.replaceChildren(h("ul.wings", {}, wings.map(wingNode)));
  } catch (error) {
    say(error.message, { error: true });
  }
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
  details.addEventListener("toggle", () => details.open && !drawers.childElementCount && loadDrawers(wing, room, drawers));
  return h("li.room", { dataset: { code: room.code } }, details);
}

async function loadDrawers(wing, room, list) {
  try {
    const { drawers } = await api("/v1/palace/drawers", { query: { wing: wing.code, room: room.number } });
    list.replaceChildren(
      ...drawers.map((d) =>
        h(
          "li.drawer",
          { dataset: { memoryId: d.memory_id } },
          h("button.pointer", { type: "button", title: "Preview", onclick: () => preview(d.pointer) }, d.pointer),
          d.role ? h("span.hint", {}, ` ${d.role}`) : null,
        ),
      ),
    );
  } catch (error) {
    say(error.message, { error: true });
  }
}

async function preview(pointer) {
  try {
    const { drawer, memory } = await api("/v1/palace/resolve", { query: { pointer } });
    const pane = $("#palace-preview");
    pane.replaceChildren(
      h("h2", {}, h("code", {}, drawer.pointer)),
      h("p.meta", {}, `turn ${drawer.turn}${drawer.role ? ` · ${drawer.role}` : ""} · ${memory.created_at}`),
      h("p.content", {}, memory.content),
      h("button", { type: "button", onclick: () => hooks.open(memory.id) }, "Open in memories"),
    );
    pane.hidden = false;
    pane.dataset.pointer = drawer.pointer;
  } catch (error) {
    say(error.message, { error: true });
  }
}

export { short };
