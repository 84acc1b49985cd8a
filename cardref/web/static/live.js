// The live page: the camera picture with every recognised card outlined and named, the game as
// cards, the facts (score, time, cards left, standings) and the move list, all pushed over /ws/live.
"use strict";

(() => {
  const pill = CR.nav("/");
  const canvas = document.getElementById("camera");
  const ctx = canvas.getContext("2d");
  const nopic = document.getElementById("nopic");
  const board = document.getElementById("board");
  const moves = document.getElementById("moves");
  const banner = document.getElementById("banner");
  const facts = document.getElementById("facts");
  const phase = document.getElementById("phase");
  const title = document.getElementById("game-title");
  let state = null, highlight = [];
  const bySeq = new Map();

  function fact(k, v, id) {
    const f = CR.el("div", "fact");
    f.appendChild(CR.el("div", "k", k));
    const val = CR.el("div", "v", v);
    if (id) val.id = id;
    f.appendChild(val);
    return f;
  }

  function drawFacts() {
    facts.innerHTML = "";
    if (!state) return;
    const players = state.players || [];
    const scores = state.scores || (state.score !== undefined ? [state.score] : []);
    if (state.game === "klondike") {
      facts.appendChild(fact("score", scores.length ? scores[0] : "–", "score"));
    } else {
      scores.forEach((s, i) => facts.appendChild(fact(`${players[i] || "player " + (i + 1)} rounds`, s)));
    }
    facts.appendChild(fact("time", CR.fmtTime(clock.value()), "timer"));
    facts.appendChild(fact("moves", state.moves ?? "–", "move-count"));
    (state.cards_left || []).forEach((n, i) => facts.appendChild(fact(`${players[i] || "player " + (i + 1)} cards left`, n)));
    if (state.standings) facts.appendChild(fact("round", state.standings.round ?? "–"));
    if (state.passes_left !== undefined && state.passes_left !== null) facts.appendChild(fact("passes left", state.passes_left));
    if (state.waiting_for_take_back) facts.appendChild(fact("waiting for take-back", state.waiting_for_take_back));
    else if (state.waiting_for) facts.appendChild(fact("waiting for", state.waiting_for));
  }

  const clock = CR.gameClock();

  // a replay's states say where its game is; a live table's session does
  function showPhase(p) {
    if (!p) return;
    phase.textContent = p;
    phase.className = `pill ${p === "playing" ? "online" : "ended"}`;
  }
  function onSession(msg) {
    clock.session(msg);
    if (!state || !state.phase) showPhase(msg.phase);
  }

  function onState(msg) {
    if (state && msg.game_id !== state.game_id) {  // a new game: a fresh move list
      moves.innerHTML = "";
      bySeq.clear();
      banner.className = "banner";
      banner.dataset.kind = "none";
      banner.textContent = "New game";
      highlight = [];
    }
    state = msg;
    clock.state(msg);
    title.textContent = `${msg.game || "table"}${msg.players && msg.players.length ? " · " + msg.players.join(", ") : ""}`;
    document.getElementById("rules").textContent = msg.rules ? `rules: ${msg.rules.replace(/,/g, ", ")}` : "";
    showPhase(msg.phase || clock.phase());
    CR.drawState(board, msg, highlight);
    drawFacts();
  }

  function addMove(msg) {
    const li = CR.el("li", msg.type === "call" ? "call" : msg.kind);
    li.appendChild(CR.el("span", "n", msg.number ? `${msg.number}.` : msg.seq ? `#${msg.seq}` : ""));
    li.appendChild(CR.el("span", "t", CR.fmtTime(msg.t)));
    li.appendChild(CR.el("span", "d", CR.describe(msg)));
    if (msg.seq) { li.dataset.seq = msg.seq; bySeq.set(msg.seq, li); }
    if (msg.kind === "correction" && msg.target && bySeq.has(msg.target)) bySeq.get(msg.target).classList.add("retracted");
    moves.appendChild(li);
    while (moves.children.length > 1500) moves.removeChild(moves.firstChild);
    moves.scrollTop = moves.scrollHeight;
  }

  function showBanner(msg) {
    banner.innerHTML = "";
    const kind = msg.type === "call" ? "call" : msg.kind;
    banner.className = `banner ${kind}`;
    banner.dataset.kind = kind;
    if (kind === "illegal") {
      banner.appendChild(CR.el("span", "rule", `ILLEGAL · ${msg.rule}`));
      banner.appendChild(CR.el("span", "reason", msg.reason));
      for (const c of msg.cards || []) { const w = CR.el("span", "inline-card"); w.appendChild(CR.cardEl(c)); banner.appendChild(w); }
    } else {
      banner.appendChild(CR.el("span", null, CR.describe(msg)));
    }
  }

  function onVerdict(msg) {
    addMove(msg);
    if (msg.kind === "legal" && banner.dataset.kind === "illegal" && CR.now() - (banner._at || 0) < 4) return;
    showBanner(msg);
    banner._at = CR.now();
    highlight = msg.kind === "illegal" ? (msg.cards || []) : [];
    if (state && msg.kind === "illegal") CR.drawState(board, state, highlight);
  }

  async function onFrame(meta, blob) {
    let bmp;
    try { bmp = await createImageBitmap(blob); } catch (e) { return; }
    if (canvas.width !== meta.width || canvas.height !== meta.height) { canvas.width = meta.width; canvas.height = meta.height; }
    ctx.drawImage(bmp, 0, 0, canvas.width, canvas.height);
    bmp.close && bmp.close();
    nopic.classList.add("hidden");
    const scale = canvas.width / 1280;
    ctx.lineWidth = Math.max(2, 3 * scale);
    ctx.font = `bold ${Math.round(18 * Math.max(scale, .6))}px "DejaVu Sans", sans-serif`;
    for (const z of meta.zones || []) {
      ctx.strokeStyle = "rgba(91,180,255,.7)";
      ctx.beginPath();
      z.points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.closePath(); ctx.stroke();
    }
    for (const c of meta.cards || []) {
      const [x1, y1, x2, y2] = c.box;
      const bad = highlight.includes(c.card);
      ctx.strokeStyle = bad ? "#ff4d4d" : (c.card === "BACK" ? "rgba(255,255,255,.5)" : "#3ccf7a");
      ctx.strokeRect(x1, y1, x2 - x1, y2 - y1);
      if (c.card === "BACK") continue;
      const label = c.card + (c.confidence !== undefined && c.confidence < 0.999 ? ` ${(c.confidence * 100).toFixed(0)}%` : "");
      const w = ctx.measureText(label).width + 8;
      ctx.fillStyle = bad ? "#ff4d4d" : "#3ccf7a";
      ctx.fillRect(x1, Math.max(0, y1 - 22 * Math.max(scale, .6)), w, 22 * Math.max(scale, .6));
      ctx.fillStyle = "#000";
      ctx.fillText(label, x1 + 4, Math.max(16, y1 - 5));
    }
    window.cardrefLive.frames += 1;
    window.cardrefLive.outlined = (meta.cards || []).filter((c) => c.card !== "BACK").length;
  }

  const sock = CR.connect({
    frames: true,
    onMessage(msg) {
      if (msg.type === "state") onState(msg);
      else if (msg.type === "verdict") onVerdict(msg);
      else if (msg.type === "call") { addMove(msg); showBanner(msg); }
      else if (msg.type === "status") CR.showStatus(pill, msg);
      else if (msg.type === "session") onSession(msg);
    },
    onFrame,
    onClose() { pill.textContent = "disconnected"; pill.className = "pill offline"; },
  });
  window.cardrefLive = { stats: sock.stats, frames: 0, outlined: 0 };

  setInterval(() => {
    const t = document.getElementById("timer");
    if (t && state) t.textContent = CR.fmtTime(clock.value());
  }, 500);
})();
