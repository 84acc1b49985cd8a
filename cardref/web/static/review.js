// The review page: list and search recorded games; open one and step through it (move list, the
// key frame and the state at each step, illegal moves and calls highlighted, a timeline to scrub),
// export its log, retract a step the referee got wrong.
"use strict";

(() => {
  CR.nav("/review");
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  const gameId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
  let game = null, at = 0;

  // -- the list -----------------------------------------------------------------------------------
  async function search() {
    const q = new URLSearchParams();
    if ($("q").value.trim()) q.set("q", $("q").value.trim());
    if ($("g").value) q.set("game", $("g").value);
    if ($("since").value) q.set("since", $("since").value);
    const rows = await CR.api("GET", `/api/games?${q}`);
    const body = $("games");
    body.innerHTML = "";
    for (const g of rows) {
      const tr = CR.el("tr");
      const a = CR.el("a", null, g.started.replace("T", " ").slice(0, 19));
      a.href = `/review/${encodeURIComponent(g.id)}`;
      const td = CR.el("td"); td.appendChild(a); tr.appendChild(td);
      for (const v of [g.game, g.players.join(", "), g.moves, g.illegal, g.calls, g.result || (g.finished ? "" : "unfinished"), CR.fmtTime(g.duration)]) tr.appendChild(CR.el("td", null, v));
      tr.dataset.id = g.id;
      body.appendChild(tr);
    }
    $("none").classList.toggle("hidden", rows.length > 0);
  }

  // -- one game -----------------------------------------------------------------------------------
  function stateAt(i) {
    for (let j = i; j >= 0; j--) if (game.steps[j] && game.steps[j].state) return game.steps[j].state;
    return game.initial_state;
  }

  function kindOf(s) { return s.kind === "move" ? "legal" : s.kind; }

  function describe(s) {
    const m = { ...s, kind: kindOf(s), type: s.kind === "call" ? "call" : "verdict" };
    if (s.kind === "end") return `END: ${s.result || ""}${s.reason ? " (" + s.reason + ")" : ""}`;
    if (s.kind === "resumed") return "resumed after a stop";
    return CR.describe(m);
  }

  function go(i) {
    if (!game || !game.steps.length) return;
    at = Math.max(0, Math.min(game.steps.length - 1, i));
    const s = game.steps[at];
    document.querySelectorAll("#steps li").forEach((li) => li.classList.toggle("here", Number(li.dataset.index) === at));
    const li = document.querySelector(`#steps li[data-index="${at}"]`);
    if (li) li.scrollIntoView({ block: "nearest" });
    $("where").textContent = `step ${at + 1} of ${game.steps.length} · ${CR.fmtTime(s.t)}`;
    $("where").dataset.step = at;
    const b = $("step-banner");
    b.className = `banner ${kindOf(s) === "call" ? "call" : kindOf(s)}`;
    b.innerHTML = "";
    if (s.kind === "illegal") {
      b.appendChild(CR.el("span", "rule", `ILLEGAL · ${s.rule}`));
      b.appendChild(CR.el("span", null, s.reason));
    } else b.appendChild(CR.el("span", null, describe(s)));
    if (s.correction) b.appendChild(CR.el("span", "muted", ` (corrected by ${s.correction.by || "someone"}: ${s.correction.action})`));
    if (s.frame) { $("frame").src = s.frame; $("frame").classList.remove("hidden"); $("noframe").classList.add("hidden"); }
    else { $("frame").classList.add("hidden"); $("noframe").classList.remove("hidden"); }
    CR.drawState($("board"), { game: game.game, players: game.players, state: stateAt(at) }, s.cards || []);
    const cur = $("timeline").querySelector(".cursor");
    const total = game.steps[game.steps.length - 1].t || 1;
    cur.style.left = `${(s.t / total) * 100}%`;
  }

  function timeline() {
    const tl = $("timeline");
    tl.innerHTML = "";
    const total = game.steps.length ? game.steps[game.steps.length - 1].t || 1 : 1;
    for (const s of game.steps) {
      const k = kindOf(s);
      if (!["illegal", "call", "unrecognised", "correction"].includes(k) && !s.correction) continue;
      const tick = CR.el("div", `tick ${s.correction ? "correction" : k}`);
      tick.style.left = `${(s.t / total) * 100}%`;
      tick.title = describe(s);
      tl.appendChild(tick);
    }
    tl.appendChild(CR.el("div", "cursor"));
    tl.onclick = (ev) => {
      const r = tl.getBoundingClientRect();
      const t = ((ev.clientX - r.left) / r.width) * total;
      let best = 0;
      game.steps.forEach((s, i) => { if (Math.abs(s.t - t) < Math.abs(game.steps[best].t - t)) best = i; });
      go(best);
    };
  }

  async function open() {
    game = await CR.api("GET", `/api/games/${encodeURIComponent(gameId)}/review`);
    $("title").textContent = `${game.game} · ${game.players.join(", ")}`;
    $("meta").textContent = `${game.started.replace("T", " ").slice(0, 19)} UTC · rules ${(game.rules || "default").replace(/,/g, ", ")} · ${game.finished ? "result " + (game.result || "") : "unfinished"}${game.errors.length ? ` · ${game.errors.length} damaged lines` : ""}`;
    $("export-jsonl").href = `/api/games/${encodeURIComponent(gameId)}/export?format=jsonl`;
    $("export-csv").href = `/api/games/${encodeURIComponent(gameId)}/export?format=csv`;
    const list = $("steps");
    list.innerHTML = "";
    game.steps.forEach((s, i) => {
      const li = CR.el("li", `${kindOf(s)}${s.correction ? " correction" : ""}`);
      li.dataset.index = i;
      li.appendChild(CR.el("span", "n", s.number ? `${s.number}.` : ""));
      li.appendChild(CR.el("span", "t", CR.fmtTime(s.t)));
      li.appendChild(CR.el("span", "d", describe(s)));
      li.onclick = () => go(i);
      list.appendChild(li);
    });
    timeline();
    go(0);
  }

  function nextBad() {
    for (let i = at + 1; i < game.steps.length; i++) if (["illegal", "call", "unrecognised"].includes(kindOf(game.steps[i]))) return go(i);
  }

  async function retract() {
    const s = game.steps[at];
    if (!s || !confirm(`Retract step ${at + 1} (${describe(s)})? The original stays in the log.`)) return;
    try {
      await CR.api("POST", `/api/games/${encodeURIComponent(gameId)}/corrections`, { action: "retract", target: s.seq, reason: "retracted on the review page" });
      const keep = at; await open(); go(keep);
    } catch (e) { alert(e.status === 401 ? "Needs the control token (open the page with ?token=…)." : e.message); }
  }

  if (gameId) {
    $("game-view").classList.remove("hidden");
    $("first").onclick = () => go(0);
    $("prev").onclick = () => go(at - 1);
    $("next").onclick = () => go(at + 1);
    $("last").onclick = () => go(game.steps.length - 1);
    $("next-bad").onclick = nextBad;
    $("retract").onclick = retract;
    document.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight") go(at + 1);
      else if (e.key === "ArrowLeft") go(at - 1);
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(game.steps.length - 1);
    });
    open().catch((e) => { $("title").textContent = e.message; });
  } else {
    $("list-view").classList.remove("hidden");
    $("search").onsubmit = (e) => { e.preventDefault(); search(); };
    search();
  }
})();
