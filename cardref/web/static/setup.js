// The set-up page: game, rule options, players and seats; start/pause/end; calibration from ArUco
// markers (found live in the picture) or four clicked corners; the zones drawn on the picture.
"use strict";

(() => {
  const pill = CR.nav("/setup");
  const $ = (id) => document.getElementById(id);
  const canvas = $("picture"), ctx = canvas.getContext("2d");
  let sizeEdited = false;
  let games = [], session = null, picture = null, markers = [], zones = null, clicks = null;

  function say(text, err = false) { $("msg").textContent = text; $("msg").className = err ? "msg err" : "msg"; }
  function sayCal(text, err = false) { $("cal-msg").textContent = text; $("cal-msg").className = err ? "msg err" : "msg"; }

  function gameInfo() { return games.find((g) => g.game === $("game").value) || games[0]; }

  function fillPlayers(existing) {
    const g = gameInfo();
    const n = Number($("nplayers").value) || g.min_players;
    const box = $("players");
    box.innerHTML = "";
    for (let i = 0; i < n; i++) {
      const p = (existing || [])[i] || { name: `Player ${i + 1}`, seat: i + 1 };
      const lab = CR.el("label", "f", `Player ${i + 1}`);
      const name = CR.el("input"); name.value = p.name; name.className = "pname"; name.maxLength = 40;
      const seat = CR.el("select"); seat.className = "pseat";
      for (let s = 1; s <= 4; s++) { const o = CR.el("option", null, `seat ${s}`); o.value = s; if (s === p.seat) o.selected = true; seat.appendChild(o); }
      lab.appendChild(name); lab.appendChild(seat);
      box.appendChild(lab);
    }
  }

  function fillOptions(spec) {
    const given = Object.fromEntries((spec || "").split(",").filter(Boolean).map((kv) => kv.split("=").map((s) => s.trim())));
    const box = $("options");
    box.innerHTML = "";
    for (const o of gameInfo().options) {
      if (o.name === "players") continue;  // the Players box above says it (session.seated_rules)
      const lab = CR.el("label", "f", `${o.name} — ${o.help}`);
      const inp = CR.el("input"); inp.dataset.option = o.name;
      inp.placeholder = `default: ${o.default === null ? "unlimited" : o.default}`;
      if (given[o.name] !== undefined) inp.value = given[o.name];
      lab.appendChild(inp);
      box.appendChild(lab);
    }
  }

  function fillGame(setup) {
    $("game").value = setup.game;
    const g = gameInfo();
    $("nplayers").innerHTML = "";
    for (let n = g.min_players; n <= g.max_players; n++) { const o = CR.el("option", null, n); o.value = n; $("nplayers").appendChild(o); }
    $("nplayers").value = Math.min(Math.max(setup.players.length, g.min_players), g.max_players);
    fillPlayers(setup.players);
    fillOptions(setup.rules);
    loadZones();
  }

  function collect() {
    const names = [...document.querySelectorAll(".pname")].map((e) => e.value.trim());
    const seats = [...document.querySelectorAll(".pseat")].map((e) => Number(e.value));
    const rules = [...document.querySelectorAll("[data-option]")].filter((e) => e.value.trim()).map((e) => `${e.dataset.option}=${e.value.trim()}`).join(",");
    return { game: $("game").value, rules, players: names.map((name, i) => ({ name, seat: seats[i] })) };
  }

  function showSession(s) {
    session = s;
    $("phase").textContent = s.phase;
    $("phase").className = `pill ${s.phase === "playing" ? "online" : "ended"}`;
    $("token-box").classList.toggle("hidden", s.control !== false);
  }

  async function act(path, body, done) {
    try { const s = await CR.api(path === "/api/session/setup" ? "PUT" : "POST", path, body); showSession(s); say(done); }
    catch (e) { say(e.status === 401 ? "Needs the control token (see above)." : e.message, true); if (e.status === 401) $("token-box").classList.remove("hidden"); }
  }

  $("width").oninput = $("height").oninput = () => { sizeEdited = true; };
  $("game").onchange = () => fillGame({ game: $("game").value, rules: "", players: [] });
  $("nplayers").onchange = () => { fillPlayers(collect().players); resolutionHint(); };
  $("save").onclick = () => act("/api/session/setup", collect(), "Set-up saved.");
  $("start").onclick = async () => { await act("/api/session/setup", collect(), "Set-up saved."); act("/api/session/start", undefined, "Game started."); };
  $("pause").onclick = () => act("/api/session/pause", undefined, "Paused.");
  $("resume").onclick = () => act("/api/session/resume", undefined, "Resumed.");
  $("end").onclick = () => act("/api/session/end", undefined, "Game ended.");
  $("token-save").onclick = () => { CR.setToken($("token").value.trim()); load(); };

  // -- picture, markers, zones ------------------------------------------------------------------
  function redraw() {
    if (!picture) return;
    ctx.drawImage(picture, 0, 0, canvas.width, canvas.height);
    ctx.lineWidth = 3;
    if ($("show-zones").checked && zones && zones.zones_px) {
      ctx.font = "bold 15px 'DejaVu Sans', sans-serif";
      for (const z of zones.zones_px) {
        ctx.strokeStyle = "rgba(91,180,255,.9)";
        ctx.beginPath();
        z.points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
        ctx.closePath(); ctx.stroke();
        ctx.fillStyle = "rgba(91,180,255,.95)";
        ctx.fillText(z.name, z.points[0][0] + 3, z.points[0][1] + 16);
      }
    }
    if ($("show-markers").checked) {
      for (const m of markers) {
        ctx.strokeStyle = "#ffd23f";
        ctx.beginPath();
        m.corners.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
        ctx.closePath(); ctx.stroke();
        ctx.fillStyle = "#ffd23f"; ctx.font = "bold 22px sans-serif";
        ctx.fillText(`#${m.id}`, m.corners[0][0], m.corners[0][1] - 6);
      }
    }
    if (clicks) {
      ctx.fillStyle = "#ff4d4d";
      clicks.forEach(([x, y], i) => { ctx.beginPath(); ctx.arc(x, y, 7, 0, 7); ctx.fill(); ctx.fillText(String(i + 1), x + 9, y - 9); });
    }
  }

  // a table of three or four filmed from one side: the far seat needs a 1920x1080 picture (docs/truth-videos.md)
  let cameraSize = null;
  function resolutionHint() {
    const g = collect();
    const small = cameraSize && cameraSize[0] * cameraSize[1] < 1920 * 1080;
    const far = g.game === "zenuwen" && g.players.length >= 3;
    $("res-hint").textContent = small && far ? `The camera gives ${cameraSize[0]}×${cameraSize[1]}: at a table of three or four, the far seat's cards are too small to read reliably. A camera giving 1920×1080 reads them (cardref serve --camera-size).` : "";
    $("res-hint").classList.toggle("hidden", !(small && far));
  }

  async function loadZones() {
    resolutionHint();
    const g = collect();
    const q = new URLSearchParams({ game: g.game, players: String(g.players.length), width: String(canvas.width), height: String(canvas.height) });
    try { zones = await CR.api("GET", `/api/calibration/zones?${q}`); } catch (e) { zones = null; }
    if (zones && !sizeEdited) { $("width").value = Math.round(zones.size_mm[0]); $("height").value = Math.round(zones.size_mm[1]); }
    redraw();
  }

  CR.connect({
    frames: true, types: "status,session",
    onMessage(msg) {
      if (msg.type === "status") { CR.showStatus(pill, msg); if (msg.frame_size) { cameraSize = msg.frame_size; resolutionHint(); } }
      if (msg.type === "session") showSession({ ...session, ...msg, control: session ? session.control : true });
    },
    async onFrame(meta, blob) {
      try { picture = await createImageBitmap(blob); } catch (e) { return; }
      if (canvas.width !== meta.width || canvas.height !== meta.height) { canvas.width = meta.width; canvas.height = meta.height; loadZones(); }
      $("nopic").classList.add("hidden");
      redraw();
    },
  });

  setInterval(async () => {
    if (!$("show-markers").checked || !picture) return;
    try { markers = (await CR.api("GET", "/api/calibration/markers")).markers; } catch (e) { markers = []; }
    redraw();
  }, 1500);

  $("cal-markers").onclick = async () => {
    const q = new URLSearchParams({ layout: $("layout").value, width_mm: $("width").value, height_mm: $("height").value });
    try {
      const r = await CR.api("POST", `/api/calibration/markers?${q}`);
      sayCal(`Calibrated from markers ${r.detection.found_ids.join(", ")}: fit error ${r.detection.rms_error_mm} mm.`);
      loadZones();
    } catch (e) { sayCal(e.message, true); }
  };
  $("cal-click").onclick = () => { clicks = []; sayCal("Click the play area's corners: top-left, top-right, bottom-right, bottom-left (as player 1 sees them)."); };
  canvas.addEventListener("click", async (ev) => {
    if (!clicks) return;
    const r = canvas.getBoundingClientRect();
    clicks.push([(ev.clientX - r.left) * canvas.width / r.width, (ev.clientY - r.top) * canvas.height / r.height]);
    redraw();
    if (clicks.length < 4) return;
    try {
      await CR.api("POST", "/api/calibration/points", { image_px: clicks, image_size: [canvas.width, canvas.height], width_mm: Number($("width").value), height_mm: Number($("height").value) });
      sayCal("Calibrated from the four corners.");
      loadZones();
    } catch (e) { sayCal(e.message, true); }
    clicks = null;
  });

  // games cardref stopped without ending (a crash): taken up again from the position their log last shows
  async function loadUnfinished() {
    let games = [];
    try { games = await CR.api("GET", "/api/session/unfinished"); } catch (e) { games = []; }
    const box = $("unfinished");
    box.innerHTML = "";
    for (const g of games) {
      const b = CR.el("button", "", `Take up ${g.game} ${g.id} (${g.moves} moves, ${g.players.join(", ")})`);
      b.title = "cardref stopped without ending this game: go on from the position its log last shows";
      b.onclick = async () => { await act("/api/session/take-up", { game_id: g.id }, `Game ${g.id} taken up again.`); loadUnfinished(); };
      box.appendChild(b);
    }
    box.classList.toggle("hidden", games.length === 0);
  }

  async function load() {
    try {
      games = await CR.api("GET", "/api/session/games");
      $("game").innerHTML = "";
      for (const g of games) { const o = CR.el("option", null, g.title); o.value = g.game; $("game").appendChild(o); }
      const s = await CR.api("GET", "/api/session");
      showSession(s);
      fillGame(s.setup);
      const cal = await CR.api("GET", "/api/calibration");
      loadUnfinished();
      if (cal.calibration) sayCal(`Calibrated (${cal.calibration.method}${cal.calibration.rms_error_mm !== undefined ? `, fit error ${cal.calibration.rms_error_mm.toFixed(2)} mm` : ""}).`);
    } catch (e) { say(e.message, true); }
  }
  load();
})();
