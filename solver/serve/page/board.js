// The judge's page, part 1: a board from card names. A judge types card names (suggestions from
// the server's offline Oracle data, /page/cards, and a "did you mean" on a miss), gives each its
// controller and zone, and picks the event; the server writes the scenario (/page/board: every
// waiting trigger read from the cards, the reading `triggerstack boards` uses), the page shows it as
// YAML to copy and loads it like any other. Uses page.js's $, element, visible and load.
"use strict";

const board = { cards: [], subject: null, attackers: null };
const MOST_PLAYERS = 8;

function playerIds() {
  const n = Math.max(1, Math.min(MOST_PLAYERS, Number.parseInt($("#players").value, 10) || 2));
  return Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
}

function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map((v) => element("option", { value: v }, v)));
  select.value = values.includes(chosen) ? chosen : values[0];
}

function renderPlayers() {
  const ids = playerIds();
  fillSelect($("#card-controller"), ids, $("#card-controller").value);
  fillSelect($("#defender"), ids.slice(1), $("#defender").value);
  renderCards();
}

// -- names as they are typed ------------------------------------------------------------------

async function cardNames(typed) {
  const response = await fetch(`/page/cards?q=${encodeURIComponent(typed)}`);
  const data = await response.json();
  if (!response.ok) throw data;
  return data;
}

function lastName(text) {
  return text.split(";").pop().trim();
}

let suggesting = 0;
async function suggest() {
  const asked = ++suggesting;
  const typed = lastName($("#card-name").value);
  const list = $("#suggestions");
  if (typed.length < 2) {
    list.replaceChildren();
    $("#card-name").setAttribute("aria-expanded", "false");
    return;
  }
  let found;
  try {
    found = await cardNames(typed);
  } catch (problem) {
    return; // a name too long to suggest for: Add says why
  }
  if (asked !== suggesting) return; // a later keystroke's answer wins
  list.replaceChildren(
    ...found.names.map((name) => {
      const option = element("button", { type: "button", role: "option", class: "suggestion" }, name);
      option.addEventListener("click", () => {
        const parts = $("#card-name").value.split(";");
        parts[parts.length - 1] = name;
        addNames(parts.join(";"));
      });
      return option;
    }),
  );
  $("#card-name").setAttribute("aria-expanded", String(found.names.length > 0));
}

// Each name is looked up before it is added: a card's own name (any letter case) is added as the
// data spells it; a miss stays in the field, with "did you mean" when a name is near.
async function addNames(text) {
  const names = text.split(";").map((n) => n.trim()).filter((n) => n);
  const missed = [];
  const miss = $("#card-miss");
  miss.replaceChildren();
  for (const name of names) {
    let found;
    try {
      found = await cardNames(name);
    } catch (problem) {
      miss.append(element("span", { class: "error" }, problem.detail || String(problem)));
      missed.push(name);
      continue;
    }
    const exact = found.names.find((n) => n.toLowerCase() === name.toLowerCase());
    if (exact) {
      board.cards.push({ card: exact, controller: $("#card-controller").value, zone: $("#card-zone").value });
      continue;
    }
    missed.push(name);
    const near = found.near || found.names[0];
    const line = element("span", { class: "missed" }, `no card is named “${name}”`);
    if (near) {
      const fix = element("button", { type: "button", class: "near" }, near);
      fix.addEventListener("click", () => addNames(near));
      line.append(" — did you mean ", fix, "?");
    }
    miss.append(line);
  }
  $("#card-name").value = missed.join("; ");
  $("#suggestions").replaceChildren();
  $("#card-name").setAttribute("aria-expanded", "false");
  renderCards();
  document.body.dataset.added = String(Number(document.body.dataset.added || 0) + 1);
  $("#card-name").focus();
}

// -- the cards of the board -------------------------------------------------------------------

function renderCards() {
  const ids = playerIds();
  const event = $("#event").value;
  const table = $("#cards");
  const rows = table.querySelector("tbody");
  table.hidden = board.cards.length === 0;
  $("#build-board").disabled = board.cards.length === 0;
  $("#defender-row").hidden = event !== "attacks";
  const role = { enters: "enters", attacks: "attacks" }[event];
  $("#role-head").textContent = role || "";
  if (board.subject !== null && board.subject >= board.cards.length) board.subject = null;
  rows.replaceChildren(
    ...board.cards.map((placed, i) => {
      const controller = element("select", { "aria-label": `controller of ${placed.card}` });
      // a player no longer at the table stays chosen, for the server to refuse by name: never moved silently
      fillSelect(controller, ids.includes(placed.controller) ? ids : [...ids, placed.controller], placed.controller);
      controller.addEventListener("change", () => { placed.controller = controller.value; renderCards(); });
      const zone = element("select", { "aria-label": `zone of ${placed.card}` });
      fillSelect(zone, ["battlefield", "graveyard", "hand", "exile", "library", "stack"], placed.zone);
      zone.addEventListener("change", () => { placed.zone = zone.value; renderCards(); });
      const cell = element("td", { class: "role" });
      if (role === "enters" && placed.zone === "battlefield") {
        const first = board.subject === null && board.cards.findIndex((c) => c.zone === "battlefield") === i;
        const radio = element("input", { type: "radio", name: "subject", "aria-label": `${placed.card} enters` });
        radio.checked = board.subject === i || first;
        radio.addEventListener("change", () => { board.subject = i; });
        cell.append(radio);
      } else if (role === "attacks" && placed.zone === "battlefield" && placed.controller === ids[0]) {
        const box = element("input", { type: "checkbox", "aria-label": `${placed.card} attacks` });
        box.checked = board.attackers === null || board.attackers.has(i);
        box.addEventListener("change", () => {
          if (board.attackers === null) board.attackers = new Set(attackerRows());
          if (box.checked) board.attackers.add(i);
          else board.attackers.delete(i);
        });
        cell.append(box);
      }
      const remove = element("button", { type: "button", class: "remove", "aria-label": `remove ${placed.card}` }, "×");
      remove.addEventListener("click", () => {
        board.cards.splice(i, 1);
        board.subject = null;
        board.attackers = null;
        renderCards();
      });
      return element("tr", {}, element("td", { class: "name" }, placed.card), element("td", {}, controller), element("td", {}, zone), cell, element("td", {}, remove));
    }),
  );
}

function attackerRows() {
  const active = playerIds()[0];
  return board.cards.map((c, i) => (c.zone === "battlefield" && c.controller === active ? i : -1)).filter((i) => i >= 0);
}

// -- the scenario it makes ---------------------------------------------------------------------

async function buildBoard() {
  const error = $("#board-error");
  error.hidden = true;
  error.replaceChildren();
  $("#board-status").textContent = "";
  const event = $("#event").value;
  const body = { players: playerIds().length, cards: board.cards, event };
  if (event === "enters" && board.subject !== null) body.subject = board.subject;
  if (event === "attacks") {
    body.defender = $("#defender").value;
    if (board.attackers !== null) body.attackers = [...board.attackers].sort((a, b) => a - b);
  }
  let data;
  try {
    const response = await fetch("/page/board", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    data = await response.json();
    if (!response.ok) throw data;
    if (data.problem) throw data.problem;
  } catch (problem) {
    error.hidden = false;
    const lines = (problem.errors || []).map((e) => e.message);
    for (const line of lines.length ? lines : [problem.detail || String(problem)]) error.append(element("div", {}, line));
    return;
  }
  $("#board-status").textContent = visible(`written: ${data.event}; ${data.scenario.triggers.length} waiting trigger${data.scenario.triggers.length === 1 ? "" : "s"}`);
  $("#card-miss").replaceChildren();
  $("#scenario-text").value = data.yaml;
  await load();
  $("#load").scrollIntoView({ block: "start" });
}

// -- wiring -----------------------------------------------------------------------------------

let typing = null;
$("#card-name").addEventListener("input", () => {
  clearTimeout(typing);
  typing = setTimeout(suggest, 120);
});
$("#card-name").addEventListener("keydown", (event) => {
  if (event.key === "ArrowDown") {
    const first = $("#suggestions button");
    if (first) { event.preventDefault(); first.focus(); }
  }
});
$("#suggestions").addEventListener("keydown", (event) => {
  const options = [...document.querySelectorAll("#suggestions button")];
  const at = options.indexOf(document.activeElement);
  if (event.key === "ArrowDown" && at < options.length - 1) { event.preventDefault(); options[at + 1].focus(); }
  if (event.key === "ArrowUp") { event.preventDefault(); (at > 0 ? options[at - 1] : $("#card-name")).focus(); }
  if (event.key === "Escape") { options.length = 0; $("#suggestions").replaceChildren(); $("#card-name").focus(); }
});
$("#add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  clearTimeout(typing);
  addNames($("#card-name").value);
});
$("#players").addEventListener("change", renderPlayers);
$("#event").addEventListener("change", () => { board.attackers = null; renderCards(); });
$("#build-board").addEventListener("click", buildBoard);
renderPlayers();
