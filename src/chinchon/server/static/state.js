// chinchon table server, the page: what it holds (the state of the connection, the
// lobby and the table), the seats saved in this browser, and sending a message.

import { toast } from "./cards.js";

// ------------------------------------------------------------------ saved seats
export const store = {
  get name() { return localStorage.getItem("chinchon.name") || ""; },
  set name(v) { localStorage.setItem("chinchon.name", v); },
  seats() {
    try { return JSON.parse(localStorage.getItem("chinchon.seats") || "{}") || {}; }
    catch (e) { return {}; }
  },
  saveSeat(table, seat, token) {
    const all = this.seats();
    all[table] = { seat, token, at: Date.now() };
    localStorage.setItem("chinchon.seats", JSON.stringify(all));
  },
  forget(table) {
    const all = this.seats();
    delete all[table];
    localStorage.setItem("chinchon.seats", JSON.stringify(all));
  },
};

// ------------------------------------------------------------------ the page's state
export const state = {
  ws: null, welcome: null, view: null, lobby: [], table: null, seat: null,
  selected: null, selectedAt: null, nextId: 1, retry: 0, showLast: false, replaced: false,
  lobbyTimer: null, tick: null, prevHand: null,
};

export function send(msg) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
    toast("Not connected; trying again…", true);
    return;
  }
  msg.id = state.nextId++;
  state.ws.send(JSON.stringify(msg));
}
