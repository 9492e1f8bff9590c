// puz playground: the answer on the Solve tab downloaded as an animated GIF or a PNG strip
// (every board side by side). puz's core draws it (io::picture, the colours of the board
// here): POST /api/picture on a server, the same code compiled to WebAssembly on a page
// without one (local.js). Reads app.js's `anim` (the answer's frames) and `S` (the level).
"use strict";

(function () {
  const controls = document.querySelector("#pane-solve .anim-controls");
  const status = document.createElement("span");
  status.id = "picture-status";
  status.className = "muted small";

  async function pictureBytes(body) {
    if (window.puzLocal) return window.puzLocal.api("POST", "/api/picture", body);
    const res = await fetch("/api/picture", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) {
      let message = `HTTP ${res.status}`;
      try { message = (await res.json()).error.message; } catch (_) { /* not JSON */ }
      throw new Error(message);
    }
    return new Uint8Array(await res.arrayBuffer());
  }

  async function download(format) {
    if (!anim.frames.length || !S.info) {
      status.textContent = "solve the level first: there is no answer to draw";
      return;
    }
    const speed = Number(document.getElementById("anim-speed").value) || 3;
    const body = { frames: anim.frames, palette: S.info.palette, format, delay_ms: Math.round(1000 / speed) };
    status.textContent = `drawing ${anim.frames.length} boards...`;
    try {
      const bytes = await pictureBytes(body);
      const type = format === "gif" ? "image/gif" : "image/png";
      const url = URL.createObjectURL(new Blob([bytes], { type }));
      const stem = (S.file || "puzzle").replace(/^.*\//, "").replace(/\.[^.]*$/, "");
      const a = document.createElement("a");
      a.href = url;
      a.download = `${stem}-level-${S.levelIndex + 1}.${format}`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      status.textContent = `${a.download}: ${bytes.length.toLocaleString("en-US")} bytes`;
    } catch (e) {
      status.textContent = `no picture: ${e.message}`;
    }
  }

  for (const [format, text, title] of [
    ["gif", "GIF", "Download the answer as an animated GIF"],
    ["png", "PNG strip", "Download every board of the answer side by side, as a PNG"],
  ]) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = `picture-${format}`;
    b.textContent = text;
    b.title = title;
    b.addEventListener("click", () => download(format));
    controls.append(b);
  }
  controls.append(status);
})();
