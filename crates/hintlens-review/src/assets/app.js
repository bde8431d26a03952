// The review page: a task list with filters, and a task view with the evidence beside each
// identifier and the decisions. Plain JavaScript served by `hintlens review`, no build step.
// Every text from the results or the repository goes in through textContent, never as HTML.
"use strict";

const state = {
  list: null, // /api/tasks
  shown: [], // the tasks the filters let through, in order
  current: null, // the task view (/api/task)
  selection: null,
  projection: "declaration",
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const value = await response.json();
  if (!response.ok) throw new Error(value.error || response.statusText);
  return value;
}

// --- where we are: #task=ID&selection=S&projection=P -------------------------------------------

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { task: params.get("task"), selection: params.get("selection"), projection: params.get("projection") };
}

function writeHash(task) {
  const params = new URLSearchParams();
  if (task) params.set("task", task);
  if (state.selection) params.set("selection", state.selection);
  params.set("projection", state.projection);
  history.replaceState(null, "", "#" + params.toString());
}

// --- the task list --------------------------------------------------------------------------

function hintCount(task) {
  const n = task.counts[state.selection];
  return n === undefined ? null : n;
}

function filtered() {
  const q = $("search").value.trim().toLowerCase();
  const repo = $("f-repo").value;
  const status = $("f-status").value;
  const empty = $("f-empty").value;
  const unreviewed = $("f-unreviewed").checked;
  const hidden = $("f-hidden").value;
  return state.list.tasks.filter((t) => {
    if (hidden === "hidden" && !(t.hidden > 0)) return false;
    if (hidden === "none" && t.hidden !== 0) return false;
    if (q && !t.id.toLowerCase().includes(q) && !t.repo.toLowerCase().includes(q)) return false;
    if (repo && t.repo !== repo) return false;
    if (status && t.status !== status) return false;
    const n = hintCount(t);
    if (empty === "empty" && !(t.status === "ok" && !n)) return false;
    if (empty === "nonempty" && !n) return false;
    if (unreviewed && t.reviewed) return false;
    return true;
  });
}

function reviewBadges(t) {
  return [
    t.reviewed && el("span", { class: "badge reviewed" }, "reviewed"),
    t.flagged && el("span", { class: "badge flagged" }, "flagged"),
    t.dropped > 0 && el("span", { class: "badge dropped" }, `${t.dropped} dropped`),
  ];
}

// Benchmarks' ids often share a long prefix and suffix (`instance_qutebrowser__qutebrowser-<commit>-v<hash>`):
// the list shows what tells them apart; the whole id is the row's title.
function shortener(ids) {
  if (ids.length < 2) return (id) => id;
  const common = (a, b) => { let n = 0; while (n < a.length && n < b.length && a[n] === b[n]) n++; return n; };
  const reversed = (s) => [...s].reverse().join("");
  let prefix = ids[0].length, suffix = ids[0].length;
  for (const id of ids) {
    prefix = Math.min(prefix, common(ids[0], id));
    suffix = Math.min(suffix, common(reversed(ids[0]), reversed(id)));
  }
  const cut = (n) => (n >= 12 ? n : 0);
  return (id) => {
    const start = cut(prefix), end = cut(suffix);
    if (start + end >= id.length) return id;
    return (start ? "…" : "") + id.slice(start, id.length - end) + (end ? "…" : "");
  };
}

function renderList() {
  state.shown = filtered();
  const rows = state.shown.map((t) => {
    const n = hintCount(t);
    return el(
      "tr",
      {
        "data-testid": "task-row",
        "data-id": t.id,
        class: state.current && state.current.id === t.id ? "current" : undefined,
        onclick: () => openTask(t.id),
      },
      el("td", { class: "id", title: t.id }, state.short(t.id)),
      el("td", {}, t.repo),
      el("td", { class: "status-" + t.status }, t.status),
      el("td", {}, n === null ? "–" : String(n)),
      el("td", { class: t.hidden > 0 ? "hidden-count" : undefined, "data-testid": "hidden-count" }, t.hidden === null || t.hidden === undefined ? "–" : String(t.hidden)),
      el("td", {}, t.hvm === null || t.hvm === undefined ? "–" : t.hvm.toFixed(2)),
      el("td", { "data-testid": "review-state" }, reviewBadges(t)),
    );
  });
  $("tasks").tBodies[0].replaceChildren(...rows);
  $("count").textContent = `${state.shown.length} of ${state.list.tasks.length} tasks`;
  const ok = state.list.tasks.filter((t) => t.status === "ok");
  const reviewed = ok.filter((t) => t.reviewed).length;
  $("progress").textContent = `${reviewed}/${ok.length} reviewed`;
}

function fillSelect(select, values, chosen, label) {
  select.replaceChildren(...values.map((v) => el("option", { value: v, selected: v === chosen }, label ? label(v) : v)));
}

function replaceSummary(summary) {
  const i = state.list.tasks.findIndex((t) => t.id === summary.id);
  if (i >= 0) state.list.tasks[i] = summary;
  renderList();
}

// --- hidden contracts per repository: an inline SVG bar chart ---------------------------------

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// One bar per repository: its tasks (grey) and, over them, those with a hidden contract (red),
// scaled to the largest repository; a click shows that repository's tasks with hidden contracts.
function renderAudit() {
  const audit = state.list.audit;
  const told = audit.told.length ? `told ${audit.told.join(" + ")}` : `told: ${audit.told_from}`;
  $("audit-told").textContent = `· ${told} · ${audit.overall.with_hidden}/${audit.overall.tasks} tasks, ${audit.overall.hidden} hidden names`;
  const repos = audit.repositories;
  const label = 150, width = 430, row = 20, barMax = width - label - 70;
  const most = Math.max(1, ...repos.map((r) => r.tasks));
  const chart = svg("svg", { width, height: row * repos.length + 4, viewBox: `0 0 ${width} ${row * repos.length + 4}`, role: "img", "aria-label": "tasks with a hidden contract per repository" });
  repos.forEach((r, i) => {
    const y = i * row + 2;
    const w = (n) => Math.max(n > 0 ? 1 : 0, Math.round((barMax * n) / most));
    const name = r.repo.length > 24 ? "…" + r.repo.slice(-23) : r.repo;
    const bar = svg(
      "g",
      { class: "bar", "data-testid": "audit-bar", "data-repo": r.repo, "data-tasks": r.tasks, "data-with-hidden": r.with_hidden },
      svg("title", {}, `${r.repo}: ${r.with_hidden} of ${r.tasks} tasks with a hidden contract, ${r.hidden} hidden names`),
      svg("text", { x: 0, y: y + 13 }, name),
      svg("rect", { class: "tasks", x: label, y, width: w(r.tasks), height: row - 6 }),
      svg("rect", { class: "hidden", x: label, y, width: w(r.with_hidden), height: row - 6 }),
      svg("text", { x: label + w(r.tasks) + 6, y: y + 13 }, `${r.with_hidden}/${r.tasks}`),
    );
    bar.addEventListener("click", () => {
      $("f-repo").value = r.repo;
      $("f-hidden").value = "hidden";
      renderList();
    });
    chart.append(bar);
  });
  $("audit-chart").replaceChildren(repos.length ? chart : el("p", { class: "muted" }, "no task has an answer"));
}

// --- the task view --------------------------------------------------------------------------

async function openTask(id) {
  const params = new URLSearchParams({ id, projection: state.projection });
  if (state.selection) params.set("selection", state.selection);
  let view;
  try {
    view = await api("/api/task?" + params.toString());
  } catch (e) {
    $("placeholder").hidden = false;
    $("placeholder").textContent = `Cannot open ${id}: ${e.message}`;
    $("task").hidden = true;
    return;
  }
  // Re-opened after a decision: stay where the reader was.
  const pane = $("task-pane");
  const scroll = state.current && state.current.id === id ? pane.scrollTop : 0;
  state.current = view;
  writeHash(id);
  renderTask();
  pane.scrollTop = scroll;
  renderList();
  const row = document.querySelector(`#tasks tr[data-id="${CSS.escape(id)}"]`);
  if (row) row.scrollIntoView({ block: "nearest" });
}

function fmt(x) {
  return x === null || x === undefined ? "–" : Number.isInteger(x) ? String(x) : x.toFixed(1);
}

function judgeTable(scores) {
  if (!scores || scores.length === 0) return null;
  return el(
    "table",
    { class: "judge", "data-testid": "judge" },
    el("tr", {}, el("th", {}, "attribute"), el("th", {}, "N"), el("th", {}, "D"), el("th", {}, "G"), el("th", {}, "HVM")),
    scores.map((s) =>
      el("tr", {}, el("td", {}, s.attribute), el("td", {}, fmt(s.N)), el("td", {}, fmt(s.D)), el("td", {}, fmt(s.G)), el("td", {}, fmt(s.HVM))),
    ),
  );
}

function excerpt(ex) {
  if (!ex) return el("p", { class: "muted" }, "no source at this snapshot");
  const width = String(ex.start + ex.lines.length).length;
  const text = ex.lines.map((l, i) => String(ex.start + i).padStart(width) + "  " + l).join("\n");
  return el("pre", { "data-testid": "definition" }, text + (ex.cut ? `\n… ${ex.cut} more lines` : ""));
}

function identifierCard(ident, index) {
  const d = ident.decision || {};
  const verdict = d.verdict || null;
  const note = el("textarea", { placeholder: "note (why keep or drop)", "data-testid": "identifier-note" });
  note.value = d.note || "";
  const saved = el("span", { class: "saved" });
  const send = async (v) => {
    try {
      const answer = await api("/api/decision", {
        target: "identifier",
        instance_id: state.current.id,
        identifier: ident.key,
        verdict: v,
        note: note.value,
      });
      ident.decision = { verdict: v, note: note.value };
      replaceSummary(answer.summary);
      await openTask(state.current.id);
    } catch (e) {
      saved.textContent = "not saved: " + e.message;
      saved.className = "problem";
    }
  };
  const card = el(
    "div",
    {
      class: "ident" + (verdict === "drop" ? " dropped" : verdict === "keep" ? " kept" : ""),
      tabindex: "0",
      "data-testid": "identifier",
      "data-name": ident.name,
      "data-qualified-name": ident.qualified_name,
      "data-verdict": verdict || "",
      onkeydown: (e) => {
        if (e.target !== card) return;
        if (e.key === "d") { e.preventDefault(); send("drop"); }
        if (e.key === "k") { e.preventDefault(); send("keep"); }
      },
    },
    el(
      "div",
      { class: "title" },
      el("span", { class: "muted" }, `${index + 1}.`),
      el("span", {}, ident.kind),
      el("span", { class: "name" }, ident.name),
      el("span", { class: "muted" }, `${ident.path}:${ident.line}`),
      el("span", { class: "muted" }, ident.direction),
    ),
    el("pre", { "data-testid": "entry" }, ident.entry),
    el(
      "div",
      { class: "facts" },
      el("span", {}, el("b", {}, "qualified "), ident.qualified_name),
      el("span", {}, el("b", {}, "base occurrences "), String(ident.base_occurrences)),
      el("span", { title: "0 stated in the issue, 1 findable at the base, 3 absent from both" }, el("b", {}, "necessity "), String(ident.necessity)),
      el("span", {}, el("b", {}, "in the statement "), ident.in_problem_statement ? "yes" : "no"),
      el("span", {}, el("b", {}, "resolution "), ident.resolution),
    ),
    judgeTable(ident.judge),
    el("details", { open: true }, el("summary", {}, `definition at ${state.current.snapshot.label}`), excerpt(ident.definition)),
    el(
      "details",
      { open: true },
      el("summary", {}, `${ident.evidence.length} evidence site${ident.evidence.length === 1 ? "" : "s"}`),
      el(
        "div",
        { class: "evidence", "data-testid": "evidence" },
        ident.evidence.map((e) =>
          el("div", {}, el("span", { class: "where" }, `${e.path}:${e.line} [${e.rule || "name"}] `), e.text === null ? "(not at this snapshot)" : e.text.trim()),
        ),
      ),
    ),
    el(
      "div",
      { class: "actions" },
      el("button", { class: "keep" + (verdict === "keep" ? " on" : ""), "data-action": "keep", onclick: () => send(verdict === "keep" ? null : "keep") }, "Keep"),
      el("button", { class: "drop" + (verdict === "drop" ? " on" : ""), "data-action": "drop", onclick: () => send(verdict === "drop" ? null : "drop") }, "Drop"),
      note,
      el("button", { "data-action": "save-note", onclick: () => send(verdict) }, "Save note"),
      saved,
    ),
  );
  return card;
}

function taskDecision(view) {
  const d = view.task_decision || {};
  const reviewed = el("input", { type: "checkbox", checked: !!d.reviewed, "data-testid": "task-reviewed" });
  const flagged = el("input", { type: "checkbox", checked: !!d.flagged, "data-testid": "task-flagged" });
  const note = el("textarea", { placeholder: "note on the task", "data-testid": "task-note" });
  note.value = d.note || "";
  const saved = el("span", { class: "saved" });
  const send = async () => {
    try {
      const answer = await api("/api/decision", {
        target: "task",
        instance_id: view.id,
        reviewed: reviewed.checked,
        flagged: flagged.checked,
        note: note.value,
      });
      view.task_decision = { reviewed: reviewed.checked, flagged: flagged.checked, note: note.value };
      saved.textContent = "saved";
      replaceSummary(answer.summary);
    } catch (e) {
      saved.textContent = "not saved: " + e.message;
      saved.className = "problem";
    }
  };
  reviewed.addEventListener("change", send);
  flagged.addEventListener("change", send);
  return el(
    "div",
    { class: "task-decision" },
    el("label", {}, reviewed, " reviewed (r)"),
    el("label", {}, flagged, " flagged (f)"),
    note,
    el("button", { onclick: send, "data-action": "save-task" }, "Save note"),
    saved,
  );
}

function hiddenContracts(v) {
  if (!v.hidden_contracts) return null;
  const told = v.told.length ? v.told.join(" + ") : "what the batch was told";
  if (v.hidden_contracts.length === 0) {
    return el("p", { class: "muted", "data-testid": "hidden-contracts" }, `No hidden contract: every load-bearing name the tests need is told (${told}).`);
  }
  return el(
    "div",
    { class: "contracts", "data-testid": "hidden-contracts" },
    el("h3", {}, `${v.hidden_contracts.length} hidden contract${v.hidden_contracts.length === 1 ? "" : "s"}`, el("span", { class: "muted" }, ` — not stated by ${told}, in no file of the base`)),
    el(
      "ul",
      {},
      v.hidden_contracts.map((c) =>
        el(
          "li",
          { "data-testid": "hidden-contract", "data-name": c.name },
          `${c.kind} ${c.qualified_name} `,
          el("span", { class: "where" }, `${c.path}:${c.line} · used at ${c.uses.join(", ") || "–"}`),
        ),
      ),
    ),
  );
}

function renderTask() {
  const v = state.current;
  $("placeholder").hidden = true;
  const dropped = v.identifiers.filter((i) => i.decision && i.decision.verdict === "drop").length;
  const children = [
    el("h2", { "data-testid": "task-title" }, v.id),
    el("div", { class: "facts" },
      el("span", {}, el("b", {}, "repository "), v.repo),
      el("span", {}, el("b", {}, "status "), v.status),
      el("span", {}, el("b", {}, "base "), v.base_commit || "–"),
      el("span", {}, el("b", {}, "sources read at "), v.snapshot.label)),
    v.snapshot.problem && el("p", { class: "problem" }, v.snapshot.problem),
    v.error && el("p", { class: "problem" }, `${v.error.kind}: ${v.error.message}`),
    taskDecision(v),
    el("h3", {}, "Problem statement"),
    v.problem_statement === null
      ? el("p", { class: "muted" }, "not loaded: start the review with --dataset to see it")
      : el("pre", { class: "statement", "data-testid": "statement" }, v.problem_statement),
    hiddenContracts(v),
    el("h3", {}, `Hint ${v.hint.key}`, dropped ? ` — ${dropped} identifier${dropped === 1 ? "" : "s"} dropped` : ""),
    el(
      "div",
      { class: "hints" },
      el("div", {}, el("div", { class: "muted" }, "as curated"), el("pre", { "data-testid": "hint-curated" }, v.hint.curated || "(empty: no hint)")),
      dropped > 0 && el("div", {}, el("div", { class: "muted" }, "as selected"), el("pre", { "data-testid": "hint-all" }, v.hint.all || "(empty)")),
    ),
    el("h3", {}, `${v.identifiers.length} identifier${v.identifiers.length === 1 ? "" : "s"} (${v.selection})`),
    v.identifiers.map(identifierCard),
    v.notes && v.notes.length > 0 && el("details", {}, el("summary", {}, "notes of the batch"), el("pre", {}, v.notes.join("\n"))),
  ];
  const box = $("task");
  box.replaceChildren(...children.flat().filter(Boolean));
  box.hidden = false;
}

// --- keyboard -------------------------------------------------------------------------------

function move(step) {
  if (state.shown.length === 0) return;
  const at = state.current ? state.shown.findIndex((t) => t.id === state.current.id) : -1;
  const next = Math.min(state.shown.length - 1, Math.max(0, at + step));
  openTask(state.shown[next].id);
}

function toggle(testid) {
  const box = document.querySelector(`[data-testid="${testid}"]`);
  if (box) box.click();
}

document.addEventListener("keydown", (e) => {
  // Keys go to what takes text; a checkbox in focus does not.
  const typing = (e.target instanceof HTMLInputElement && !["checkbox", "radio", "button"].includes(e.target.type)) ||
    e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
  if (e.key === "Escape" && typing) { e.target.blur(); return; }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target instanceof HTMLElement && e.target.classList.contains("ident") && (e.key === "d" || e.key === "k")) return;
  switch (e.key) {
    case "j": case "ArrowDown": e.preventDefault(); move(1); break;
    case "k": case "ArrowUp": e.preventDefault(); move(-1); break;
    case "/": e.preventDefault(); $("search").focus(); break;
    case "r": toggle("task-reviewed"); break;
    case "f": toggle("task-flagged"); break;
  }
});

// --- start ----------------------------------------------------------------------------------

async function start() {
  const started = performance.now();
  state.list = await api("/api/tasks");
  state.short = shortener(state.list.tasks.map((t) => t.id));
  const hash = readHash();
  const selections = state.list.selections.length ? state.list.selections : ["defuse"];
  state.selection = selections.includes(hash.selection) ? hash.selection : selections.includes("defuse") ? "defuse" : selections[0];
  state.projection = state.list.projections.includes(hash.projection) ? hash.projection : "declaration";
  fillSelect($("selection"), selections, state.selection);
  fillSelect($("projection"), state.list.projections, state.projection);
  const repos = [...new Set(state.list.tasks.map((t) => t.repo))].sort();
  $("f-repo").append(...repos.map((r) => el("option", { value: r }, r)));
  const statuses = [...new Set(state.list.tasks.map((t) => t.status))].sort();
  $("f-status").append(...statuses.map((s) => el("option", { value: s }, s)));
  $("source").textContent = `${state.list.results} · decisions: ${state.list.decisions}`;
  renderAudit();
  for (const id of ["search", "f-repo", "f-status", "f-empty", "f-unreviewed", "f-hidden"]) {
    $(id).addEventListener("input", renderList);
  }
  const reopen = () => {
    state.selection = $("selection").value;
    state.projection = $("projection").value;
    writeHash(state.current && state.current.id);
    renderList();
    if (state.current) openTask(state.current.id);
  };
  $("selection").addEventListener("change", reopen);
  $("projection").addEventListener("change", reopen);
  renderList();
  // For the timing test: from navigation start to the list being populated.
  document.body.dataset.listReadyMs = String(Math.round(performance.now()));
  document.body.dataset.listBuildMs = String(Math.round(performance.now() - started));
  if (hash.task) await openTask(hash.task);
}

start().catch((e) => {
  $("placeholder").textContent = "Cannot load the tasks: " + e.message;
});
