// Live progress for a running run: follows /runs/{id}/events (Server-Sent
// Events), appends step rows and log output, and swaps in the final summary
// when the run finishes. Only textContent is ever set from event data.
(function () {
  'use strict';
  const live = document.getElementById('live');
  if (!live || live.dataset.live !== 'true') return;

  const steps = document.getElementById('live-steps');
  const notes = document.getElementById('live-notes');
  const log = document.getElementById('live-log');
  const state = document.getElementById('live-state');
  const maxLogChars = 400000;
  const rows = new Map();

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function appendLog(text) {
    const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    log.appendChild(document.createTextNode(text));
    while (log.textContent.length > maxLogChars && log.firstChild) log.removeChild(log.firstChild);
    if (stick) log.scrollTop = log.scrollHeight;
  }

  function on(name, fn) {
    es.addEventListener(name, function (e) { fn(JSON.parse(e.data)); });
  }

  const es = new EventSource(live.dataset.events);

  on('step', function (d) {
    let tr = rows.get(d.index);
    if (!tr) {
      tr = document.createElement('tr');
      tr.dataset.step = d.name;
      rows.set(d.index, tr);
      steps.appendChild(tr);
    }
    tr.replaceChildren();
    tr.className = 'live';
    cell(tr, String(d.index + 1));
    cell(tr, d.name);
    const cmd = cell(tr, '');
    const code = document.createElement('code');
    code.textContent = d.command;
    cmd.appendChild(code);
    cell(tr, '…', 'num exit');
    cell(tr, '…', 'num');
    const st = cell(tr, '');
    const badge = document.createElement('span');
    badge.className = 'badge live';
    badge.textContent = 'RUNNING';
    st.appendChild(badge);
    cell(tr, '');
    appendLog('── ' + d.name + ': ' + d.command + '\n');
  });

  on('log', function (d) { appendLog(d.data); });

  on('step_done', function (d) {
    const tr = rows.get(d.index);
    if (!tr) return;
    tr.className = d.class;
    const tds = tr.children;
    tds[3].textContent = d.exit_code;
    tds[4].textContent = d.duration;
    tds[5].firstChild.className = 'badge ' + d.class;
    tds[5].firstChild.textContent = d.status;
    tds[6].textContent = d.cache_hit ? 'cache hit' : '—';
  });

  on('note', function (d) {
    const li = document.createElement('li');
    li.textContent = d.text;
    notes.appendChild(li);
  });

  on('finished', function (d) {
    es.close();
    live.dataset.live = 'false';
    state.textContent = d.status;
    state.className = 'badge ' + d.class;
    fetch(live.dataset.summary, { credentials: 'same-origin', cache: 'no-store' })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        const tpl = document.createElement('template');
        tpl.innerHTML = html; // server-rendered by html/template: escaped
        document.getElementById('summary').replaceWith(tpl.content);
      })
      .catch(function () { window.location.reload(); });
  });
})();
