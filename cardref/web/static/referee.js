// The referee screen: one big verdict at a time, readable from across the table. "STRESS!" comes
// with a sound. Keys: 1-4 record a slap by that player (games that take slaps: the buttons show only
// for them), C says the referee was wrong (retracts the latest verdict; an illegal move the game waits to
// see taken back then stands, as with "Let the move stand"), F goes full screen. At the end
// of a Zenuwen round the player whose turn it is to take a centre pile taps it here (the camera cannot
// always tell). Pushed over /ws/live without camera pictures.
"use strict";

(() => {
  const screen = document.getElementById("screen");
  const headline = document.getElementById("headline");
  const rule = document.getElementById("rule");
  const reason = document.getElementById("reason");
  const cards = document.getElementById("cards");
  const msgEl = document.getElementById("ctl-msg");
  const slapsEl = document.getElementById("slaps");
  const choicesEl = document.getElementById("choices");
  const namingEl = document.getElementById("naming");
  const standEl = document.getElementById("stand");
  let audio = null, players = [], lastSeq = null, holdUntil = 0, current = "watching", slappers = 0;
  let awaitedSeq = null;  // the illegal move's record while the game waits for it to be taken back

  function sound(kind) {
    if (!audio) return;
    const o = audio.createOscillator(), g = audio.createGain();
    o.type = "square";
    o.frequency.value = kind === "stress" ? 880 : 440;
    g.gain.setValueAtTime(0.25, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + (kind === "stress" ? 0.9 : 0.35));
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + (kind === "stress" ? 0.9 : 0.35));
    if (kind === "stress") { const o2 = audio.createOscillator(); o2.type = "square"; o2.frequency.value = 1175; o2.connect(g); o2.start(audio.currentTime + 0.15); o2.stop(audio.currentTime + 0.9); }
  }
  function enableSound() {
    if (audio) return;
    try { audio = new (window.AudioContext || window.webkitAudioContext)(); document.getElementById("sound").textContent = "sound on"; } catch (e) { /* no audio */ }
  }
  document.addEventListener("pointerdown", enableSound);

  function show(kind, head, ruleText, reasonText, cardCodes, holdSeconds) {
    current = kind;
    screen.className = `screen ${kind}`;
    screen.dataset.show = kind;
    headline.textContent = head;
    rule.textContent = ruleText || "";
    reason.textContent = reasonText || "";
    cards.innerHTML = "";
    for (const c of cardCodes || []) { const w = CR.el("span", "inline-card"); w.appendChild(CR.cardEl(c)); cards.appendChild(w); }
    holdUntil = CR.now() + (holdSeconds || 0);
    window.cardrefReferee.shown.push({ kind, head, at: CR.now() });
  }

  const CALLS = {
    stress: ["STRESS!", "S8", "Slap a centre pile!"],
    stuck: ["STUCK", "S9 / Z7", "Nobody can play: turn new cards, all at once"],
    round_over: ["ROUND OVER", "Z10 / S10", ""],
    match_over: ["MATCH OVER", "S11 / Z12", ""],
    won: ["WON!", "K13", "All 52 cards are on the foundations"],
    no_moves_left: ["NO MOVES LEFT", "K13", "No useful move is left"],
    false_slap: ["FALSE SLAP", "S8", "The centre tops do not match"],
    turn_over: ["TURN OVER", "K17", "The card turned cannot be placed: the other player's turn"],
  };

  function who(p) { return p === undefined || p === null ? "" : (players[p] || `Player ${p + 1}`); }

  // A message published more than a few seconds ago is history (the snapshot a late screen gets):
  // it sets the picture but makes no sound and holds nothing.
  function fresh(msg) { return !msg.sent || CR.now() - msg.sent < 3; }

  function onVerdict(msg) {
    if (msg.seq && msg.kind !== "correction") lastSeq = msg.seq;  // C again must not retract the correction
    if (msg.kind === "illegal" && msg.seq) awaitedSeq = msg.seq;
    namingButtons(msg);  // also from the history a late page is sent: the game may be waiting still
    if (!fresh(msg)) { if (msg.kind === "illegal") holdUntil = 0; return; }
    if (msg.kind === "illegal") {
      sound("illegal");
      show("illegal", "ILLEGAL MOVE", msg.rule, msg.reason, msg.cards, 6);
    } else if (msg.kind === "unrecognised" || msg.kind === "ambiguous") {
      if (CR.now() > holdUntil) show("unrecognised", "CAN'T SEE THAT", "", msg.detail || "Change not recognised: not counted as a move", [], 2);
    } else if (msg.kind === "correction") {
      show("correction", "CORRECTED", "", `${msg.action || "retract"}${msg.reason ? ": " + msg.reason : ""}`, [], 2);
    } else if (msg.kind === "slap") {
      show("correction", "SLAP", "", `${who(msg.player)}${msg.detail ? " · " + msg.detail : ""}`, [], 1.5);
    } else if (msg.kind === "rejoined") {
      // the referee had lost the game: it goes on from the table as it lies (moves since were not judged)
      show("correction", "FOLLOWING AGAIN", "", msg.detail || "Took the table up again as it lies", [], 3);
    } else if (msg.kind === "withdrawn") {
      // a call the table proved wrong (a card it rested on was misread): said as loudly as the call
      show("correction", "CALL WITHDRAWN", "", msg.detail || "The last call was wrong", [], 4);
    } else if (msg.kind === "taken_back") {
      show("legal", "TAKEN BACK", "", msg.detail || "The illegal move was taken back", [], 1.5);
    } else if ((msg.kind === "legal" || msg.kind === "move") && /so the move stands$/.test(msg.detail || "")) {
      // the illegal move the game waited on: let stand by a person, or played on from by the players
      show("correction", "MOVE STANDS", "", msg.detail, [], 3);
    } else if (CR.now() > holdUntil) {
      // a play onto a card nobody read is taken, not judged: say so rather than vouch for it
      const unjudged = /never read[^;]*: not judged/.test(msg.detail || "") ? " · not judged: a card under it was never read" : "";
      show("legal", "OK", "", `${who(msg.player)} ${msg.text || ""}`.trim() + unjudged, [], 0);
    }
  }

  function onCall(msg) {
    if (!fresh(msg) && !["round_over", "match_over", "won", "no_moves_left"].includes(msg.call)) return;
    const c = CALLS[msg.call] || [String(msg.call).toUpperCase().replace(/_/g, " "), "", ""];
    const kind = msg.call === "stress" ? "stress" : msg.call === "stuck" ? "stuck" : (["round_over", "match_over", "won", "no_moves_left"].includes(msg.call) ? "result" : "legal");
    if (msg.call === "stress" || msg.call === "stuck") sound(msg.call === "stress" ? "stress" : "illegal");
    let text = msg.text || c[2];
    if (msg.player !== undefined && msg.call !== "stress") text = `${who(msg.player)} ${text}`.trim();
    show(kind, c[0], c[1], text, msg.cards || [], kind === "result" ? 3600 : 5);
  }

  // one slap button per player, for the games whose referee takes a slap (Stress, Zenuwen)
  function slapButtons(inputs) {
    const n = inputs.includes("slap") ? Math.min(Math.max(players.length, 2), 4) : 0;
    const key = `${n}:${players.join("|")}`;
    if (key === slapsEl.dataset.key) return;
    slapsEl.dataset.key = key;
    slappers = n;
    slapsEl.innerHTML = "";
    for (let p = 0; p < n; p++) {
      const b = CR.el("button", "", `Slap ${who(p)} `);
      b.appendChild(CR.el("kbd", "", String(p + 1)));
      b.onclick = () => slap(p);
      slapsEl.appendChild(b);
    }
    slapsEl.classList.toggle("hidden", n === 0);
  }

  // a new card the camera cannot read keeps the game waiting: a person can name it (POST /api/session/name);
  // one the referee took from the camera's guesses can be named too, should the guess be wrong, and so
  // can a centre card the position holds unseen (laid while nobody could read it: the state says null)
  let offered = new Map();  // zone -> button label, from the verdicts
  let unknownTops = [];     // centre zones whose top the position does not know, from the state
  function namingButtons(msg) {
    const detail = msg.detail || "";
    const waiting = /not readable yet on ([a-z0-9., ]+):/.exec(detail);
    const laidUnseen = /the new card on ([a-z0-9., ]+) could not be read/.exec(detail);
    const guessed = new Map([...detail.matchAll(/([a-z0-9.]+)'s new card, never read surely, was guessed ([0-9A-Z]+)/g)].map((m) => [m[1], m[2]]));
    const listed = (m) => m[1].split(",").map((z) => z.trim()).filter(Boolean);
    const zones = waiting ? listed(waiting)
      : laidUnseen ? listed(laidUnseen)
      : guessed.size ? [...guessed.keys()]
      : [...detail.matchAll(/([a-z0-9.]+) shows \?/g)].map((m) => m[1]);  // a change with a card not read
    if (!zones.length && msg.kind === "ambiguous") return;  // another wait: the offer stands
    offered = new Map(zones.map((z) => [z, guessed.has(z) ? `Not ${guessed.get(z)}? Name the card on ${z}` : `Name the card on ${z}`]));
    drawNaming();
  }
  function unknownCentreTops(msg) {
    const centre = (msg.state && msg.state.centre) || [];
    unknownTops = centre.map((pile, j) => (Array.isArray(pile) && pile.length && pile[pile.length - 1] === null ? `centre${j + 1}` : null)).filter(Boolean);
    drawNaming();
  }
  function drawNaming() {
    const all = new Map([...unknownTops.map((z) => [z, `Name the card on ${z}`]), ...offered]);
    namingEl.innerHTML = "";
    for (const [zone, label] of all) {
      const input = CR.el("input"); input.size = 3; input.placeholder = "QS"; input.setAttribute("aria-label", `card on ${zone}`);
      const b = CR.el("button", "", label);
      b.onclick = () => { const card = input.value.trim().toUpperCase(); if (card) control("/api/session/name", { zone, card }, `the card on ${zone} named ${card}`); };
      namingEl.append(input, b);
    }
    namingEl.classList.toggle("hidden", all.size === 0);
  }

  // Z10/Z11: one button per free centre pile for the player who chooses now
  function choiceButtons(msg) {
    const p = (msg.inputs || []).includes("choose") ? msg.choosing : null;
    const piles = p === null || p === undefined ? [] : (msg.free_piles || []);
    choicesEl.innerHTML = "";
    for (const j of piles) {
      const b = CR.el("button", "", `${who(p)} takes centre ${j + 1}`);
      b.onclick = () => control("/api/session/choose", { player: p, pile: j }, `${who(p)} takes centre ${j + 1}: recorded`);
      choicesEl.appendChild(b);
    }
    choicesEl.classList.toggle("hidden", piles.length === 0);
  }

  // until the first state, the screen says what the table waits for (calibration, the camera);
  // a camera lost or failing during the game is said on the message line
  let seenState = false;
  function onStatus(msg) {
    const trouble = msg.camera === "error" ? `camera error: ${msg.error || "see the set-up page"}`
      : msg.camera === "offline" ? "the camera is offline: reconnecting…"
      : msg.camera === "ended" ? "the video has ended" : "";
    if (trouble) msgEl.textContent = trouble;
    if (!seenState && (trouble || msg.referee)) document.getElementById("reason").textContent = trouble || msg.referee;
  }

  function onState(msg) {
    seenState = true;
    players = msg.players || players;
    if (msg.inputs) slapButtons(msg.inputs);
    choiceButtons(msg);
    unknownCentreTops(msg);
    if (!msg.waiting_for_take_back) awaitedSeq = null;
    standEl.classList.toggle("hidden", !(msg.waiting_for_take_back && awaitedSeq));
    standEl.title = msg.waiting_for_take_back ? `${msg.waiting_for_take_back}: the referee was wrong, the game goes on with it` : "";
    document.getElementById("game").textContent = `${msg.game || ""} ${msg.players && msg.players.length ? "· " + msg.players.join(" vs ") : ""}`;
    const scores = msg.scores || (msg.score !== undefined ? [msg.score] : []);
    document.getElementById("score").textContent = scores.length ? (msg.game === "klondike" ? `score ${scores[0]}` : `rounds ${scores.join(" – ")}`) : "";
    gameId = msg.game_id || gameId;
    if (current === "ended") reason.textContent = endedText();  // (a late page hears the session first)
    clock.state(msg);
    tick();
    if (msg.phase === "paused" && current !== "illegal") show("paused", "PAUSED", "", "", [], 0);
  }

  // A live table's session says when its game is paused, ended (on the set-up page, or its video ran
  // out) and started again: the screen says so and the clock stops, rather than watching on.
  let gameId = null;
  const endedText = () => (gameId ? `Recorded: review it at /review/${gameId}` : "The game has ended");
  function onSession(msg) {
    const was = clock.phase();
    clock.session(msg);
    tick();
    if (msg.phase === was) return;  // (a set-up change, or the same phase again)
    if (msg.phase === "ended" && current !== "result") {
      show("ended", "GAME OVER", "", endedText(), [], 0);
    } else if (msg.phase === "paused" && current !== "illegal") {
      show("paused", "PAUSED", "", "The referee judges nothing until the game goes on", [], 0);
    } else if (msg.phase === "playing" && ["paused", "ended", "result"].includes(current)) {
      show("watching", "WATCHING", "", "", [], 0);
    }
  }

  const clock = CR.gameClock();
  function tick() {
    const v = clock.value();
    document.getElementById("clock").textContent = v === null ? "" : CR.fmtTime(v);
  }
  setInterval(tick, 500);

  const sock = CR.connect({
    frames: false,
    types: "state,verdict,call,status,session",
    onMessage(msg) {
      if (msg.type === "verdict") onVerdict(msg);
      else if (msg.type === "call") onCall(msg);
      else if (msg.type === "state") onState(msg);
      else if (msg.type === "status") onStatus(msg);
      else if (msg.type === "session") onSession(msg);
    },
  });
  window.cardrefReferee = { stats: sock.stats, shown: [], held: () => CR.now() <= holdUntil };

  async function control(path, body, done) {
    try { await CR.api("POST", path, body); msgEl.textContent = done; }
    catch (e) { msgEl.textContent = e.status === 401 ? "needs the control token (open this page with ?token=…)" : e.message; }
  }
  function slap(p) { control("/api/session/slap", { player: p }, `slap by ${who(p)} recorded`); }
  function wrong() { control("/api/session/correction", { action: "retract", target: lastSeq, reason: "marked wrong on the referee screen" }, "correction sent"); }
  function full() { document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen().catch(() => {}); }

  standEl.onclick = () => control("/api/session/correction", { action: "retract", target: awaitedSeq, reason: "let stand on the referee screen" }, "the move stands");
  document.getElementById("wrong").onclick = wrong;
  document.getElementById("full").onclick = full;
  document.addEventListener("keydown", (e) => {
    enableSound();
    if (e.key >= "1" && e.key <= "4" && Number(e.key) <= slappers) slap(Number(e.key) - 1);
    else if (e.key === "c" || e.key === "C" || e.key === "Backspace") wrong();
    else if (e.key === "f" || e.key === "F") full();
  });
})();
