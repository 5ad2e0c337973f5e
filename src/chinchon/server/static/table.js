// chinchon table server, the page: the table. Seats, piles, the hand with its hints,
// the prompt, the settlement between hands and the end of the game, each drawn from
// the last view the server sent (the meld kinds and cards in table order come in it).

import { $, el, cardEl, cardName, jokerTitle, miniCard } from "./cards.js";
import { send, state } from "./state.js";

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

export function renderTable() {
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
    // the card the Close button offers; another card chosen may not close
    text = v.can.close && v.close_card ? `You can close with the ${cardName(v.close_card)}, or choose a card to discard.`
                                       : "Choose a card to discard.";
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
  // the selection is a place in the hand (the cards in the order shown, v.hand's), so
  // that one of two copies of a card (two decks) is chosen, not both
  if (!discarding || v.hand[state.selectedAt] !== state.selected) {
    state.selected = null;
    state.selectedAt = null;
  }
  let best = null;
  if (hints) best = Math.min(...Object.values(hints).map((h) => h.points));
  // the card just drawn from the stock or the discard: the copy not held before (none
  // when the hand before is not known: a page just loaded)
  const left = new Map();
  for (const c of state.prevHand || v.hand) left.set(c, (left.get(c) || 0) + 1);
  const isNew = v.hand.map((c) => {
    const k = left.get(c) || 0;
    left.set(c, k - 1);
    return !!v.can.discard && k <= 0;
  });
  state.prevHand = v.hand;
  const groups = v.arranged.melds.map((m) => ({ cards: m.cards, meld: m }));
  if (v.arranged.unmatched.length) groups.push({ cards: v.arranged.unmatched, meld: null });
  let at = 0;
  hand.replaceChildren(...groups.map((grp) => el("div",
    { class: "group" + (grp.meld ? " meld" : ""), "data-label": grp.meld ? grp.meld.kind : "" },
    ...grp.cards.map((c) => {
      const node = handCard(c, at, hints, best, discarding, isNew[at]);
      at += 1;
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

function handCard(c, at, hints, best, discarding, isNew) {
  const node = cardEl(c, discarding ? "button" : "div");
  if (isNew) node.classList.add("new");
  if (discarding) {
    node.classList.add("clickable");
    node.addEventListener("click", () => {
      const again = state.selectedAt === at;
      state.selected = again ? null : c;
      state.selectedAt = again ? null : at;
      renderHand(state.view);
      // the hand is drawn anew: the keyboard's place stays on this card
      const same = $("hand").querySelectorAll(".card")[at];
      if (same) same.focus();
    });
    node.addEventListener("dblclick", () => send({ type: "discard", card: c }));
    const h = hints[c];
    if (h) {
      const mark = h.close ? state.welcome.outcomes[h.close].mark : null;
      const cls = "left" + (mark ? " marked" : h.close ? " can-close" : h.points === best ? " best" : "");
      const label = mark || String(h.points);
      const says = h.close ? `keeps ${h.points} points; you may close` : `keeps ${h.points} points`;
      node.append(el("span", { class: cls, "data-points": h.points, "data-close": h.close || "",
                               title: says, text: label }));
      node.setAttribute("aria-label", `${cardName(c)}, ${says}`);
    }
    if (state.selectedAt === at) node.classList.add("selected");
    node.setAttribute("aria-pressed", String(state.selectedAt === at));
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
    // out at this hand, and back in since (a rejoin): its total is the one it came back at
    const back = out && g.in_game[seat];
    return el("div", { class: "srow" + (pos === 0 && s ? " closer" : ""), "data-seat": seat },
      el("div", { class: "sname" }, seatName(v, seat) + (seat === v.you ? " (you)" : ""),
         el("small", { text: pos === 0 && s ? "closed" : "" }),
         out ? el("span", { class: back ? "out-tag rejoined" : "out-tag",
                            text: back ? "rejoined" : "out of the game" }) : null),
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
export function tickClocks() {
  for (const node of document.querySelectorAll("[data-countdown]")) {
    const left = Math.max(0, Number(node.dataset.countdown) - 1);
    node.dataset.countdown = left;
    if (node.id === "summary-wait") node.textContent = `${node.dataset.prefix || ""}next hand in ${Math.ceil(left)} s`;
    else node.textContent = `away ${Math.ceil(left)} s`;
  }
}
