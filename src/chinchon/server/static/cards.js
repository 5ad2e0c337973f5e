// chinchon table server, the page: what it draws with. Elements, the suit drawings,
// the cards as the welcome message gives their faces, and the toast. It parses no card.
// Every text that comes from a player is written with textContent, never as markup.

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
export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, ...children) {
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
let faces = null;

export function useFaces(cards) {
  faces = cards;
}

function face(text) {
  return (faces && faces[text]) || { rank: String(text), suit: "x", figure: "", name: String(text) };
}

export function cardName(text) {
  return face(text).name;
}

// a full-size card; `tag` is "div" or "button"
export function cardEl(text, tag = "div", extra = {}) {
  const f = face(text);
  // its name for a screen reader: the suit is drawn, not written (a button's own text,
  // "1" and its points, would be read without it)
  const node = el(tag, Object.assign({ class: `card s-${f.suit}`, "data-card": text,
                                        title: f.name, "aria-label": f.name }, extra));
  if (tag === "button") node.type = "button";
  else node.setAttribute("role", "img");
  node.append(el("span", { class: "rank", text: f.rank }), pip(f.suit, "mini"), pip(f.suit, "pip"));
  if (f.figure) node.append(el("span", { class: "face", text: f.figure }));
  return node;
}

export function miniCard(text) {
  const f = face(text);
  const node = el("span", { class: `mini-card s-${f.suit}`, title: f.name, "data-card": text,
                            role: "img", "aria-label": f.name });
  node.append(el("span", { class: "rank", text: f.rank }), pip(f.suit));
  return node;
}

// the title of a meld's joker: what it stands for, when the server says
export function jokerTitle(meld) {
  const name = cardName(meld.joker);
  return meld.stands_for ? `${name}, as the ${cardName(meld.stands_for)}` : name;
}

export function toast(text, error) {
  const t = $("toast");
  t.textContent = text;
  t.className = "toast" + (error ? " error" : "");
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, error ? 5000 : 2500);
}
