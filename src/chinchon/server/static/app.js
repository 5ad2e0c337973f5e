// chinchon table server: the page. Plain JavaScript modules, no build step, no library.
// Speaks the JSON protocol of docs/protocol.md over one WebSocket (/ws).
// Every text that comes from a player (names) is written with textContent, never as
// markup; the page is served with a Content-Security-Policy that runs only its own
// scripts. This one connects, routes the messages, runs the lobby and wires the
// controls; cards.js draws, state.js holds, table.js lays out the table.

import { $, el, toast, useFaces } from "./cards.js";
import { send, state, store } from "./state.js";
import { renderTable, tickClocks } from "./table.js";

const PROTOCOL = 1;

// ------------------------------------------------------------------ connection
function setConn(cls, text) {
  $("conn").className = "conn " + cls;
  $("conn-text").textContent = text;
}

function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  const ws = new WebSocket(url);
  state.ws = ws;
  setConn("", "connecting…");
  ws.onopen = () => { state.retry = 0; setConn("ok", "connected"); };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    onMessage(msg);
  };
  ws.onclose = () => {
    if (state.replaced) {  // another window took this seat: no tug of war
      setConn("down", "open in another window");
      return;
    }
    setConn("down", "reconnecting…");
    const wait = Math.min(8000, 400 * 2 ** state.retry++);
    setTimeout(connect, wait);
  };
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      if (msg.v !== PROTOCOL) toast(`This page speaks protocol ${PROTOCOL}, the server ${msg.v}`, true);
      state.welcome = msg;
      useFaces(msg.cards);
      fillCreateForm();
      route();
      break;
    case "lobby":
      state.lobby = msg.tables;
      renderLobby();
      break;
    case "seated":
      state.table = msg.table;
      state.seat = msg.seat;
      if (msg.token) store.saveSeat(msg.table, msg.seat, msg.token);
      if (location.hash !== "#t=" + msg.table) history.replaceState(null, "", "#t=" + msg.table);
      showTable();
      break;
    case "view":
      if (msg.table !== state.table) return;
      state.view = msg;
      renderTable();
      break;
    case "left":
      backToLobby();
      break;
    case "replaced":
      state.replaced = true;
      toast("This seat is now open in another window. Reload this page to play here.", true);
      if (state.view) {  // nothing here to click any more: the moves are the other window's
        state.view = Object.assign({}, state.view, { hints: null, close_card: null,
          can: { start: false, leave: false, draw: [], discard: false, close: false,
                 rejoin: false, ready: false } });
        renderTable();
      }
      break;
    case "error":
      if (msg.code === "bad_token" || msg.code === "no_table") {
        if (state.table) store.forget(state.table);
        backToLobby();
      }
      toast(msg.message, true);
      break;
  }
}

// after (re)connecting: back to our table if the URL names one we hold a seat at
function route() {
  const m = /^#t=([\w-]+)$/.exec(location.hash);
  const seats = store.seats();
  if (m && seats[m[1]]) {
    state.table = m[1];
    send({ type: "resume", table: m[1], seat: seats[m[1]].seat, token: seats[m[1]].token });
  } else {
    showLobby();
  }
}

// ------------------------------------------------------------------ lobby
function backToLobby() {
  state.table = null; state.view = null;
  history.replaceState(null, "", "#");
  showLobby();
}

// leave the table; `forget`: drop its saved seat too (nothing to come back to)
function leave(forget) {
  if (forget && state.table) store.forget(state.table);
  send({ type: "leave" });
  backToLobby();
}

function fillCreateForm() {
  const w = state.welcome;
  const players = $("players"), rules = $("rules"), kind = $("bot-kind");
  const counts = w.players && w.players.length ? w.players : [2, 3, 4, 5, 6];
  players.replaceChildren(...counts.map((n) => el("option", { value: n, text: String(n) })));
  players.value = counts.includes(4) ? "4" : String(counts[0]);
  rules.replaceChildren(...Object.keys(w.presets).map((name) => el("option", { value: name, text: name })));
  kind.replaceChildren(...w.bots.map((b) => el("option", { value: b, text: b })));
  if (w.bots.includes("greedy")) kind.value = "greedy";
  fillBots();
  describeRules();
}

function fillBots() {
  const n = Number($("players").value);
  const bots = $("bots");
  const keep = bots.value;
  bots.replaceChildren(...Array.from({ length: n }, (_, i) => el("option", { value: i, text: String(i) })));
  bots.value = keep !== "" && Number(keep) < n ? keep : String(n - 1);
}

// the chosen preset in words, as the welcome gives it
function describeRules() {
  const descriptions = (state.welcome && state.welcome.descriptions) || {};
  $("rules-note").textContent = descriptions[$("rules").value] || "";
}

function showLobby() {
  $("lobby").hidden = false;
  $("table").hidden = true;
  $("btn-leave").hidden = true;
  $("bar-table").textContent = "";
  $("name").value = store.name;
  send({ type: "lobby" });
  clearInterval(state.lobbyTimer);
  state.lobbyTimer = setInterval(() => { if (!$("lobby").hidden) send({ type: "lobby" }); }, 3000);
  renderLobby();
}

function myName() {
  const name = $("name").value.trim() || store.name.trim();
  if (!name) { toast("Type your name first.", true); $("name").focus(); return null; }
  store.name = name;
  return name;
}

function renderLobby() {
  const list = $("tables");
  const mine = store.seats();
  const rows = state.lobby.map((t) => {
    const names = el("span", { class: "names" }, ...t.seats.map((s) =>
      el("span", { class: "chip-name " + s.kind, text: s.kind === "open" ? "open seat" : s.name })));
    let action;
    if (mine[t.id]) {
      action = el("button", { type: "button", class: "primary", text: "Return",
                              onclick: () => resume(t.id) });
    } else if (t.status === "waiting" && t.open > 0) {
      action = el("button", { type: "button", class: "primary", text: "Join",
                              "data-join": t.id, onclick: () => join(t.id) });
    } else {
      action = el("span", { class: "badge live", text: `playing · hand ${t.hand_number}` });
    }
    return el("li", {}, el("span", { class: "tid", text: t.id }),
              el("span", { class: "badge", text: t.preset }), names, action);
  });
  list.replaceChildren(...(rows.length ? rows : [el("li", { class: "muted", text: "No table yet: create one." })]));
  const ids = Object.keys(mine).filter((id) => !state.lobby.some((t) => t.id === id));
  $("mine-panel").hidden = ids.length === 0;
  $("mine").replaceChildren(...ids.map((id) => el("li", {},
    el("span", { class: "tid", text: id }), el("span", { class: "names muted", text: `seat ${mine[id].seat + 1}` }),
    el("button", { type: "button", text: "Open", onclick: () => resume(id) }),
    el("button", { type: "button", class: "ghost", text: "Forget", onclick: () => { store.forget(id); renderLobby(); } }))));
}

function join(id) {
  const name = myName();
  if (name) send({ type: "join", table: id, name });
}

function resume(id) {
  const s = store.seats()[id];
  if (!s) return;
  state.table = id;
  send({ type: "resume", table: id, seat: s.seat, token: s.token });
}

// ------------------------------------------------------------------ the table
function showTable() {
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("btn-leave").hidden = false;
  clearInterval(state.lobbyTimer);
  state.showLast = false;
  if (!state.tick) state.tick = setInterval(tickClocks, 1000);
}

// ------------------------------------------------------------------ wiring
function wire() {
  $("players").addEventListener("change", fillBots);
  $("rules").addEventListener("change", describeRules);
  $("name").addEventListener("change", () => { store.name = $("name").value.trim(); });
  $("create-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = myName();
    if (!name) return;
    send({ type: "create", name, players: Number($("players").value), rules: $("rules").value,
           bots: Number($("bots").value), bot: $("bot-kind").value });
  });
  $("stock").addEventListener("click", () => {
    if (state.view && (state.view.can.draw || []).includes("stock")) send({ type: "draw", source: "stock" });
  });
  $("btn-discard").addEventListener("click", () => {
    if (state.selected) send({ type: "discard", card: state.selected });
  });
  $("btn-close").addEventListener("click", () => {
    const card = $("btn-close").dataset.card;
    if (card) send({ type: "close", card });
  });
  $("btn-start").addEventListener("click", () => send({ type: "start" }));
  $("btn-ready").addEventListener("click", () => send({ type: "ready" }));
  $("btn-rejoin").addEventListener("click", () => send({ type: "rejoin" }));
  $("btn-last-hand").addEventListener("click", () => { state.showLast = true; renderTable(); });
  $("summary").addEventListener("click", (ev) => {
    if (ev.target === $("summary") && state.showLast) { state.showLast = false; renderTable(); }
  });
  $("btn-lobby").addEventListener("click", () => leave(true));
  $("btn-leave").addEventListener("click", () => {
    const v = state.view;
    if (v && v.status === "playing" && !confirm("Leave the table? Your seat waits for you for a while; after that the game is cancelled for everyone.")) return;
    leave(!!v && v.status !== "playing");
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && state.showLast) { state.showLast = false; renderTable(); }
  });
  window.addEventListener("hashchange", () => { if (state.ws && state.ws.readyState === WebSocket.OPEN) route(); });
}

wire();
connect();
