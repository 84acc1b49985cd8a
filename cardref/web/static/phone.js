// The phone camera page: the browser's camera -> JPEG frames -> /ws/camera (binary messages).
"use strict";

(() => {
  CR.nav("/phone");
  const $ = (id) => document.getElementById(id);
  const video = $("video");
  let stream = null, ws = null, timer = null, sent = 0, busy = false, fps = 8;
  $("token").value = CR.token();

  function say(t, err = false) { $("msg").textContent = t; $("msg").className = err ? "msg err" : "msg"; }

  async function start() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      say("This browser gives no camera here: open the page over https:// (or on this machine).", true);
      return;
    }
    if ($("token").value.trim()) CR.setToken($("token").value.trim());
    try {
      const cam = await CR.api("GET", "/api/camera");
      fps = cam.target_fps || fps;
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false });
    } catch (e) { say(`No camera: ${e.message}`, true); return; }
    video.srcObject = stream;
    await video.play();
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/camera?token=${encodeURIComponent(CR.token())}`);
    ws.onmessage = (ev) => { const m = JSON.parse(ev.data); if (m.received !== undefined) { $("received").textContent = m.received; $("dropped").textContent = m.dropped; busy = false; } else if (m.error) say(m.error, true); };
    ws.onclose = (ev) => { say(ev.code === 1008 ? "Refused: this needs the control token." : ev.code === 1009 ? "A frame was too large: choose a smaller size." : "Not sending (connection closed).", ev.code !== 1000); stopCapture(); };
    ws.onopen = () => { say(`Sending ${fps} frames a second.`); timer = setInterval(sendFrame, 1000 / fps); };
  }

  const canvas = document.createElement("canvas");
  function sendFrame() {
    if (!ws || ws.readyState !== 1 || busy || !video.videoWidth) return;  // one frame in flight at a time
    const w = Number($("size").value), h = Math.round(video.videoHeight * w / video.videoWidth);
    canvas.width = w; canvas.height = h;
    canvas.getContext("2d").drawImage(video, 0, 0, w, h);
    canvas.toBlob((blob) => {
      if (!blob || !ws || ws.readyState !== 1) return;
      busy = true;
      ws.send(blob);
      sent += 1;
      $("sent").textContent = sent;
      $("kb").textContent = Math.round(blob.size / 1024);
    }, "image/jpeg", 0.8);
  }

  function stopCapture() {
    clearInterval(timer); timer = null; busy = false;
    if (stream) stream.getTracks().forEach((t) => t.stop());
    stream = null;
  }
  $("start").onclick = start;
  $("stop").onclick = () => { stopCapture(); ws && ws.close(1000); };
})();
