// The report pages' only script (no framework, no inline script: the CSP
// allows 'self' only). Four independent parts, each idle unless its
// elements are on the page:
//   - live progress of a running run (Server-Sent Events), one step table
//     per verification (a fix run's baseline, then each round);
//   - the runs list, kept current by polling its server-rendered fragment;
//   - the filter box of a log page;
//   - opening a collapsed patch when a link points at it.
// Only textContent is ever set from event data; HTML comes only from the
// server's own templates (html/template escapes every value).
(function () {
  'use strict';

  function cell(tr, text, label, cls) {
    const td = document.createElement('td');
    td.textContent = text;
    td.dataset.label = label;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  // swapFragment fetches url and replaces the element with id by the
  // element of the same id in the answer.
  function swapFragment(url, id) {
    return fetch(url, { credentials: 'same-origin', cache: 'no-store' })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        const tpl = document.createElement('template');
        tpl.innerHTML = html; // server-rendered by html/template: escaped
        const fresh = tpl.content.getElementById(id);
        const old = document.getElementById(id);
        if (!fresh || !old) throw new Error('fragment without #' + id);
        old.replaceWith(fresh);
      });
  }

  // ---- Live progress --------------------------------------------------
  function liveProgress(live) {
    const groups = document.getElementById('live-groups');
    const notes = document.getElementById('live-notes');
    const log = document.getElementById('live-log');
    const state = document.getElementById('live-state');
    const maxLogChars = 400000;
    const headers = ['#', 'Step', 'Command', 'Exit code', 'Duration', 'Status', 'Cache'];
    let group = null;
    const rows = new Map();

    function title(attempt) {
      if (live.dataset.kind === 'fix') return attempt === 0 ? 'Baseline (unpatched)' : 'Round ' + attempt;
      return 'Verification';
    }

    function newGroup(attempt) {
      const div = document.createElement('div');
      div.className = 'live-group';
      const h = document.createElement('h3');
      h.textContent = title(attempt);
      const table = document.createElement('table');
      table.className = 'grid steps live-steps';
      const head = table.createTHead().insertRow();
      headers.forEach(function (name) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = name;
        head.appendChild(th);
      });
      const tbody = table.createTBody();
      div.append(h, table);
      groups.appendChild(div);
      group = { tbody: tbody, key: groups.children.length };
    }

    function note(text) {
      const li = document.createElement('li');
      li.textContent = text;
      notes.appendChild(li);
    }

    function appendLog(text) {
      const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
      log.appendChild(document.createTextNode(text));
      while (log.textContent.length > maxLogChars && log.firstChild) log.removeChild(log.firstChild);
      if (stick) log.scrollTop = log.scrollHeight;
    }

    // collapse keeps the live record but out of the way: the summary now
    // has the final step table, which must not appear twice.
    function collapse() {
      const det = document.createElement('details');
      det.className = 'live-done';
      const sum = document.createElement('summary');
      sum.textContent = 'Progress as it happened (steps per verification, notes, output)';
      det.appendChild(sum);
      Array.from(live.children).forEach(function (el) { if (el.tagName !== 'H2') det.appendChild(el); });
      live.appendChild(det);
    }

    const es = new EventSource(live.dataset.events);
    function on(name, fn) {
      es.addEventListener(name, function (e) { fn(JSON.parse(e.data)); });
    }

    on('verification', function (d) {
      newGroup(d.attempt);
      if (d.text) note(d.text);
    });

    on('step', function (d) {
      if (!group) newGroup(live.dataset.kind === 'fix' ? 0 : 1);
      const key = group.key + ':' + d.index;
      let tr = rows.get(key);
      if (!tr) {
        tr = document.createElement('tr');
        rows.set(key, tr);
        group.tbody.appendChild(tr);
      }
      tr.dataset.step = d.name;
      tr.replaceChildren();
      tr.className = 'live';
      cell(tr, String(d.index + 1), '#');
      cell(tr, d.name, 'Step');
      const code = document.createElement('code');
      code.textContent = d.command;
      cell(tr, '', 'Command').appendChild(code);
      cell(tr, '…', 'Exit code', 'num exit');
      cell(tr, '…', 'Duration', 'num');
      const badge = document.createElement('span');
      badge.className = 'badge live';
      badge.textContent = 'RUNNING';
      cell(tr, '', 'Status').appendChild(badge);
      cell(tr, '', 'Cache');
      appendLog('── ' + d.name + ': ' + d.command + '\n');
    });

    on('log', function (d) { appendLog(d.data); });

    on('step_done', function (d) {
      if (!group) return;
      const tr = rows.get(group.key + ':' + d.index);
      if (!tr) return;
      tr.className = d.class;
      const tds = tr.children;
      tds[3].textContent = d.exit_code;
      tds[4].textContent = d.duration;
      tds[5].firstChild.className = 'badge ' + d.class;
      tds[5].firstChild.textContent = d.status;
      tds[6].textContent = d.cache_hit ? 'cache hit' : '—';
    });

    on('note', function (d) { note(d.text); });

    on('finished', function (d) {
      es.close();
      live.dataset.live = 'false';
      state.textContent = d.status;
      state.className = 'badge ' + d.class;
      swapFragment(live.dataset.summary, 'summary')
        .then(collapse)
        .catch(function () { window.location.reload(); });
    });
  }

  // ---- Runs list ------------------------------------------------------
  function pollRuns(list) {
    const everyMs = 3000;
    setInterval(function () {
      const cur = document.getElementById('runs-list');
      // Never pull the list from under the keyboard focus.
      if (document.hidden || !cur || cur.contains(document.activeElement)) return;
      swapFragment(cur.dataset.poll, 'runs-list').catch(function () { /* try again next time */ });
    }, everyMs);
  }

  // ---- Log filter -----------------------------------------------------
  function logFilter(input, log) {
    const lines = Array.from(log.querySelectorAll('.line'));
    const texts = lines.map(function (l) { return l.textContent.toLowerCase(); });
    const count = document.getElementById('log-count');
    let timer = 0;
    function apply() {
      const q = input.value.toLowerCase();
      let shown = 0;
      for (let i = 0; i < lines.length; i++) {
        const hit = q === '' || texts[i].indexOf(q) >= 0;
        lines[i].hidden = !hit;
        if (hit) shown++;
      }
      count.textContent = q === '' ? lines.length + ' lines' : shown + ' of ' + lines.length + ' lines match';
    }
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(apply, lines.length > 5000 ? 120 : 0);
    });
    document.addEventListener('keydown', function (e) {
      if (e.key === '/' && document.activeElement !== input) {
        e.preventDefault();
        input.focus();
      }
    });
  }

  // ---- Links to collapsed patches -------------------------------------
  function openTarget() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const el = id ? document.getElementById(id) : null;
    if (el && el.tagName === 'DETAILS') el.open = true;
  }

  const live = document.getElementById('live');
  if (live && live.dataset.live === 'true') liveProgress(live);
  const runs = document.getElementById('runs-list');
  if (runs && runs.dataset.poll) pollRuns(runs);
  const input = document.getElementById('log-filter');
  const logEl = document.getElementById('log');
  if (input && logEl) logFilter(input, logEl);
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();
