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

// The header's Export button: the file being edited as one standalone page (the page
// `puz export --html` writes: the core as WebAssembly, the text embedded), downloaded as
// NAME.html. It opens from disk and plays and solves with no server. A page that is
// itself standalone has no server to build one: save it with the browser instead.
(function () {
  const save = document.getElementById("save-as");
  if (!save) return;
  const b = document.createElement("button");
  b.type = "button";
  b.id = "export-page";
  b.textContent = "Export";
  b.title = "Download this file as one standalone page that plays and solves with no server";
  save.after(b);
  b.addEventListener("click", async () => {
    const status = document.getElementById("save-status");
    if (window.puzLocal) {
      status.textContent = "this page is already standalone: save it with the browser (Ctrl+S)";
      return;
    }
    const name = S.file || "puzzle.puz";
    try {
      const res = await fetch("/api/export", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, text: puzEditor.getText() }),
      });
      if (!res.ok) {
        let message = `HTTP ${res.status}`;
        try { message = (await res.json()).error.message; } catch (_) { /* not JSON */ }
        throw new Error(message);
      }
      const html = await res.text();
      const blob = new Blob([html], { type: "text/html" });
      // Kept for whoever wants the page itself (the browser test reads it back).
      window.lastExport = { name: name.replace(/^.*\//, "").replace(/\.[^.]*$/, "") + ".html", blob };
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = window.lastExport.name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      status.textContent = `${a.download}: ${html.length.toLocaleString("en-US")} bytes, plays and solves with no server`;
    } catch (e) {
      status.textContent = `not exported: ${e.message}`;
    }
  });
})();
