// quarterdeck serve: polls a job's progress, previews pages, checks a class as it is typed.
"use strict";

function pollJob() {
  const box = document.getElementById("job");
  if (!box || !["queued", "running"].includes(box.dataset.state)) return;
  const bar = document.getElementById("bar");
  const step = document.getElementById("step");
  const state = document.getElementById("state");
  const tick = async () => {
    const reply = await fetch(box.dataset.status);
    if (!reply.ok) return;
    const job = await reply.json();
    // Until the command knows how much there is to do, the bar only says it is busy.
    if (job.total) { bar.max = job.total; bar.value = job.done; } else bar.removeAttribute("value");
    step.textContent = job.total ? `${job.done} of ${job.total}: ${job.step}`
      : "Reading the ship data…";
    if (job.state === "done" || job.state === "failed") {
      // The finished page lists the downloads and any messages.
      window.location.reload();
      return;
    }
    state.textContent = "Working";
    setTimeout(tick, 400);
  };
  setTimeout(tick, 300);
}

function pagers() {
  const figure = document.getElementById("preview");
  if (!figure) return;
  const image = document.getElementById("preview-img");
  const caption = document.getElementById("preview-caption");
  for (const form of document.querySelectorAll("form.pager")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const page = form.querySelector("input").value;
      const name = form.parentElement.querySelector("a").textContent;
      image.src = `${form.dataset.src}${page}.png`;
      image.alt = `Page ${page} of ${name}`;
      caption.textContent = `${name}, page ${page}`;
      figure.hidden = false;
    });
  }
  // A finished build shows its first packet's first page at once.
  const first = document.querySelector("form.pager");
  if (first) first.requestSubmit();
}

function goTo(text, line, column) {
  // Select LINE (both from 1) from COLUMN to its end, and scroll the textarea to it.
  const full = text.value;
  const lines = full.split("\n");
  let at = 0;
  for (let n = 0; n < Math.min(line - 1, lines.length); n++) at += lines[n].length + 1;
  const row = lines[Math.min(line, lines.length) - 1] || "";
  const start = at + Math.min(column - 1, row.length);
  // The height of the text before the line, wrapped as the textarea wraps it.
  text.value = full.substring(0, at);
  const above = text.scrollHeight;
  text.value = full;
  text.focus();
  text.setSelectionRange(start, at + row.length);
  text.scrollTop = Math.max(0, above - text.clientHeight / 3);
}

function classEditor() {
  const form = document.getElementById("class-form");
  if (!form) return;
  const text = document.getElementById("class-text");
  const upload = document.getElementById("class-file");
  const state = document.getElementById("check-state");
  const list = document.getElementById("check-lines");
  let timer = null;
  let asked = 0;
  const check = async () => {
    const mine = ++asked;
    state.textContent = "Checking…";
    const body = new FormData();
    body.append("text", text.value);
    const reply = await fetch(form.action, {method: "POST", body});
    if (mine !== asked) return;  // a later check is on its way
    const answer = reply.ok ? await reply.json() : {ok: false, lines: [`error: ${reply.status}`]};
    state.textContent = answer.ok ? "No problems." : "Problems found:";
    // The pieces follow the file each time it checks clean; otherwise they are marked
    // as the file was when it last did.
    const figure = document.getElementById("class-preview");
    figure.classList.toggle("stale", !answer.ok);
    if (answer.ok) draw();
    list.replaceChildren(...answer.lines.map((line) => {
      const item = document.createElement("li");
      const place = /^\S+?:(\d+):(\d+):/.exec(line);
      if (!place) { item.textContent = line; return item; }
      // A located problem is a button: it puts the cursor on its line and column.
      const go = document.createElement("button");
      go.type = "button";
      go.className = "located";
      go.textContent = line;
      go.addEventListener("click", () => goTo(text, Number(place[1]), Number(place[2])));
      item.className = "located";
      item.append(go);
      return item;
    }));
  };
  text.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 600); });
  upload.addEventListener("change", async () => {
    if (upload.files.length) { text.value = await upload.files[0].text(); check(); }
  });
  const component = document.getElementById("class-component");
  const ruleset = document.getElementById("class-ruleset");
  let drawn = 0;
  const draw = async () => {
    const mine = ++drawn;
    const figure = document.getElementById("class-preview");
    const caption = document.getElementById("class-preview-caption");
    const body = new FormData();
    body.append("text", text.value);
    body.append("component", component.value);
    body.append("ruleset", ruleset.value);
    caption.textContent = "Drawing…";
    figure.hidden = false;
    const reply = await fetch(form.dataset.preview, {method: "POST", body});
    if (mine !== drawn) return;  // a later drawing is on its way
    const answer = reply.ok ? await reply.json() : {ok: false, lines: [`error: ${reply.status}`]};
    const image = document.getElementById("class-preview-img");
    if (answer.ok && answer.png) {
      image.src = `data:image/png;base64,${answer.png}`;
      image.alt = `Preview: ${component.selectedOptions[0].textContent}`;
      caption.textContent = answer.lines.join(" ");
    } else {
      image.removeAttribute("src");
      caption.textContent = answer.lines.join("\n");
    }
  };
  document.getElementById("class-preview-button").addEventListener("click", draw);
  component.addEventListener("change", draw);
  ruleset.addEventListener("change", draw);
  check();
}

document.addEventListener("DOMContentLoaded", () => {
  pollJob(); pagers(); classEditor();
});
