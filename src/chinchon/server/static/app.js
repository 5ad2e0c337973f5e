// chinchon table server: the page. Plain JavaScript, no build step, no library.
// Speaks the JSON protocol of docs/protocol.md over one WebSocket (/ws).
// Every text that comes from a player (names) is written with textContent, never as
// markup; the page is served with a Content-Security-Policy that runs only this file.
// The page draws what the server sends: card faces and outcome words come in the
// welcome, each meld's kind and cards in table order in the view. It parses no card.
"use strict";

(() => {
  const PROTOCOL = 1;
  const SVGNS = "http://www.w3.org/2000/svg";

  // suit drawings: [element, attributes] on a 24x24 box (constants, not user data)
  const PIPS = {
    o: [["circle", { cx: 12, cy: 12, r: 9.5, fill: "#e2b007", stroke: "#8a6a00", "stroke-width": 1.4 }],
        ["circle", { cx: 12, cy: 12, r: 5.2, fill: "none", stroke: "#8a6a00", "stroke-width": 1.2 }],
        ["circle", { cx: 12, cy: 12, r: 1.8, fill: "#8a6a00" }]],
    c: [["path", { d: "M5 3.5h14c0 5.6-2.7 9-7 9.4C7.7 12.5 5 9.1 5 3.5z", fill: "#c0392b", stroke: "#7f1d1d", "stroke-width": 1 }],
        ["rect", { x: 10.8, y: 12.8, width: 2.4, height: 5.2, fill: "#c0392b" }],
        ["path", { d: "M7.5 18.2h9l1 2.6h-11z", fill: "#c0392b", stroke: "#7f1d1d", "stroke-width": 0.8 }]],
    e: [["path", { d: "M12 1.5l2.1 3v10.8h-4.2V4.5z", fill: "#9db4d6", stroke: "#2c5aa0", "stroke-width": 1 }],
        ["rect", { x: 6, y: 15.2, width: 12, height: 2.3, rx: 1, fill: "#2c5aa0" }],
        ["rect", { x: 10.9, y: 17.4, width: 2.2, height: 3.8, fill: "#7a4a1a" }],
        ["circle", { cx: 12, cy: 22, r: 1.4, fill: "#2c5aa0" }]],
    b: [["path", { d: "M8.2 2.8c1.9-1.3 4.5-.7 5 1.6l-.6 16.2c-.1 1.9-3.3 1.9-3.5 0L7.3 6.1c-.2-1.4.1-2.5.9-3.3z", fill: "#3f8f46", stroke: "#1b5e20", "stroke-width": 1 }],
        ["circle", { cx: 12.6, cy: 8, r: 1.3, fill: "#1b5e20" }],
        ["circle", { cx: 9, cy: 12.5, r: 1.2, fill: "#1b5e20" }],
        ["circle", { cx: 12.2, cy: 15.5, r: 1.1, fill: "#1b5e20" }]],
    joker: [["path", { d: "M12 2l2.9 6.2 6.8.8-5 4.7 1.3 6.7L12 17.1l-6 3.3 1.3-6.7-5-4.7 6.8-.8z", fill: "#8e44ad", stroke: "#5b2c6f", "stroke-width": 1 }]],
  };

  // ------------------------------------------------------------------ helpers
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function pip(suit, cls) {
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    if (cls) svg.setAttribute("class", cls);
    svg.setAttribute("aria-hidden", "true");
    for (const [name, attrs] of PIPS[suit] || []) {
      const shape = document.createElementNS(SVGNS, name);
      for (const [k, v] of Object.entries(attrs)) shape.setAttribute(k, String(v));
      svg.append(shape);
    }
    return svg;
  }

  // a card's face as the welcome message gives it (a text it does not know: as is)
  function face(text) {
    const faces = state.welcome && state.welcome.cards;
    return (faces && faces[text]) || { rank: String(text), suit: "x", figure: "", name: String(text) };
  }

  function cardName(text) {
    return face(text).name;
  }

  // a full-size card; `tag` is "div" or "button"
  function cardEl(text, tag = "div", extra = {}) {
    const f = face(text);
    const node = el(tag, Object.assign({ class: `card s-${f.suit}`, "data-card": text,
                                          title: f.name }, extra));
    if (tag === "button") node.type = "button";
    node.append(el("span", { class: "rank", text: f.rank }), pip(f.suit, "mini"), pip(f.suit, "pip"));
    if (f.figure) node.append(el("span", { class: "face", text: f.figure }));
    return node;
  }

  function miniCard(text) {
    const f = face(text);
    const node = el("span", { class: `mini-card s-${f.suit}`, title: f.name, "data-card": text });
    node.append(el("span", { class: "rank", text: f.rank }), pip(f.suit));
    return node;
  }

  // the title of a meld's joker: what it stands for, when the server says
  function jokerTitle(meld) {
    const name = cardName(meld.joker);
    return meld.stands_for ? `${name}, as the ${cardName(meld.stands_for)}` : name;
  }

  function toast(text, error) {
    const t = $("toast");
    t.textContent = text;
    t.className = "toast" + (error ? " error" : "");
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, error ? 5000 : 2500);
  }

  // ------------------------------------------------------------------ saved seats
  const store = {
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

  // ------------------------------------------------------------------ connection
  const state = {
    ws: null, welcome: null, view: null, lobby: [], table: null, seat: null,
    selected: null, nextId: 1, retry: 0, showLast: false, replaced: false,
    lobbyTimer: null, tick: null, prevHand: [],
  };

  function send(msg) {
    if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
      toast("Not connected; trying again…", true);
      return;
    }
    msg.id = state.nextId++;
    state.ws.send(JSON.stringify(msg));
  }

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
    const counts = w.players && w.players.length ? w.players : [3, 4, 5, 6];
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

  function describeRules() {
    const r = state.welcome && state.welcome.presets[$("rules").value];
    if (!r) return;
    $("rules-note").textContent =
      `Close with ${r.close_limit} points or less · out over ${r.eliminate_above} · ` +
      `minus ten: −${r.minus_ten} · ${r.rejoin_chips} rejoin chips · a dropped player's seat waits ${r.reconnect_seconds} s.`;
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

  function seatName(v, i) {
    return v.seats[i] ? v.seats[i].name : `seat ${i + 1}`;
  }

  function describeEvent(v) {
    const e = v.event;
    if (!e) return "";
    const who = e.seat !== undefined ? (e.seat === v.you ? "You" : seatName(v, e.seat)) : "";
    switch (e.kind) {
      case "create": return "Table created. Waiting for players…";
      case "join": return `${who} sat down.`;
      case "leave": return `${who} left the table.`;
      case "start": return "The game begins. Good luck!";
      case "draw":
        return e.source === "discard" ? `${who} took the ${cardName(e.card)} from the discard pile.`
          : e.card ? `${who} drew the ${cardName(e.card)} from the stock.` : `${who} drew from the stock.`;
      case "discard": return `${who} discarded the ${cardName(e.card)}.`;
      case "close": return `${who} closed the hand!`;
      case "rejoin": return `${who} spent a chip and is back in the game.`;
      case "ready": return `${who} is ready for the next hand.`;
      case "next_hand": return "A new hand is dealt.";
      case "disconnect": return `${who} lost the connection; the seat is held.`;
      case "reconnect": return e.seat === v.you ? "You are back." : `${who} is back.`;
      case "restart": return "The server restarted; everyone is reconnecting.";
      case "tick": return "";
      default: return "";
    }
  }

  function seatBox(v, i, mine) {
    const s = v.seats[i];
    const g = v.game;
    const box = el("div", { class: "seat" + (mine ? " mine" : ""), "data-seat": i });
    const tags = [];
    if (s.kind === "bot") tags.push(el("span", { class: "tag", text: "bot" }));
    if (s.kind === "open") tags.push(el("span", { class: "tag", text: "open seat" }));
    if (i === 0 && v.status === "waiting") tags.push(el("span", { class: "tag", text: "host" }));
    if (g && g.disconnected[String(i)] !== undefined) {
      tags.push(el("span", { class: "tag warn", "data-countdown": g.disconnected[String(i)],
                             text: `away ${Math.ceil(g.disconnected[String(i)])} s` }));
    } else if (s.kind === "human" && !s.connected) {
      tags.push(el("span", { class: "tag warn", text: "away" }));
    }
    if (g && !g.in_game[i]) tags.push(el("span", { class: "tag bad", text: "out" }));
    if (g && g.lead === i && g.phase !== "over") tags.push(el("span", { class: "tag", text: "lead" }));
    box.append(el("div", { class: "who" }, el("span", { class: "name", text: s.kind === "open" ? "—" : s.name }), ...tags));
    if (g) {
      const chips = el("span", { class: "chips", title: "rejoin chips" });
      const max = v.rules.rejoin_chips;
      for (let k = 0; k < max; k++) chips.append(el("i", { class: k < g.chips[i] ? "" : "spent" }));
      box.append(el("div", { class: "nums" }, el("span", { class: "total", text: String(g.totals[i]) }),
                    el("span", { text: "points" }), max ? chips : null));
      if (!mine && g.hand_sizes[i]) {
        box.append(el("div", { class: "backs" }, ...Array.from({ length: g.hand_sizes[i] }, () => el("span"))));
      }
      if (g.turn === i) box.classList.add("turn");
      if (!g.in_game[i]) box.classList.add("out");
    }
    return box;
  }

  function renderTable() {
    const v = state.view;
    if (!v) return;
    const g = v.game;
    const you = v.you;
    $("bar-table").textContent = `Table ${v.table} · ${v.preset}` + (g ? ` · hand ${g.hand_number}` : "");
    // seats: the others in play order starting after you
    const n = v.seats.length;
    const others = Array.from({ length: n - 1 }, (_, k) => (you + 1 + k) % n);
    $("opponents").replaceChildren(...others.map((i) => seatBox(v, i, false)));
    $("me-seat").replaceChildren(...seatBox(v, you, true).childNodes);
    $("me-seat").className = "seat mine" + (g && g.turn === you ? " turn" : "");

    // piles
    const stock = $("stock");
    const canDraw = v.can.draw || [];
    stock.classList.toggle("clickable", canDraw.includes("stock"));
    stock.disabled = !canDraw.includes("stock");
    stock.hidden = !g;
    $("stock-count").textContent = g ? `stock · ${g.stock_size}` : "";
    const pile = $("discard-pile");
    const top = g && g.discard_top;
    const slot = top ? cardEl(top, "button", { id: "discard", "aria-label": `Take the ${cardName(top)}` })
                     : el("button", { id: "discard", class: "card-slot", type: "button", disabled: true });
    if (canDraw.includes("discard")) slot.classList.add("clickable");
    else slot.disabled = true;
    slot.addEventListener("click", () => { if (canDraw.includes("discard")) send({ type: "draw", source: "discard" }); });
    pile.replaceChild(slot, $("discard"));
    $("discard-count").textContent = g ? `discard · ${g.discard_size}` : "";

    $("event").textContent = describeEvent(v);
    renderHand(v);
    renderPrompt(v);
    renderSummary(v);
    renderGameOver(v);
  }

  function renderPrompt(v) {
    const g = v.game;
    let text = "";
    if (v.status === "waiting") {
      const open = v.seats.filter((s) => s.kind === "open").length;
      text = `Waiting for ${open} more player${open === 1 ? "" : "s"}… share table ${v.table}.`;
    } else if (g && g.phase === "draw" && g.turn === v.you) {
      text = g.discard_top ? `Your turn: draw from the stock or take the ${cardName(g.discard_top)}.`
                           : "Your turn: draw from the stock.";
    } else if (g && g.phase === "discard" && g.turn === v.you) {
      text = v.can.close ? "You can close! Pick a card, or discard one." : "Choose a card to discard.";
    } else if (g && g.turn !== null && g.turn !== undefined) {
      text = `${seatName(v, g.turn)} is playing…`;
    }
    $("prompt").textContent = text;
    $("btn-start").hidden = !v.can.start;
  }

  function renderHand(v) {
    const hand = $("hand");
    const hints = v.hints;
    const discarding = !!v.can.discard && !!hints;
    if (!discarding) state.selected = null;
    if (state.selected && !v.hand.includes(state.selected)) state.selected = null;
    let best = null;
    if (hints) best = Math.min(...Object.values(hints).map((h) => h.points));
    // the card just drawn from the stock or the discard: the one not held before
    const before = new Set(state.prevHand);
    const drawn = v.can.discard ? v.hand.filter((c) => !before.has(c)) : [];
    state.prevHand = v.hand;
    const groups = v.arranged.melds.map((m) => ({ cards: m.cards, meld: m }));
    if (v.arranged.unmatched.length) groups.push({ cards: v.arranged.unmatched, meld: null });
    hand.replaceChildren(...groups.map((grp) => el("div",
      { class: "group" + (grp.meld ? " meld" : ""), "data-label": grp.meld ? grp.meld.kind : "" },
      ...grp.cards.map((c) => {
        const node = handCard(c, hints, best, discarding, drawn.includes(c));
        if (grp.meld && c === grp.meld.joker) node.title = jokerTitle(grp.meld);
        return node;
      }))));

    const sel = state.selected;
    const selHint = sel && hints ? hints[sel] : null;
    const btnD = $("btn-discard"), btnC = $("btn-close");
    btnD.disabled = !discarding || !sel;
    btnD.textContent = sel && discarding ? `Discard ${cardName(sel)}` : "Discard";
    const closeCard = sel ? (selHint && selHint.close ? sel : null) : (discarding ? v.close_card : null);
    const lit = discarding && !!closeCard;
    btnC.disabled = !lit;
    btnC.classList.toggle("lit", lit);
    btnC.dataset.card = closeCard || "";
    btnC.textContent = lit ? `Close with ${cardName(closeCard)}` : "Close";

    let note = "";
    if (discarding) note = "The number on each card: the points you keep if you discard it" +
                           (v.can.close ? " (green: you may close with it)." : ".");
    else if (v.deadwood !== null && v.deadwood !== undefined) note = `Points in your hand: ${v.deadwood}`;
    $("hand-note").textContent = note;
  }

  function handCard(c, hints, best, discarding, isNew) {
    const node = cardEl(c, discarding ? "button" : "div");
    if (isNew) node.classList.add("new");
    if (discarding) {
      node.classList.add("clickable");
      node.addEventListener("click", () => {
        state.selected = state.selected === c ? null : c;
        renderHand(state.view);
      });
      node.addEventListener("dblclick", () => send({ type: "discard", card: c }));
      const h = hints[c];
      if (h) {
        const mark = h.close ? state.welcome.outcomes[h.close].mark : null;
        const cls = "left" + (mark ? " marked" : h.close ? " can-close" : h.points === best ? " best" : "");
        const label = mark || String(h.points);
        node.append(el("span", { class: cls, "data-points": h.points, "data-close": h.close || "",
                                 title: h.close ? `keeps ${h.points} points; you may close` : `keeps ${h.points} points`,
                                 text: label }));
      }
      if (state.selected === c) node.classList.add("selected");
    }
    return node;
  }

  // ------------------------------------------------------------------ settlement
  function renderSummary(v) {
    const g = v.game;
    const inSummary = g && g.phase === "summary" && v.status === "playing";
    const show = inSummary || (state.showLast && g && g.last_hand);
    $("summary").hidden = !show;
    if (!show) return;
    const last = g.last_hand;
    if (!last) { $("summary").hidden = true; return; }
    const s = last.settlement;  // null in a void hand: nothing to lay out but the points
    const shown = g.last_hand_shown;
    $("summary-title").textContent = `Hand ${last.number}: ${shown.title}`;
    $("summary-sub").textContent = shown.note;
    const rows = last.order.map((seat, pos) => {
      const r = !s ? { layoffs: [], unmatched: [] } : pos === 0 ? s.closer : s.opponents[pos - 1];
      const parts = [];
      for (const m of shown.melds[pos]) {
        parts.push(el("span", { class: "minis meld", title: m.kind }, ...m.cards.map((c) => {
          const node = miniCard(c);
          if (c === m.joker) node.title = jokerTitle(m);
          return node;
        })));
      }
      for (const [card, idx] of r.layoffs || []) {
        const target = s.table[idx];
        parts.push(el("span", { class: "minis lay", title: "laid off" }, miniCard(card),
          el("span", { class: "lab", text: `on ${seatName(v, last.order[target.owner])}'s ${target.kind}` })));
      }
      if (r.unmatched.length) parts.push(el("span", { class: "minis loose" }, ...r.unmatched.map(miniCard)));
      if (!parts.length) parts.push(el("span", { class: "muted", text: "—" }));
      const pts = last.points[seat];
      const out = last.eliminated.includes(seat);
      return el("div", { class: "srow" + (pos === 0 && s ? " closer" : ""), "data-seat": seat },
        el("div", { class: "sname" }, seatName(v, seat) + (seat === v.you ? " (you)" : ""),
           el("small", { text: pos === 0 && s ? "closed" : "" }),
           out ? el("span", { class: "out-tag", text: "out of the game" }) : null),
        el("div", { class: "cards" }, ...parts),
        el("div", { class: "pts" + (pts < 0 ? " neg" : "") }, (pts > 0 ? "+" : "") + pts,
           el("small", { text: `total ${g.totals[seat]}` })));
    });
    $("settlement").replaceChildren(...rows);
    const rejoin = $("btn-rejoin");
    rejoin.hidden = !(inSummary && v.can.rejoin);
    rejoin.textContent = `Rejoin (${g.chips[v.you]} chip${g.chips[v.you] === 1 ? "" : "s"} left)`;
    $("btn-ready").hidden = !(inSummary && v.can.ready);
    const wait = $("summary-wait");
    if (inSummary && g.summary) {
      const waiting = v.seats.map((s, i) => i).filter((i) => v.seats[i].kind === "human" && v.seats[i].connected && !g.summary.ready[i]);
      wait.dataset.countdown = g.summary.seconds_left;
      wait.dataset.prefix = waiting.length ? `Waiting for ${waiting.map((i) => seatName(v, i)).join(", ")} · ` : "";
      wait.textContent = `${wait.dataset.prefix}next hand in ${Math.ceil(g.summary.seconds_left)} s`;
    } else {
      wait.textContent = "";
      delete wait.dataset.countdown;
    }
  }

  function renderGameOver(v) {
    const over = v.status === "over" && v.result;
    $("gameover").hidden = !over || state.showLast;
    if (!over) return;
    const r = v.result;
    let title;
    if (r.status === "won") title = r.winner === v.you ? "You win!" : `${seatName(v, r.winner)} wins`;
    else if (r.status === "draw") title = "A draw";
    else title = "Table cancelled";
    $("gameover-title").textContent = title;
    $("gameover-reason").textContent = r.reason || "";
    const g = v.game;
    const rows = v.seats.map((s, i) => el("tr", { class: r.winner === i ? "winner" : "" },
      el("td", { text: s.name + (i === v.you ? " (you)" : "") }),
      el("td", { class: "num", text: g ? String(g.totals[i]) : "" })));
    $("gameover-totals").replaceChildren(...rows);
    $("btn-last-hand").hidden = !(g && g.last_hand);
  }

  // countdowns between views (the server sends seconds left; the page counts down)
  function tickClocks() {
    for (const node of document.querySelectorAll("[data-countdown]")) {
      const left = Math.max(0, Number(node.dataset.countdown) - 1);
      node.dataset.countdown = left;
      if (node.id === "summary-wait") node.textContent = `${node.dataset.prefix || ""}next hand in ${Math.ceil(left)} s`;
      else node.textContent = `away ${Math.ceil(left)} s`;
    }
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
})();
