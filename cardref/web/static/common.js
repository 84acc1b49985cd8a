// cardref pages: shared helpers (no framework, no build step, nothing from the internet).
"use strict";

const CR = (() => {
  const SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SUIT_ORDER = ["S", "H", "D", "C"];
  const RANKS = [null, "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

  // -- the control token: ?token=... once, then kept for this tab -----------------------------
  function token() {
    const fromUrl = new URLSearchParams(location.search).get("token");
    if (fromUrl) sessionStorage.setItem("cardref-token", fromUrl);
    return sessionStorage.getItem("cardref-token") || "";
  }
  function setToken(value) { sessionStorage.setItem("cardref-token", value || ""); }

  async function api(method, path, body, opts = {}) {
    const headers = { "X-Cardref-Token": token() };
    let payload = body;
    if (body !== undefined && !(body instanceof Blob) && !(body instanceof ArrayBuffer)) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    } else if (body instanceof Blob) {
      headers["Content-Type"] = body.type || "application/octet-stream";
    }
    const res = await fetch(path, { method, headers, body: payload, ...opts });
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
    if (!res.ok) {
      let detail = data && data.detail !== undefined ? data.detail : text;
      if (Array.isArray(detail)) detail = detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
      const err = new Error(`${res.status}: ${detail}`);
      err.status = res.status;
      throw err;
    }
    return data;
  }

  function now() { return (performance.timeOrigin + performance.now()) / 1000; }

  // -- the live socket: JSON text messages; a frame's JPEG follows as one binary message ------
  function connect({ frames = true, types = "", onMessage, onFrame, onOpen, onClose }) {
    let ws = null, pendingFrame = null, delay = 500, stopped = false;
    const stats = { latencies: [], received: 0 };
    function open() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const q = new URLSearchParams({ frames: frames ? "true" : "false" });
      if (types) q.set("types", types);
      ws = new WebSocket(`${proto}//${location.host}/ws/live?${q}`);
      ws.binaryType = "blob";
      ws.onopen = () => { delay = 500; onOpen && onOpen(); };
      ws.onmessage = (ev) => {
        if (typeof ev.data !== "string") {
          if (pendingFrame && onFrame) onFrame(pendingFrame, ev.data);
          pendingFrame = null;
          return;
        }
        const msg = JSON.parse(ev.data);
        stats.received += 1;
        if (msg.type === "frame") { pendingFrame = msg; return; }
        onMessage && onMessage(msg);
        if (msg.sent && (msg.type === "verdict" || msg.type === "call")) {
          // time from the referee's publish to this message being drawn, same machine clock
          requestAnimationFrame(() => {
            stats.latencies.push((now() - msg.sent) * 1000);
            if (stats.latencies.length > 2000) stats.latencies.shift();
          });
        }
      };
      ws.onclose = () => {
        onClose && onClose();
        if (!stopped) setTimeout(open, delay);
        delay = Math.min(delay * 2, 5000);
      };
    }
    open();
    return { stats, close() { stopped = true; ws && ws.close(); } };
  }

  // -- cards ------------------------------------------------------------------------------------
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function cardEl(code, { top = 0, left = 0, highlight = false } = {}) {
    const c = el("div", "card");
    c.style.top = `${top}px`;
    c.style.left = `${left}px`;
    if (code === null || code === undefined || code === "?" ) {
      c.classList.add("unknown");
      c.appendChild(el("div", "idx", "?"));
      c.dataset.card = "?";
    } else if (code === "BACK" || code === "") {
      c.classList.add("back");
      c.dataset.card = "BACK";
    } else {
      const suit = code.slice(-1).toUpperCase();
      const rank = code.slice(0, -1).toUpperCase().replace("T", "10");
      if (suit === "H" || suit === "D") c.classList.add("red");
      const idx = el("div", "idx");
      idx.innerHTML = `${rank}<br>${SUIT[suit] || suit}`;
      c.appendChild(idx);
      c.appendChild(el("div", "pip", SUIT[suit] || suit));
      c.dataset.card = `${rank}${suit}`;
      c.title = code;
    }
    if (highlight) c.classList.add("hl");
    return c;
  }

  function cardW() { return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--cw")) || 54; }
  function cardH() { return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--ch")) || 76; }

  // a pile: `down` backs (a count or a list) then `up` cards, fanned down (dy) or right (dx)
  function pileEl(down, up, { dy = 0, dx = 0, label = null, count = null, name = null, hl = [] } = {}) {
    const wrap = el("div");
    if (label) wrap.appendChild(el("div", "label", label));
    const p = el("div", "pile");
    if (name) p.dataset.pile = name;
    const nDown = Array.isArray(down) ? down.length : (down || 0);
    const ups = up || [];
    if (nDown + ups.length === 0) p.classList.add("empty");
    let y = 0, x = 0;
    const downStep = dy ? Math.max(4, dy / 3) : 0;
    for (let i = 0; i < nDown; i++) { p.appendChild(cardEl("BACK", { top: y, left: x })); y += downStep; }
    ups.forEach((code, i) => {
      p.appendChild(cardEl(code, { top: y, left: x, highlight: hl.includes(code) }));
      if (i < ups.length - 1) { y += dy; x += dx; }
    });
    p.style.height = `${y + cardH()}px`;
    p.style.width = `${x + cardW()}px`;
    if (count !== null && count !== undefined) p.appendChild(el("span", "count", String(count)));
    wrap.appendChild(p);
    return wrap;
  }

  function asDown(v) { return Array.isArray(v) ? v.length : (typeof v === "number" ? v : 0); }
  function asList(v) { return Array.isArray(v) ? v : (v ? [v] : []); }

  function drawKlondike(box, s, hl) {
    const top = el("div", "line");
    const stockN = Array.isArray(s.stock) ? s.stock.length : (s.stock || 0);
    top.appendChild(pileEl(stockN ? 1 : 0, [], { label: "stock", count: stockN, name: "stock" }));
    const waste = s.waste || [];
    top.appendChild(pileEl(0, waste.slice(-3), { dx: Math.round(cardW() * 0.33), label: "waste", count: waste.length, name: "waste", hl }));
    top.appendChild(el("div", "gap"));
    const f = s.foundations || {};
    for (const suit of SUIT_ORDER) {
      const rank = f[suit] || 0;
      top.appendChild(pileEl(0, rank ? [RANKS[rank] + suit] : [], { label: SUIT[suit], name: `foundation:${suit}`, hl }));
    }
    box.appendChild(top);
    const tab = el("div", "line");
    (s.tableau || []).forEach((p, i) => {
      const down = p.down !== undefined ? p.down : 0;
      tab.appendChild(pileEl(down, p.up || [], { dy: Math.round(cardH() * 0.3), label: `t${i + 1}`, name: `t${i + 1}`, hl }));
    });
    box.appendChild(tab);
  }

  function drawDouble(box, s, players, hl) {
    // Double Solitaire (K17): each player's Klondike layout, the shared foundations between them
    const seat = (p, i) => {
      const sd = el("div", "seat");
      const turn = s.turn === i + 1 ? " · to move" : "";
      sd.appendChild(el("h3", null, `${players[i] || `Player ${i + 1}`} · ${p.cards_up || 0} up${turn}`));
      const top = el("div", "line");
      const stockN = asDown(p.stock);
      top.appendChild(pileEl(stockN ? 1 : 0, [], { label: "stock", count: stockN }));
      const waste = p.waste || [];
      top.appendChild(pileEl(0, waste.slice(-3), { dx: Math.round(cardW() * 0.33), label: "waste", count: waste.length, hl }));
      sd.appendChild(top);
      const tab = el("div", "line");
      (p.tableau || []).forEach((c, j) => {
        tab.appendChild(pileEl(asDown(c.down), c.up || [], { dy: Math.round(cardH() * 0.3), label: `t${j + 1}`, hl }));
      });
      sd.appendChild(tab);
      return sd;
    };
    const seats = s.players || [];
    if (seats[1]) box.appendChild(seat(seats[1], 1));
    const found = el("div", "line");
    found.appendChild(el("div", "label", "foundations"));
    (s.foundations || []).forEach((pile, k) => {
      const cards = asList(pile);
      found.appendChild(pileEl(0, cards.slice(-1), { label: `f${k + 1}`, count: cards.length, hl }));
    });
    box.appendChild(found);
    if (seats[0]) box.appendChild(seat(seats[0], 0));
  }

  function drawSeats(box, s, players, hl, game) {
    // a match of several rounds: which round this is and the rounds each player has won
    const won = s.wins || s.score;
    if (s.round > 1 || (won && won.some((n) => n > 0))) box.appendChild(el("div", "label", `round ${s.round || 1}`));
    (s.players || []).forEach((seat, i) => {
      const sd = el("div", "seat");
      const name = players[i] || `Player ${i + 1}`;
      sd.appendChild(el("h3", null, won && won[i] ? `${name} · ${won[i]} round${won[i] === 1 ? "" : "s"} won` : name));
      const line = el("div", "line");
      const stockN = asDown(seat.stock);
      line.appendChild(pileEl(stockN ? 1 : 0, [], { label: "stock", count: stockN }));
      const piles = game === "stress" ? (seat.row || []) : (seat.piles || []);
      piles.forEach((p, j) => {
        if (p && !Array.isArray(p) && typeof p === "object") {
          line.appendChild(pileEl(asDown(p.down), p.up || [], { dy: Math.round(cardH() * 0.28), label: `${j + 1}`, hl }));
        } else {
          const cards = asList(p);
          const fan = game === "stress" ? cards : cards.slice(-1);
          const down = game === "stress" ? 0 : Math.max(0, cards.length - 1);
          line.appendChild(pileEl(down, fan, { dy: Math.round(cardH() * 0.2), label: `${j + 1}`, hl }));
        }
      });
      if (seat.hand) line.appendChild(pileEl(asDown(seat.hand), [], { label: "hand", count: asDown(seat.hand) }));
      sd.appendChild(line);
      box.appendChild(sd);
    });
    const centre = el("div", "line");
    centre.appendChild(el("div", "label", "centre"));
    (s.centre || []).forEach((p, j) => {
      const cards = asList(p);
      centre.appendChild(pileEl(0, cards.slice(-1), { label: `centre ${j + 1}`, count: cards.length, name: `centre${j}`, hl }));
    });
    box.appendChild(centre);
  }

  function drawState(box, msg, hl = []) {
    box.innerHTML = "";
    if (!msg || !msg.state) { box.appendChild(el("div", "muted", "No game yet.")); return; }
    const game = msg.game || "klondike";
    const s = msg.state;
    if (Array.isArray(s.tableau)) drawKlondike(box, s, hl);
    else if (Array.isArray(s.players) && s.players.length && Array.isArray(s.players[0].tableau)) drawDouble(box, s, msg.players || [], hl);
    else if (Array.isArray(s.players)) drawSeats(box, s, msg.players || [], hl, game);
    else box.appendChild(el("pre", "raw", JSON.stringify(s, null, 1)));  // a game the pages cannot draw yet
  }

  function fmtTime(s) {
    if (s === null || s === undefined || isNaN(s)) return "–";
    s = Math.max(0, Math.floor(s));
    const m = Math.floor(s / 60), r = s % 60;
    return `${m}:${String(r).padStart(2, "0")}`;
  }

  // The game clock both pages show: the time the latest state gave, run on between states (a quiet table
  // sends none for a while) only while a game is played live, never for a replay. A replay's states say
  // where its game is; a live table's states do not, its session does (paused, ended, not started).
  function gameClock() {
    let base = null, at = 0, state = null, phase = null;
    const playing = () => (state.phase !== undefined ? state.phase === "playing" : phase === null || phase === "playing");
    const running = () => state !== null && state.source !== "replay" && playing();
    const value = () => (base === null ? null : base + (running() ? now() - at : 0));
    return {
      state(msg) {
        state = msg;
        base = (msg.timers && msg.timers.game_s) ?? msg.t ?? 0;
        at = now();
      },
      session(msg) {
        if (!msg.phase || msg.phase === phase) return;
        if (base !== null) { base = value(); at = now(); }  // stopped where it stands; paused time is not counted
        phase = msg.phase;
      },
      phase: () => phase,
      running,
      value,
    };
  }

  function describe(msg) {
    // one line for a verdict or a call, as the move list shows it
    if (msg.type === "call" || msg.kind === "call") {
      const c = msg.call || (msg.data && msg.data.type);
      return `${String(c).toUpperCase().replace("_", " ")}${msg.text ? ": " + msg.text : msg.detail ? ": " + msg.detail : ""}`;
    }
    switch (msg.kind) {
      case "legal": case "move": return `${msg.text || ""}${msg.score_delta ? `  (${msg.score_delta > 0 ? "+" : ""}${msg.score_delta})` : ""}`;
      case "illegal": return `ILLEGAL ${msg.text || ""} ${msg.rule}: ${msg.reason}`;
      case "unrecognised":  // the log keeps a view left undecided as unrecognised, why "ambiguous"
        return msg.why === "ambiguous" ? `unclear: ${msg.detail || ""}` : `unrecognised change: ${msg.detail || ""}`;
      case "ambiguous": return `unclear: ${msg.detail || ""}`;
      case "taken_back": return msg.detail || `illegal move taken back`;
      case "withdrawn": return `call withdrawn: ${msg.detail || ""}`;
      case "rejoined": return msg.detail || `took the table up again as it lies`;
      case "correction": return `correction: ${msg.action || ""} ${msg.target ? "#" + msg.target : ""} ${msg.reason || ""}`;
      case "slap": return `slap by player ${(msg.player ?? 0) + 1}`;
      case "note": return `note: ${msg.text || ""}`;
      default: return msg.text || msg.kind || "";
    }
  }

  function nav(here) {
    const n = el("nav", "top");
    n.appendChild(el("span", "brand", "cardref"));
    for (const [href, name] of [["/", "Live"], ["/referee", "Referee"], ["/setup", "Setup"], ["/phone", "Phone camera"], ["/review", "Review"], ["/docs", "API"]]) {
      const a = el("a", href === here ? "here" : "", name);
      a.href = href;
      n.appendChild(a);
    }
    n.appendChild(el("span", "spacer"));
    const pill = el("span", "pill", "connecting…");
    pill.id = "camera-pill";
    n.appendChild(pill);
    document.body.prepend(n);
    fetch("/api/live").then((r) => r.json()).then((s) => { if (pill.textContent === "connecting…") showStatus(pill, s.status || { camera: "offline" }); }).catch(() => {});
    return pill;
  }

  function showStatus(pill, st) {
    if (!st) return;
    const cam = st.camera || "unknown";
    pill.className = `pill ${cam}`;
    const fps = st.fps ? ` · ${Number(st.fps).toFixed(1)} fps` : "";
    const dropped = st.dropped ? ` · ${st.dropped} dropped` : "";
    const size = st.frame_size ? ` · ${st.frame_size[0]}×${st.frame_size[1]}` : "";
    const coarse = st.warning ? " · too coarse to read some piles" : "";
    pill.textContent = `camera ${cam}${size}${fps}${dropped}${coarse}`;
    pill.title = st.error || st.warning || "";
  }

  return { api, connect, token, setToken, el, cardEl, pileEl, drawState, fmtTime, gameClock, describe, nav, showStatus, now, SUIT };
})();
