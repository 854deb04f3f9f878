// Lychee inspector: a single page over the REST API of lychee-server. Everything shown comes from
// memory, which holds user text, so nothing is ever inserted as HTML: elements are built with
// textContent only (see el()).
(function () {
  'use strict';

  const view = document.getElementById('view');
  const keyInput = document.getElementById('api-key');
  keyInput.value = sessionStorage.getItem('lychee-key') || '';
  document.getElementById('key-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sessionStorage.setItem('lychee-key', keyInput.value.trim());
    route();
  });

  // ---- HTTP ----

  // Bumped by every route(). A response to an older navigation is dropped (api() throws Stale and
  // failure() ignores it): the page's first, keyless request can answer 401 after the signed-in
  // one has drawn the namespaces, and must not replace them with an error.
  let navigation = 0;
  class Stale extends Error {}

  async function api(method, path, body) {
    const asked = navigation;
    const headers = { 'Accept': 'application/json' };
    const key = sessionStorage.getItem('lychee-key');
    if (key) headers['Authorization'] = 'Bearer ' + key;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (asked !== navigation) throw new Stale('superseded by a later navigation');
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (e) { /* not JSON */ }
    if (!res.ok) {
      const detail = json && (json.detail || json.title) ? (json.title + (json.detail ? ': ' + json.detail : '')) : res.statusText;
      const err = new Error(res.status + ' ' + detail);
      err.status = res.status;
      throw err;
    }
    return json;
  }

  const enc = encodeURIComponent;
  // Names are the library's (any visible character; enc turns '/' into %2F). A name that is '.' or '..'
  // is a step along the path to a browser however it is encoded (the URL standard reads %2E%2E as ..),
  // so the page cannot open it: it shows such a name without a link and says why, rather than a link
  // that leads nowhere. The REST API reaches it from clients that send %2E%2E as it is.
  const browsable = (name) => name !== '.' && name !== '..';
  const nameLink = (href, name, text) => browsable(name) ? link(href, text ?? name)
    : el('span', { class: 'unreachable' }, text ?? name,
      el('span', { class: 'muted' }, ' (a browser cannot open a name made of dots; use the REST API)'));
  // rows shown per channel card; the fused and reranked tables show the server's whole list
  const CHANNEL_ROWS = 8;
  const nsPath = (ns) => '/v1/namespaces/' + enc(ns);

  // ---- DOM helpers (text only) ----

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function table(caption, headers, rows, rowAttrs) {
    return el('table', {},
      el('caption', { class: 'muted' }, caption),
      el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, rows.map((r, i) => el('tr', rowAttrs ? rowAttrs(i) : {}, r.map((c) => el('td', {}, c))))));
  }

  function tags(list) {
    return (list || []).map((t) => el('span', { class: 'tag' }, t));
  }

  function num(x, digits) {
    return typeof x === 'number' && isFinite(x) ? x.toFixed(digits === undefined ? 3 : digits) : '–';
  }

  function show(title, ...content) {
    view.replaceChildren(el('h1', {}, title), ...content);
    document.title = title + ' · Lychee inspector';
    view.focus();
  }

  function failure(e) {
    if (e instanceof Stale) return;
    const hint = e.status === 401 ? ' Enter an API key above.' : e.status === 403 ? ' This key does not reach that namespace.' : '';
    show('Error', el('p', { class: 'error', role: 'alert' }, e.message + hint));
  }

  const link = (href, text) => el('a', { href }, text);

  // ---- views ----

  async function namespaces() {
    const r = await api('GET', '/v1/namespaces');
    const list = r.items || [];
    show('Namespaces',
      list.length === 0 ? el('p', { class: 'muted', id: 'no-namespaces' }, 'No namespace is visible with this key.')
        : el('ul', { id: 'namespaces' }, list.map((n) => el('li', {}, nameLink('#/ns/' + enc(n.namespace), n.namespace),
          el('span', { class: 'muted' }, ' ' + n.turns + ' turns')))));
  }

  async function namespace(ns) {
    const [status, sessions, segments] = await Promise.all([
      api('GET', nsPath(ns) + '/status'),
      api('GET', nsPath(ns) + '/sessions'),
      api('GET', nsPath(ns) + '/segments?limit=500')]);
    const stuck = (segments.items || []).filter((s) => s.state !== 'encoded');
    const retry = el('button', { type: 'button', id: 'retry', onclick: async () => {
      retry.disabled = true;
      try {
        const r = await api('POST', nsPath(ns) + '/encode-pending');
        retry.textContent = 'Retried: ' + (r.segments_encoded ?? 0) + ' encoded'
          + (r.segments_queued ? ', ' + r.segments_queued + ' queued for the background encoder' : '');
        setTimeout(route, 600);
      } catch (e) { failure(e); }
    } }, 'Retry pending segments');
    show('Namespace ' + ns,
      el('p', {}, link('#/ns/' + enc(ns) + '/recall', 'Recall playground'), ' · ',
        link('#/ns/' + enc(ns) + '/nodes', 'Evidence nodes'), ' · ',
        link('#/ns/' + enc(ns) + '/records', 'All records')),
      el('section', { 'aria-label': 'Status' }, el('h2', {}, 'Status'),
        table('Counts', ['turns', 'sessions', 'records', 'segments encoded', 'pending', 'failed', 'queued', 'stopped sessions'],
          [[status.turns, status.sessions, status.records, status.segments?.encoded ?? 0,
            status.segments?.pending ?? 0, status.segments?.failed ?? 0, status.queued ?? 0, status.stopped_sessions ?? 0]]),
        status.last_error ? el('p', { id: 'last-error' }, 'Last encoding error: ' + status.last_error) : []),
      el('section', { 'aria-label': 'Sessions' }, el('h2', {}, 'Sessions'),
        el('ul', { id: 'sessions' }, (sessions.items || []).map((s) =>
          el('li', {}, nameLink('#/ns/' + enc(ns) + '/session/' + enc(s.session), s.session),
            el('span', { class: 'muted' }, ' ' + s.next_index + ' turns'))))),
      el('section', { 'aria-label': 'Pending and failed segments' }, el('h2', {}, 'Pending and failed segments'),
        stuck.length === 0 ? el('p', { class: 'muted' }, 'Every segment is encoded.')
          : [table('Segments that are not encoded', ['segment', 'state', 'attempts', 'error'],
            stuck.map((s) => [link('#/ns/' + enc(ns) + '/segment/' + enc(s.id), s.id),
              el('span', { class: 'state-' + s.state }, s.state), s.attempts ?? '–', el('span', { class: 'error' }, s.error || '')])),
          retry]));
  }

  async function session(ns, sid) {
    const [turns, segments] = await Promise.all([
      api('GET', nsPath(ns) + '/sessions/' + enc(sid) + '/turns?limit=500'),
      api('GET', nsPath(ns) + '/segments?session=' + enc(sid) + '&limit=500')]);
    const segs = (segments.items || []).filter((s) => s.session === sid);
    const startOf = new Map(segs.map((s) => [s.first_turn, s]));
    const rows = [];
    const attrs = [];
    for (const t of turns.items || []) {
      const seg = segs.find((s) => t.index >= s.first_turn && t.index <= s.last_turn);
      const starts = startOf.get(t.index);
      rows.push([t.index, t.speaker || t.role, t.text,
        seg ? link('#/ns/' + enc(ns) + '/segment/' + enc(seg.id), seg.id) : el('span', { class: 'muted' }, 'open'),
        starts ? (starts.close_reason + ' · p ' + num(starts.probability) + ' · score ' + num(starts.score)) : '']);
      attrs.push(starts ? { class: 'boundary' } : {});
    }
    show('Session ' + sid,
      el('p', {}, link('#/ns/' + enc(ns), '← namespace ' + ns)),
      el('section', { 'aria-label': 'Boundary probability' }, el('h2', {}, 'Boundary probability along the session'),
        boundaryChart(segs)),
      el('section', { 'aria-label': 'Turns' }, el('h2', {}, 'Turns'),
        table('Turns; a thick line starts a segment (its close reason, boundary probability and score)',
          ['#', 'speaker', 'text', 'segment', 'segment closed by'], rows, (i) => attrs[i])));
  }

  function boundaryChart(segs) {
    const w = 720, h = 140, pad = 30;
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', w); svg.setAttribute('height', h); svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'Boundary probability at the close of each segment');
    svg.id = 'boundary-chart';
    const max = Math.max(1, ...segs.map((s) => s.last_turn));
    const x = (t) => pad + (w - 2 * pad) * t / max;
    const y = (p) => h - pad - (h - 2 * pad) * p;
    const add = (tag, attrs, text) => {
      const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
    };
    add('line', { x1: pad, y1: y(0), x2: w - pad, y2: y(0), stroke: '#999' });
    add('line', { x1: pad, y1: y(0.5), x2: w - pad, y2: y(0.5), stroke: '#ccc', 'stroke-dasharray': '4 3' });
    add('text', { x: 2, y: y(1) + 4 }, '1');
    add('text', { x: 2, y: y(0) + 4 }, '0');
    let path = '';
    // segments closed by a flush or a capacity limit have no boundary probability: they are not plotted
    for (const s of segs.filter((x) => typeof x.probability === 'number' && isFinite(x.probability))) {
      const p = s.probability;
      path += (path ? ' L' : 'M') + x(s.last_turn).toFixed(1) + ' ' + y(p).toFixed(1);
      add('circle', { cx: x(s.last_turn), cy: y(p), r: 3, fill: '#b8336a' });
    }
    if (path) add('path', { d: path, fill: 'none', stroke: '#b8336a' });
    add('text', { x: w - pad, y: h - 6, 'text-anchor': 'end' }, 'turn index');
    return svg;
  }

  function recordsTable(ns, records) {
    return table('Records', ['type', 'text', 'entities', 'tags', 'temporal', 'evidence'],
      records.map((r) => [r.type, r.text, tags(r.entities), tags(r.tags),
        r.temporal_ref || '',
        (r.evidence || []).map((t) => [nameLink('#/ns/' + enc(ns) + '/session/' + enc(t.session), t.session, t.session + ':' + t.index), ' '])]));
  }

  async function segment(ns, id) {
    const [segments, records] = await Promise.all([
      api('GET', nsPath(ns) + '/segments?limit=500'),
      api('GET', nsPath(ns) + '/records?segment=' + enc(id) + '&limit=500')]);
    const s = (segments.items || []).find((x) => x.id === id);
    if (!s) throw Object.assign(new Error('404 no segment ' + id), { status: 404 });
    show('Segment ' + id,
      el('p', {}, nameLink('#/ns/' + enc(ns) + '/session/' + enc(s.session), s.session, '← session ' + s.session)),
      table('Segment', ['state', 'turns', 'closed by', 'probability', 'score', 'attempts', 'error'],
        [[el('span', { class: 'state-' + s.state }, s.state), s.first_turn + '–' + s.last_turn, s.close_reason,
          num(s.probability), num(s.score), s.attempts ?? '–', el('span', { class: 'error' }, s.error || '')]]),
      el('section', { 'aria-label': 'Records of the segment' }, el('h2', {}, 'Records'),
        recordsTable(ns, records.items || [])));
  }

  async function records(ns) {
    const r = await api('GET', nsPath(ns) + '/records?limit=500');
    show('Records of ' + ns, el('p', {}, link('#/ns/' + enc(ns), '← namespace ' + ns)), recordsTable(ns, r.items || []));
  }

  async function nodes(ns, kind) {
    const kinds = ['entity', 'tag', 'entity_tag', 'temporal', 'event_frame'];
    const k = kinds.includes(kind) ? kind : 'entity';
    const r = await api('GET', nsPath(ns) + '/nodes?kind=' + enc(k) + '&limit=500');
    const select = el('select', { id: 'node-kind', onchange: (e) => { location.hash = '#/ns/' + enc(ns) + '/nodes/' + e.target.value; } },
      kinds.map((x) => el('option', { value: x, selected: x === k }, x)));
    show('Evidence nodes of ' + ns,
      el('p', {}, link('#/ns/' + enc(ns), '← namespace ' + ns)),
      el('label', { for: 'node-kind' }, 'Kind '), select,
      table('Nodes of kind ' + k, ['node', 'records', 'sessions'],
        (r.items || []).map((n) => [n.label || n.key, (n.record_ids || []).length, (n.sessions || []).join(', ')])));
  }

  async function playground(ns) {
    const q = el('input', { type: 'text', id: 'question', name: 'question', required: true, placeholder: 'When did … ?' });
    const k = el('input', { type: 'number', id: 'k', name: 'k', min: 1, max: 100, value: 10 });
    const budget = el('input', { type: 'number', id: 'budget', name: 'budget', min: 32, placeholder: 'tokens' });
    const out = el('div', { id: 'trace', 'aria-live': 'polite' });
    const form = el('form', { class: 'playground', 'aria-label': 'Recall playground', onsubmit: async (e) => {
      e.preventDefault();
      out.replaceChildren(el('p', { class: 'muted' }, 'Recalling…'));
      const body = { question: q.value };
      if (budget.value) body.token_budget = Number(budget.value); else body.k = Number(k.value);
      try {
        const [trace, answer] = await Promise.all([
          api('POST', nsPath(ns) + '/recall/trace', body),
          api('POST', nsPath(ns) + '/answer', body)]);
        out.replaceChildren(...renderTrace(trace, answer));
      } catch (err) {
        out.replaceChildren(el('p', { class: 'error', role: 'alert' }, err.message));
      }
    } },
      el('label', { for: 'question' }, 'Question', q),
      el('label', { for: 'k' }, 'k', k),
      el('label', { for: 'budget' }, 'or token budget', budget),
      el('button', { type: 'submit', id: 'run-recall' }, 'Recall'));
    show('Recall playground: ' + ns, el('p', {}, link('#/ns/' + enc(ns), '← namespace ' + ns)), form, out);
    q.focus();
  }

  function candidateRows(list) {
    return (list || []).map((c) => [c.rank, num(c.score), c.kind, c.text]);
  }

  function renderTrace(t, answer) {
    const r = t.recall || {};
    const plan = r.plan || {};
    const range = (f) => f ? (f.start || '…') + ' → ' + (f.end || '…') : '';
    return [
      el('section', { id: 'answer-section', 'aria-label': 'Answer' }, el('h2', {}, 'Answer'),
        el('p', { class: 'answer', id: 'answer' }, answer ? answer.answer : '')),
      el('section', { id: 'plan', 'aria-label': 'Plan' }, el('h2', {}, 'Plan'),
        el('p', {}, 'type ', el('strong', {}, plan.type || ''), plan.reason ? ' — ' + plan.reason : '',
          plan.temporal_filter ? ' · dates ' + range(plan.temporal_filter) : ''),
        table('Routes', ['route', 'goal', 'queries', 'dates'],
          (plan.routes || []).map((x) => [x.id, x.goal, (x.queries || []).join(' · '), range(x.temporal_filter)]))),
      el('section', { id: 'channels', 'aria-label': 'Channel candidates' }, el('h2', {}, 'What each channel found'),
        el('div', { class: 'cards' }, (t.routes || []).flatMap((route) => (route.channels || []).map((ch) =>
          el('div', { class: 'card channel' }, el('h3', {}, route.route + ' · ' + ch.channel + ' (' + ch.found + ')'),
            table('The first ' + Math.min(CHANNEL_ROWS, (ch.candidates || []).length) + ' candidates of ' + ch.channel,
              ['#', 'score', 'kind', 'text'], candidateRows((ch.candidates || []).slice(0, CHANNEL_ROWS)))))))),
      el('section', { id: 'fused', 'aria-label': 'Fused ranking' }, el('h2', {}, 'Fused ranking (RRF with route quotas)'),
        table('Fused', ['#', 'score', 'kind', 'text'], candidateRows(t.fused))),
      el('section', { id: 'reranked', 'aria-label': 'Reranker features' }, el('h2', {}, 'Reranked, with the reranker\'s features'),
        table('Features per candidate', ['#', 'score', 'features', 'text'],
          (t.reranked || []).map((c) => [c.rank, num(c.score),
            Object.entries(c.features || {}).map(([k2, v]) => k2 + ' ' + num(v, 2)).join(' · '), c.text]))),
      el('section', { id: 'mmr', 'aria-label': 'MMR selection' }, el('h2', {}, 'What MMR picked, and why'),
        table('Each pick: its relevance, its highest similarity to earlier picks, and the MMR value it won with',
          ['step', 'relevance', 'max similarity', 'mmr', 'text'],
          (t.selection || []).map((s) => [s.step, num(s.relevance), num(s.max_similarity), num(s.mmr), s.text]))),
      el('section', { id: 'evidence', 'aria-label': 'Final evidence' },
        el('h2', {}, 'Final evidence · ' + (r.evidence_tokens ?? '?') + ' tokens'),
        table('Evidence', ['#', 'score', 'kind', 'said on', 'text', 'turns', 'tokens'],
          (r.evidence || []).map((e) => [e.rank, num(e.score), e.kind, e.mentioned_at || '', e.text,
            (e.turns || []).map((x) => x.session + ':' + x.index).join(' '), e.tokens])))];
  }

  async function evaluation() {
    let r;
    try {
      r = await api('GET', '/v1/inspector/eval');
    } catch (e) {
      if (e.status === 404) {
        show('Evaluation', el('p', { class: 'muted' }, 'No evaluation file was given to the server (start it with --eval-json FILE).'));
        return;
      }
      throw e;
    }
    show('Evaluation: ' + (r.dataset || ''), evalChart(r), table('Recall at token budgets', ['system', 'budgets'],
      Object.entries(r.systems || {}).map(([name, s]) => [name,
        Object.entries(s.recall_tokens || {}).map(([b, v]) => 'R@' + b + 't ' + num(v)).join(' · ')])));
  }

  function evalChart(r) {
    const w = 640, h = 300, pad = 40;
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', w); svg.setAttribute('height', h); svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'Recall against evidence tokens per system');
    svg.id = 'eval-chart';
    const add = (tag, attrs, text) => {
      const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
    };
    const systems = Object.entries(r.systems || {});
    const budgets = [...new Set(systems.flatMap(([, s]) => Object.keys(s.recall_tokens || {}).map(Number)))].sort((a, b) => a - b);
    const maxB = Math.max(1, ...budgets);
    const x = (b) => pad + (w - 2 * pad) * b / maxB;
    const y = (v) => h - pad - (h - 2 * pad) * v;
    add('line', { x1: pad, y1: y(0), x2: w - pad, y2: y(0), stroke: '#999' });
    add('line', { x1: pad, y1: y(0), x2: pad, y2: y(1), stroke: '#999' });
    const colours = ['#b8336a', '#1a4f8b', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#5d4037', '#455a64'];
    systems.forEach(([name, s], i) => {
      const pts = budgets.filter((b) => s.recall_tokens && s.recall_tokens[b] !== undefined).map((b) => [x(b), y(s.recall_tokens[b])]);
      if (pts.length) add('path', { d: 'M' + pts.map((p) => p[0].toFixed(1) + ' ' + p[1].toFixed(1)).join(' L'), fill: 'none', stroke: colours[i % colours.length], 'stroke-width': 2 });
      add('text', { x: w - pad + 4, y: pad + 14 * i, fill: colours[i % colours.length] }, name);
    });
    budgets.forEach((b) => add('text', { x: x(b), y: h - pad + 14, 'text-anchor': 'middle' }, b));
    add('text', { x: w / 2, y: h - 6, 'text-anchor': 'middle' }, 'evidence tokens');
    return svg;
  }

  // ---- routing ----

  async function route() {
    navigation++;
    const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    try {
      if (parts[0] === 'ns' && parts[1]) {
        const ns = parts[1];
        if (parts[2] === 'session') return await session(ns, parts[3]);
        if (parts[2] === 'segment') return await segment(ns, parts.slice(3).join('/'));
        if (parts[2] === 'records') return await records(ns);
        if (parts[2] === 'nodes') return await nodes(ns, parts[3]);
        if (parts[2] === 'recall') return await playground(ns);
        return await namespace(ns);
      }
      if (parts[0] === 'eval') return await evaluation();
      return await namespaces();
    } catch (e) {
      failure(e);
    }
  }

  window.addEventListener('hashchange', route);
  route();
})();
