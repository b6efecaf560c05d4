// Wissen Research: the live trace (server-sent events) and cited pages beside the report.
// Everything from the server is set as text (textContent), never parsed as HTML.
"use strict";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

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
  });
  source.addEventListener("end", (message) => {
    source.close();
    const status = document.getElementById("run-status");
    const end = JSON.parse(message.data);
    if (status) { status.textContent = end.status; status.className = `status-${end.status}`; }
    if (document.getElementById("waiting")) window.location.reload();
  });
}

async function showPage(link) {
  const panel = document.getElementById("cited-page");
  if (!panel) return false;
  const figure = link.dataset.figure || "";
  const url = `/api/pages/${encodeURIComponent(link.dataset.uid)}` + (figure ? `?figure=${encodeURIComponent(figure)}` : "");
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) return false;
  const page = await response.json();
  const title = document.getElementById("cited-title");
  title.textContent = `${page.doc_label} p.${page.page}`;
  title.href = link.href;  // the page viewer, full width
  document.getElementById("cited-meta").textContent =
    `[${link.dataset.cite}] page_id ${page.page_id} · uid ${page.uid}` + (page.figure ? ` · marked: ${page.figure}` : "");
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
  // Scroll the page text (not the window) so the marked figure sits in its middle.
  text.scrollTop = first ? Math.max(0, first.offsetTop - text.clientHeight / 2) : 0;
  return true;
}

function citationClicks() {
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a.cite[data-uid]");
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    showPage(link).then((shown) => { if (!shown) window.location.href = link.href; });
  });
  const close = document.getElementById("cited-close");
  if (close) close.addEventListener("click", () => { document.getElementById("cited-page").hidden = true; });
}

followTrace();
citationClicks();
