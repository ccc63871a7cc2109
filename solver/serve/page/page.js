// The judge's page: load a scenario, read what explain says, build the stack decision by
// decision (the legal ones only, from step), and check a proposal. Every answer comes from the
// server's /v1/ methods: the page judges nothing itself. Pictures of the stack are the server's
// SVG (the code explain --format svg uses).
"use strict";

const $ = (selector) => document.querySelector(selector);
const state = { scenario: null, decisions: [], over: false, offered: [] };
const FOLDED = 3; // exclusions shown before the rest fold away (the command line says "N others")

// Text from a scenario or a proposal is data: nodes are built with DOM APIs (never innerHTML of a
// string), and the code points that would change how the text around them looks (controls,
// bidirectional formatting, noncharacters) are shown as escapes, the rule docs/formats.md states.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufdd0-\ufdef\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ud83f\ud87f\ud8bf\ud8ff\ud93f\ud97f\ud9bf\ud9ff\uda3f\uda7f\udabf\udaff\udb3f\udb7f\udbbf\udbff][\udffe\udfff]/g;

function visible(text) {
  return String(text).replace(UNSAFE, (found) => [...found].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join(""));
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(visible(child)));
  return node;
}

function ruleLink(rule) {
  if (!/^\d{3}(\.\d+[a-z]?)?$/.test(String(rule))) return document.createTextNode(visible(rule));
  return element("a", { href: `/docs/rules.html#r${rule}` }, rule);
}

// The server's SVG, parsed as XML (never as HTML) and kept only if it is the picture we draw:
// known elements and attributes, nothing that could run or load anything.
const SVG_ELEMENTS = new Set(["svg", "g", "rect", "text", "line", "title", "style"]);
const SVG_ATTRIBUTES = new Set(["xmlns", "width", "height", "viewBox", "role", "x", "y", "x1", "x2", "y1", "y2", "rx", "class", "text-anchor", "data-ability"]);

function showPicture(container, svg) {
  const parsed = new DOMParser().parseFromString(svg, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length) {
    container.replaceChildren(element("p", { class: "error" }, "the picture could not be read"));
    return;
  }
  for (const node of [root, ...root.querySelectorAll("*")]) {
    if (!SVG_ELEMENTS.has(node.localName)) {
      node.remove();
      continue;
    }
    for (const name of node.getAttributeNames()) if (!SVG_ATTRIBUTES.has(name)) node.removeAttribute(name);
  }
  container.replaceChildren(document.importNode(root, true));
}

async function call(method, body) {
  const response = await fetch(`/v1/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw data;
  return data;
}

function showError(problem) {
  const box = $("#error");
  if (!problem) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  box.textContent = visible(said(problem));
}

// What a refusal says: the server's detail, else the error's message.
function said(problem) {
  return problem.detail || problem.message || String(problem);
}

// -- 1. loading -------------------------------------------------------------------------------

async function loadExamples() {
  const response = await fetch("/page/examples");
  const examples = await response.json();
  const select = $("#example");
  for (const example of examples) select.append(element("option", { value: example.name }, example.name));
  select.addEventListener("change", () => {
    const chosen = examples.find((e) => e.name === select.value);
    if (!chosen) return;
    $("#scenario-text").value = chosen.scenario;
    $("#proposal-text").value = chosen.illegal || "";
    load();
  });
}

async function load() {
  showError(null);
  $("#loaded").textContent = "";
  try {
    const parsed = await fetch("/page/parse", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: $("#scenario-text").value }),
    });
    const data = await parsed.json();
    if (!parsed.ok) throw data;
    if (data.problem) throw data.problem;
    state.scenario = data.scenario;
    state.decisions = [];
    const explained = await call("explain", { scenario: state.scenario });
    renderExplain(explained);
    await showCards(state.scenario);
    $("#loaded").textContent = visible(`loaded: ${explained.abilities.length} waiting abilities, ${outcomesOf(explained)}`);
    for (const id of ["#explain", "#build", "#check"]) $(id).hidden = false;
  } catch (problem) {
    for (const id of ["#explain", "#build", "#check"]) $(id).hidden = true;
    showError(problem);
    return;
  }
  // what explain said stays on the page when building fails (a limit of this server, say)
  try {
    await refresh();
  } catch (problem) {
    showError(problem);
  }
}

// What explain says of the outcomes, in its own terms: a count, an endless loop, or the limit that
// stopped it before the later passes (docs/fields.md, passes_not_told) — never a number it did not give.
function outcomesOf(explained) {
  const count = explained.count;
  if (explained.loop) {
    return `an endless loop (${explained.loop.mandatory ? "mandatory: the game is a draw, 104.4b" : "optional: unboundedly many outcomes"})`;
  }
  if (count === undefined || count === null) return "outcomes not counted: later passes not told (below)";
  const merged = explained.count_merged_identical;
  const same = (explained.identical || []).map((group) => group.join(" = ")).join("; ");
  const interchangeable = merged !== undefined && merged !== null && String(merged) !== String(count) ? ` (${merged} when identical abilities are interchangeable: ${same})` : "";
  return `${count} legal outcome${count === "1" || count === 1 ? "" : "s"}${interchangeable}`;
}

// -- 2. explain -------------------------------------------------------------------------------

// A scenario that names cards (docs/cards.md): each card's Oracle text beside the abilities whose
// source it is, from the server's card method.
async function showCards(scenario) {
  const named = new Map();
  for (const o of scenario.objects || []) if (o && o.card) named.set(o.id, o.card);
  const reports = new Map(); // one question per card, however many of its abilities wait
  for (const t of scenario.triggers || []) {
    const name = named.get(t.source);
    const card = name && document.querySelector(`#abilities article[data-ability="${CSS.escape(t.id)}"]`);
    if (!card) continue;
    if (!reports.has(name)) reports.set(name, call("card", { name }));
    const report = await reports.get(name);
    const oracle = element("details", { class: "oracle" }, element("summary", {}, `${report.name} — Oracle text`));
    for (const line of report.oracle_text.split("\n")) oracle.append(element("p", {}, line));
    card.append(oracle);
  }
}

function renderExplain(data) {
  const blocks = $("#blocks");
  blocks.replaceChildren();
  for (const block of data.blocks) {
    blocks.append(element("li", {}, `${block.players.join("+")} (part ${block.part}): ${block.abilities.join(", ")} — `, ruleLink(block.rule)));
  }
  const list = $("#abilities");
  list.replaceChildren();
  if (data.loop) list.append(element("p", { class: "assumed" }, `Endless: ${data.loop.message} — `, ruleLink(data.loop.rule)));
  if (data.passes_not_told) list.append(element("p", { class: "assumed", id: "passes-not-told" }, `Later passes not told: ${data.passes_not_told}`));
  for (const r of data.reactions || []) {
    const fires = (r.fires || []).length ? `fires ${r.fires.join(", ")} in pass ${(r.passes || []).join(", ")}` : "fires nothing here";
    list.append(element("p", { class: "reaction" }, `Reaction ${r.id} (${r.when} of ${r.object}, by ${r.by}): ${fires} — `, ruleLink("603.3b")));
  }
  for (const a of [...data.abilities, ...(data.fired || [])]) {
    const card = element("article", { class: "ability", "data-ability": a.id, "data-pass": String(a.pass || 1) });
    const where = a.pass ? ` (pass ${a.pass}, fired by ${a.fired_by})` : "";
    card.append(element("h3", {}, `${a.id}${where}: ${a.text || ""}`));
    card.append(element("p", { class: "why" }, `controller ${a.controller}: ${a.controller_reason} (`, ruleLink(a.controller_rule), ")"));
    if (a.controller_assumed) card.append(element("p", { class: "assumed" }, `assumed: ${a.controller_assumed} (`, ruleLink("603.10a"), ")"));
    if (a.chooser && a.chooser !== a.controller) card.append(element("p", { class: "why" }, `choices made by ${a.chooser} (`, ruleLink("700.2e"), ")"));
    const removal = a.removal === "must" ? "must be removed" : a.removal === "may" ? "may be removed" : "cannot be removed";
    // the judge's rule, never one read out of the words (an ability's 'illegal' text may name any number)
    card.append(element("p", {}, `${removal}${a.removal_reason ? `: ${a.removal_reason}` : ""}`, a.removal_rule ? " — " : "", a.removal_rule ? ruleLink(a.removal_rule) : ""));
    for (const mode of a.modes || []) {
      if (!a.modal && !(mode.requirements || []).length) continue; // no mode, no targets: nothing to say
      const title = mode.id ? `mode ${mode.called}: ${mode.status}` : "targets";
      const section = element("div", {}, element("strong", {}, title), mode.reason ? ` (${mode.reason})` : "");
      const items = element("ul");
      for (const r of mode.requirements || []) {
        const legal = (r.legal || []).join(", ") || "none";
        const later = (r.legal_once_on_stack || []).length ? `; once on the stack below: ${r.legal_once_on_stack.join(", ")}` : "";
        const item = element("li", {}, `${r.called} (${r.min}–${r.max === null ? "any" : r.max}): legal ${legal}${later}`);
        // the exclusions a rule makes first (hexproof, protection …), those the filter makes last
        const all = [...(r.excluded || []), ...(r.ignored || [])];
        const ordered = [...all.filter((x) => x.code !== "target-filter"), ...all.filter((x) => x.code === "target-filter")];
        const reasons = ordered.map((x) => element("li", {}, `${x.id}: ${x.reason} — `, ruleLink(x.rule)));
        if (reasons.length) item.append(element("ul", {}, ...reasons.slice(0, FOLDED)));
        if (reasons.length > FOLDED) {
          // each thing once: a thing excluded for two reasons (the ability itself, 115.5, and the filter) is one other
          const shown = new Set(ordered.slice(0, FOLDED).map((x) => x.id));
          const others = new Set(ordered.slice(FOLDED).map((x) => x.id).filter((id) => !shown.has(id))).size;
          const label = others ? `${others} other${others === 1 ? "" : "s"} excluded` : `${reasons.length - FOLDED} more reasons`;
          const more = element("details", { class: "more" }, element("summary", {}, label));
          more.append(element("ul", {}, ...reasons.slice(FOLDED)));
          item.append(more);
        }
        items.append(item);
      }
      if (items.childElementCount) section.append(items);
      card.append(section);
    }
    list.append(card);
  }
}

// -- 3. building the stack --------------------------------------------------------------------

function pictureWidth(container) {
  return Math.max(280, Math.min(1600, Math.floor(container.clientWidth || 560)));
}

async function refresh(vanished = []) {
  const body = { scenario: state.scenario, decisions: state.decisions };
  const drawn = { ...body, width: pictureWidth($("#stack")) };
  // a count the server's limits stop is said as such; the walk itself goes on where it can
  const counted = call("step/count", body).catch((problem) => ({ problem }));
  const [walk, picture, reachable] = await Promise.all([call("step/legal", body), call("draw", drawn), counted]);
  state.over = walk.over;
  const pass = walk.in_pass > 1 ? `Pass ${walk.in_pass} (abilities that triggered while pass ${walk.in_pass - 1} was put on the stack) — ` : "";
  const hand = walk.in_hand ? ` announcing ${walk.in_hand}'s choices` : "";
  $("#decider").textContent = visible(walk.over ? "The walk is over: every waiting ability is on the stack or removed." : `${pass}${walk.decider} decides${hand}:`);
  const buttons = $("#decisions");
  buttons.replaceChildren();
  for (const d of walk.legal) {
    // a mode shows its own words after its readable form (docs/formats.md, modes)
    const words = d.words ? [" ", element("span", { class: "words" }, d.words)] : [];
    const button = element("button", { type: "button", class: d.kind, "data-id": String(d.id), "data-text": d.text }, d.text, ...words);
    button.addEventListener("click", () => apply(d.id));
    buttons.append(button);
  }
  showPicture($("#stack"), picture.svg);
  $("#reachable").textContent = visible(reachable.problem
    ? `outcomes still reachable not counted: ${said(reachable.problem)}`
    : `${reachable.exact ? "" : "at least "}${reachable.count} outcome${reachable.count === 1 ? "" : "s"} still reachable`);
  $("#undo").disabled = state.decisions.length === 0;
  $("#use-built").disabled = !walk.over;
  showVanished(vanished);
  state.offered = walk.legal;
  document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
  const first = buttons.querySelector("button");
  if (first && state.decisions.length) first.focus(); // keyboard users go on with Enter
}

async function apply(id) {
  try {
    const walk = await call("step/apply", { scenario: state.scenario, decisions: state.decisions, decision: id });
    const now = new Set(walk.legal.map((d) => d.id));
    const vanished = state.offered.filter((d) => d.id !== id && !now.has(d.id));
    state.decisions = walk.decisions;
    await refresh(vanished);
  } catch (problem) {
    showError(problem);
  }
}

// A decision offered a moment ago and no longer: "why not?" asks the server (step.why) and shows
// the rule it would break now, from the same facts explain uses; nothing is taken.
function showVanished(vanished) {
  const list = $("#vanished");
  list.replaceChildren();
  list.hidden = vanished.length === 0;
  if (!vanished.length) return;
  list.append(element("p", { class: "label" }, "No longer offered:"));
  for (const d of vanished) {
    const why = element("span", { class: "why-not" });
    const button = element("button", { type: "button", class: "why", "data-id": String(d.id) }, `why not ${d.text}?`);
    button.addEventListener("click", async () => {
      try {
        const answer = await call("step/why", { scenario: state.scenario, decisions: state.decisions, decision: d.id });
        if (answer.legal) why.replaceChildren(" it is legal now");
        else if (answer.later) why.replaceChildren(element("strong", {}, " legal, not yet: "), answer.reason);
        else why.replaceChildren(` ${answer.reason}`, answer.rule ? " — " : "", answer.rule ? ruleLink(answer.rule) : "");
      } catch (problem) {
        showError(problem);
      }
    });
    list.append(element("div", {}, button, why));
  }
}

// -- 4. checking ------------------------------------------------------------------------------

async function check() {
  $("#violations").replaceChildren();
  $("#verdict").textContent = "";
  let proposal;
  try {
    proposal = JSON.parse($("#proposal-text").value);
  } catch (error) {
    $("#verdict").replaceChildren(element("span", { class: "bad" }, `not JSON: ${error.message}`));
    return;
  }
  try {
    const verdict = await call("check", { scenario: state.scenario, proposal });
    $("#verdict").replaceChildren(
      verdict.legal ? element("span", { class: "ok" }, "legal") : element("span", { class: "bad" }, `illegal: ${verdict.violations.length} violation${verdict.violations.length === 1 ? "" : "s"}`),
    );
    for (const v of verdict.violations) {
      $("#violations").append(element("li", {}, `${v.ability || "the proposal"}: ${v.message} (${v.code}, `, ruleLink(v.rule), ")"));
    }
    const picture = await call("draw", { scenario: state.scenario, proposal, width: pictureWidth($("#checked")) });
    showPicture($("#checked"), picture.svg);
    document.body.dataset.checked = String(Number(document.body.dataset.checked || 0) + 1);
  } catch (problem) {
    $("#verdict").replaceChildren(element("span", { class: "bad" }, problem.detail || String(problem)));
  }
}

async function useBuilt() {
  const built = await call("step/outcome", { scenario: state.scenario, decisions: state.decisions });
  $("#proposal-text").value = JSON.stringify(built.outcome, null, 1);
  $("#check-button").focus();
}

// -- wiring -----------------------------------------------------------------------------------

$("#load-button").addEventListener("click", load);
$("#file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  $("#scenario-text").value = await file.text();
  load();
});
$("#undo").addEventListener("click", async () => {
  state.decisions = state.decisions.slice(0, -1);
  await refresh();
});
$("#restart").addEventListener("click", async () => {
  state.decisions = [];
  await refresh();
});
$("#check-button").addEventListener("click", check);
$("#use-built").addEventListener("click", useBuilt);
loadExamples();
