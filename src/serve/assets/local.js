// puz playground without a server: the page's /api/... requests answered in the browser by
// puz's core compiled to WebAssembly (puz-core.js, built by scripts/build-wasm), in Web
// Workers. A page that has no server (`puz export --html`) loads this before app.js;
// app.js's api() and followJob() hand their requests to `window.puzLocal` when it is set.
//
// - Files are the ones the page embeds (<script type="application/json" id="puz-files">);
//   Save, Save as and New keep the text in the page (nothing is written to disk).
// - check, level, play, puzzlescript and templates go to one worker, in order.
// - Each solve, analysis or test run gets a worker of its own, under the budget the page
//   asks for (held to `puz serve`'s default caps); its progress is posted back ten times a
//   second, and Cancel terminates the worker (the job ends "cancelled" at once).
// - A panic in the core aborts its instance: the answer says so, and a fresh worker takes
//   the next request.
"use strict";

(function () {
  const embedded = JSON.parse(document.getElementById("puz-files").textContent);
  const files = new Map(embedded.files.map((f) => [f.path, f.text]));

  /** The body of each worker: wasm-bindgen's glue, then this function. */
  function workerMain() {
    let queue = [];
    let ready = false;
    function answer(m) {
      try {
        if (m.kind === "call") return { answer: wasm_bindgen.call(m.route, m.body) };
        if (m.kind === "budget") return { answer: wasm_bindgen.job_budget(m.job, m.body) };
        if (m.kind === "job") {
          return { answer: wasm_bindgen.run_job(m.job, m.body, (p) => self.postMessage({ id: m.id, progress: p })) };
        }
        if (m.kind === "picture") {
          try {
            return { bytes: wasm_bindgen.picture(m.body) };
          } catch (e) {
            if (typeof e === "string") return { answer: e };
            throw e;
          }
        }
        return { crashed: `unknown request ${m.kind}` };
      } catch (e) {
        let why = null;
        try { why = wasm_bindgen.last_panic(); } catch (_) { /* the instance is gone */ }
        return { crashed: `internal error (a bug in puz): ${why || e.message || e}` };
      }
    }
    self.onmessage = (ev) => {
      const m = ev.data;
      if (m.module) {
        wasm_bindgen.initSync({ module: m.module });
        ready = true;
        for (const q of queue) self.postMessage({ id: q.id, ...answer(q) });
        queue = [];
        return;
      }
      if (!ready) { queue.push(m); return; }
      self.postMessage({ id: m.id, ...answer(m) });
    };
  }

  const wasmBytes = Uint8Array.from(atob(PUZ_CORE.wasm), (c) => c.charCodeAt(0));
  const modulePromise = WebAssembly.compile(wasmBytes);
  const workerUrl = URL.createObjectURL(new Blob([`${PUZ_CORE.glue}\n(${workerMain.toString()})();\n`], { type: "text/javascript" }));

  /** A worker with the core loaded; `onMessage` gets what it posts. */
  function startWorker(onMessage) {
    const w = new Worker(workerUrl);
    w.onmessage = (ev) => onMessage(ev.data);
    modulePromise.then((module) => w.postMessage({ module }));
    return w;
  }

  // The worker for requests that answer at once; replaced after a crash.
  let quick = null;
  const pending = new Map();
  let nextId = 1;
  function ask(msg) {
    if (!quick) {
      quick = startWorker((m) => {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.crashed) {
          quick.terminate();
          quick = null;
        }
        p(m);
      });
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      quick.postMessage({ id, ...msg });
    });
  }

  /** The core's answer (`{"ok": ...}` or `{"status", "error"}`) as the page's api() gives it. */
  function unwrap(m) {
    if (m.crashed) throw new ApiError(500, { error: { code: "internal", message: m.crashed } });
    const a = JSON.parse(m.answer);
    if (a.error) throw new ApiError(a.status || 500, a);
    return a.ok;
  }

  /** A hash of the text, as the server's `version` (opaque to the page). */
  function version(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16).padStart(8, "0");
  }

  function bytes(text) {
    return new TextEncoder().encode(text).length;
  }

  // Jobs: id -> { state, kind, progress, result, worker, waiters }.
  const jobs = new Map();
  let nextJob = 1;

  function finish(job, result) {
    if (job.result) return;
    job.result = result;
    if (job.worker) job.worker.terminate();
    job.worker = null;
    for (const w of job.waiters) w(result);
    job.waiters = [];
  }

  async function startJob(kind, body) {
    const text = JSON.stringify(body);
    const budget = unwrap(await ask({ kind: "budget", job: kind, body: text }));
    const id = `local-${nextJob++}`;
    const job = { kind, progress: null, result: null, worker: null, waiters: [], onProgress: [] };
    jobs.set(id, job);
    job.worker = startWorker((m) => {
      if (m.progress) {
        job.progress = JSON.parse(m.progress);
        for (const f of job.onProgress) f(job.progress);
        return;
      }
      let result;
      try {
        result = unwrap(m).result;
      } catch (e) {
        result = { outcome: "error", message: e.message };
      }
      finish(job, result);
    });
    job.worker.postMessage({ id: 1, kind: "job", job: kind, body: text });
    return { job: id, budget };
  }

  function jobNamed(path) {
    const m = /^\/api\/jobs\/([^/]+)/.exec(path);
    const job = m && jobs.get(decodeURIComponent(m[1]));
    if (!job) throw new ApiError(404, { error: { code: "not_found", message: `no job ${m ? m[1] : ""}` } });
    return job;
  }

  function writeFile(body) {
    const path = String(body.path || "").replace(/^\.\//, "");
    if (!path) throw new ApiError(400, { error: { code: "bad_request", message: "no file name" } });
    const named = /\.(puz|txt)$/.test(path) ? path : `${path}.puz`;
    const now = files.has(named) ? version(files.get(named)) : null;
    if ((body.create && now !== null) || (body.base != null && body.base !== now)) {
      throw new ApiError(409, { error: { code: "conflict", version: now, message: body.create ? `${named} exists already: pick another name` : `${named} changed since it was loaded` } });
    }
    files.set(named, body.text);
    return { path: named, bytes: bytes(body.text), version: version(body.text) };
  }

  async function api(method, path, body, signal) {
    if (signal && signal.aborted) throw new DOMException("aborted", "AbortError");
    const route = path.split("?")[0];
    if (method === "GET" && route === "/api/files") {
      return {
        root: embedded.root || "this page",
        initial: embedded.initial || null,
        files: [...files].map(([p, t]) => ({ path: p, bytes: bytes(t) })),
      };
    }
    if (method === "GET" && route === "/api/file") {
      const p = new URLSearchParams(path.split("?")[1] || "").get("path");
      if (!files.has(p)) throw new ApiError(404, { error: { code: "not_found", message: `no file ${p} in this page` } });
      return { path: p, text: files.get(p), version: version(files.get(p)) };
    }
    if (method === "PUT" && route === "/api/file") return writeFile(body);
    if (method === "GET" && route === "/api/templates") return unwrap(await ask({ kind: "call", route, body: "{}" }));
    if (method === "POST" && ["/api/solve", "/api/analyze", "/api/test"].includes(route)) {
      return startJob(route.slice(5), body);
    }
    if (method === "POST" && route === "/api/picture") {
      const m = await ask({ kind: "picture", body: JSON.stringify(body) });
      if (m.bytes) return m.bytes;
      return unwrap(m);
    }
    if (route.startsWith("/api/jobs/")) {
      const job = jobNamed(route);
      if (method === "DELETE") {
        const stored = job.progress ? job.progress.stored : 0;
        finish(job, { outcome: "cancelled", message: `cancelled after storing ${stored} states` });
        return { cancelled: true };
      }
      return { state: job.result ? "done" : "running", kind: job.kind, progress: job.progress, result: job.result };
    }
    if (method === "POST") {
      const answer = unwrap(await ask({ kind: "call", route, body: JSON.stringify(body) }));
      if (signal && signal.aborted) throw new DOMException("aborted", "AbortError");
      return answer;
    }
    throw new ApiError(404, { error: { code: "not_found", message: `no such API route ${method} ${route}` } });
  }

  /** Resolves with a job's result; `onProgress` gets each progress report until then. */
  function follow(id, onProgress) {
    const job = jobs.get(id);
    if (!job) return Promise.resolve({ outcome: "error", message: `no job ${id}` });
    if (job.result) return Promise.resolve(job.result);
    job.onProgress.push(onProgress);
    return new Promise((resolve) => job.waiters.push(resolve));
  }

  window.puzLocal = { api, follow };
})();
