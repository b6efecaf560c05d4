// Wissen Research: the live trace (server-sent events) with what the run is doing and for
// how long, cited pages beside the report (the cited figure or sentence marked and in
// view), and a few waits made visible (an Ask starting, the MLflow UI starting).
// Everything from the server is set as text (textContent), never parsed as HTML.
"use strict";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

// The activity indicator: the run's current stage and the time since it started, ticking
// every second, until the report arrives. The server gives the elapsed time at render.
const activity = {
  box: document.getElementById("activity"),
  slices: 0,
  done: 0,
  timer: null,
  start() {
    if (!this.box) return;
    const since = performance.now() - 1000 * Number(this.box.dataset.elapsed || 0);
    const shown = document.getElementById("activity-elapsed");
    const tick = () => { shown.textContent = duration((performance.now() - since) / 1000); };
    tick();
    this.timer = setInterval(tick, 1000);
  },
  stage(text) {
    const node = document.getElementById("activity-stage");
    if (node) node.textContent = text;
  },
  follow(event) {
    const where = [event.slice, event.probe].filter(Boolean).join(" · ");
    switch (event.kind) {
      case "started": this.stage("Started: loading the model"); break;
      case "planning": this.stage("Planning: reading the question and choosing the companies and periods to research"); break;
      case "plan":
        this.slices = (event.detail || "").split(",").filter((s) => s.trim()).length;
        this.stage(`Planned ${this.slices} slice${this.slices === 1 ? "" : "s"}: writing the research questions`);
        break;
      case "slice_start": this.stage(`Researching ${where}`); break;
      case "probes": this.stage(`Researching ${where}: ${event.detail}`); break;
      case "search": this.stage(`Searching the filings: ${where}`); break;
      case "draft": this.stage(`Drafting a cited answer: ${where}`); break;
      case "verdict": this.stage(`Reviewing the draft: ${where}`); break;
      case "slice_done":
        this.done += 1;
        this.stage(this.slices && this.done >= this.slices
          ? "Writing the report from the slices' findings"
          : `Finished ${where} (${this.done} of ${this.slices || "?"} slices)`);
        break;
      case "report": this.stage("Report written: checking its citations and saving it"); break;
      default: break;
    }
  },
  end(status) {
    if (!this.box) return;
    clearInterval(this.timer);
    this.box.classList.add("ended");
    this.stage(`Run ${status}`);
  },
};

// A run this server did not start (a terminal's) has no stream here: poll its status.
function watchStatus() {
  const waiting = document.getElementById("waiting");
  if (!waiting || !waiting.dataset.run) return;
  const timer = setInterval(async () => {
    const response = await fetch(waiting.dataset.run, { headers: { Accept: "application/json" } });
    if (response.ok && (await response.json()).status !== "running") {
      clearInterval(timer);
      window.location.reload();
    }
  }, 3000);
}

function followTrace() {
  activity.start();
  const list = document.getElementById("trace");
  if (!list || !list.dataset.events) { watchStatus(); return; }
  const source = new EventSource(list.dataset.events);  // reconnects with Last-Event-ID
  source.addEventListener("trace", (message) => {
    const event = JSON.parse(message.data);
    const item = el("li");
    item.dataset.kind = event.kind;
    item.append(el("span", "t", `${Number(event.elapsed).toFixed(1)}s`), el("span", "k", event.kind));
    const where = [event.slice, event.probe].filter(Boolean).join(" · ");
    item.append(document.createTextNode(`${where}${event.detail ? " " + event.detail : ""}`));
    list.append(item);
    list.scrollTop = list.scrollHeight;
    activity.follow(event);
  });
  source.addEventListener("end", (message) => {
    source.close();
    const status = document.getElementById("run-status");
    const end = JSON.parse(message.data);
    if (status) { status.textContent = end.status; status.className = `status-${end.status}`; }
    activity.end(end.status);
    if (document.getElementById("waiting")) window.location.reload();
  });
}

// Scroll `box` (a scrolling element) so `node` sits in its middle, or the window when
// `box` does not scroll.
function centre(node, box) {
  if (!node) { if (box) box.scrollTop = 0; return; }
  if (box && box.scrollHeight > box.clientHeight) {
    const top = node.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
  const rect = node.getBoundingClientRect();
  if (rect.top < 0 || rect.bottom > window.innerHeight) node.scrollIntoView({ block: "center" });
}

async function showPage(link) {
  const panel = document.getElementById("cited-page");
  if (!panel) return false;
  const query = new URLSearchParams();
  if (link.dataset.figure) query.set("figure", link.dataset.figure);
  if (link.dataset.quote) query.set("quote", link.dataset.quote);
  const qs = query.toString();
  const url = `/api/pages/${encodeURIComponent(link.dataset.uid)}` + (qs ? `?${qs}` : "");
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) return false;
  const page = await response.json();
  const title = document.getElementById("cited-title");
  title.textContent = `${page.doc_label} p.${page.page}`;
  title.href = link.href;  // the page viewer, full width
  const marked = page.marked === "figure" ? ` · marked: ${page.figure}`
    : page.marked === "sentence" ? " · marked: the cited passage" : "";
  document.getElementById("cited-meta").textContent =
    `[${link.dataset.cite}] page_id ${page.page_id} · uid ${page.uid}${marked}`;
  const text = document.getElementById("cited-text");
  text.replaceChildren();
  let first = null;
  for (const piece of page.segments) {
    if (piece.mark) { const m = el("mark", null, piece.text); first = first || m; text.append(m); }
    else text.append(document.createTextNode(piece.text));
  }
  const image = document.getElementById("cited-image");
  if (page.image) { image.src = page.image; image.alt = `${page.doc_label} page ${page.page}`; image.hidden = false; }
  else { image.hidden = true; image.removeAttribute("src"); }
  document.querySelectorAll("a.cite.active").forEach((a) => a.classList.remove("active"));
  link.classList.add("active");
  panel.hidden = false;
  centre(first, text);  // the marked figure or passage in the middle of the page text
  return true;
}

function citationClicks() {
  document.addEventListener("click", (event) => {
    const dagger = event.target.closest("a.dagger[data-notes]");
    if (dagger && dagger.dataset.notes) {
      document.querySelectorAll("ul.notes li.active").forEach((li) => li.classList.remove("active"));
      for (const anchor of dagger.dataset.notes.split(" ")) {
        const note = document.getElementById(anchor);
        if (note) note.classList.add("active");
      }
      return;  // the link itself scrolls to the Notes
    }
    const link = event.target.closest("a.cite[data-uid]");
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    showPage(link).then((shown) => { if (!shown) window.location.href = link.href; });
  });
  const close = document.getElementById("cited-close");
  if (close) close.addEventListener("click", () => { document.getElementById("cited-page").hidden = true; });
}

// The full page view opens on the marked figure or passage, not at the top of the page.
function revealMark() {
  const text = document.getElementById("page-text");
  if (text) centre(text.querySelector("mark"), null);
}

// Preparing a run takes seconds: say so, and do not start it twice.
function askStarting() {
  const form = document.getElementById("ask-form");
  if (!form) return;
  form.addEventListener("submit", () => {
    const button = document.getElementById("ask-button");
    const note = document.getElementById("ask-starting");
    if (note) note.hidden = false;
    setTimeout(() => { if (button) { button.disabled = true; button.textContent = "Starting…"; } }, 0);
  });
}

// The MLflow UI started from the help page: poll until it listens, then open the run.
function mlflowWait() {
  const wait = document.getElementById("mlflow-wait");
  if (!wait || !wait.dataset.starting) return;
  const timer = setInterval(async () => {
    const response = await fetch(wait.dataset.api, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const state = await response.json();
    if (state.running || !state.starting) { clearInterval(timer); window.location.reload(); }
  }, 1000);
}

followTrace();
citationClicks();
revealMark();
askStarting();
mlflowWait();
