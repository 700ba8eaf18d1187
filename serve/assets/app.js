// The kalah explorer page. It holds no rules and no values of its own: the
// positions along a line come from /api/line, every value from /api/solve
// (the exact solver), the computer's moves from /api/choose, a game's
// analysis from /api/analyze.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const SVGNS = 'http://www.w3.org/2000/svg';
  // The computer's levels, weakest first, as the server names them (play.Levels).
  const LEVELS = ['easy', 'medium', 'perfect'];

  const st = {
    mode: 'explore', rule: 'no-empty-capture', pits: 6, seeds: 4,
    root: null,        // {position, to_move}, or null for the start of Kalah(pits, seeds)
    moves: [], at: 0,  // the line played from the root, and how far along it the board is
    level: 'perfect', as: 'south', seed: 1, resigned: false, hint: false,
    line: null,        // the /api/line answer for root and moves
    fallback: null,    // {pits, seeds}: the game shown when the address's position cannot be
    analyse: false,    // the line is analysed (the address's analyse=1): the value graph and the marks
    analysis: null,    // the /api/analyze answer for the line, with its key (lineKey)
  };
  const RULES = ['no-empty-capture', 'empty-capture'];
  const MAX_SEEDS = 255;      // seeds on the board at most (engine.MaxSeeds)
  const SLOW = 2;             // seconds after which a search is slow enough to say why
  const solved = new Map();   // "rule|position|to_move" -> /api/solve answer
  const inflight = new Map(); // the same key -> {promise, abort} of a request under way
  let epoch = 0;              // bumped on every change; late answers of an older epoch are dropped
  let poller = null;          // the /api/progress poll of the request being watched
  let seq = 0;                // numbers the page's requests
  let shown = null;           // the node the board shows, after any animation
  let notes = [];             // what the next load tells: a bad address, a line cut short
  let server = {state: 'ready', databases: []}; // the last /api/status answer
  let waiting = null;         // while the status line says what a request waits for: its text from an /api/status answer
  const ANIM_KEY = 'kalah.animate', ORDER_KEY = 'kalah.order';
  window.kalahAnimations = 0; // sowings animated so far (the browser test reads it)

  // ---- URL ----------------------------------------------------------------

  // fromURL reads the state from the address. A parameter the page cannot
  // use is said (in notes) and replaced by its default, so that the page
  // always shows a valid game.
  function fromURL() {
    const q = new URLSearchParams(location.search);
    const bad = (name, why, use) => notes.push(`${name}=${q.get(name)} in the address: ${why}; showing ${use}.`);
    const pick = (name, allowed, def) => {
      if (!q.has(name)) return def;
      if (allowed.includes(q.get(name))) return q.get(name);
      bad(name, `want ${allowed.join(' or ')}`, def);
      return def;
    };
    const whole = (name, lo, hi, def, use) => {
      if (!q.has(name)) return def;
      const n = strictInt(q.get(name));
      if (n === null || n < lo || n > hi) { bad(name, `want a whole number ${lo}..${hi}`, use || String(def)); return def; }
      return n;
    };
    st.mode = pick('mode', ['explore', 'play'], 'explore');
    st.rule = pick('rule', RULES, 'no-empty-capture');
    st.pits = whole('pits', 1, 8, 6, '6 pits');
    st.seeds = whole('seeds', 1, maxSeeds(st.pits), Math.min(4, maxSeeds(st.pits)), `${Math.min(4, maxSeeds(st.pits))} seeds`);
    st.root = null;
    // The game shown if the position cannot be: the address's, else the default.
    st.fallback = {pits: st.pits, seeds: st.seeds};
    if (q.get('position')) {
      st.root = {position: q.get('position'), to_move: pick('to_move', ['south', 'north'], 'south')};
      // Without pits and seeds, the position's own: 2m+2 counts.
      const holes = st.root.position.split(',').map((x) => strictInt(x));
      const m = (holes.length - 2) / 2;
      if (!q.has('pits') && Number.isInteger(m) && m >= 1 && m <= 8) st.pits = m;
      if (!q.has('seeds') && holes.every((x) => x !== null && x >= 0)) {
        st.seeds = Math.max(1, Math.min(maxSeeds(st.pits), Math.ceil(holes.reduce((a, b) => a + b, 0) / (2 * st.pits))));
      }
    }
    st.moves = (q.get('moves') || '').split(/[ ,]+/).filter(Boolean);
    st.at = st.moves.length;
    if (q.has('at')) {
      const n = strictInt(q.get('at'));
      if (n === null) bad('at', 'not a whole number', 'the end of the line');
      else st.at = n; // checked against the line once it is loaded
    }
    st.analyse = q.get('analyse') === '1';
    st.level = pick('level', LEVELS, 'perfect');
    st.as = pick('as', ['south', 'north'], 'south');
    st.seed = whole('seed', 0, Number.MAX_SAFE_INTEGER, 1);
  }

  function toURL() {
    const q = new URLSearchParams();
    q.set('mode', st.mode);
    q.set('rule', st.rule);
    q.set('pits', st.pits);
    q.set('seeds', st.seeds);
    if (st.root) { q.set('position', st.root.position); q.set('to_move', st.root.to_move); }
    if (st.moves.length) q.set('moves', st.moves.join(','));
    if (st.at < st.moves.length) q.set('at', st.at);
    if (st.analyse && st.mode === 'explore') q.set('analyse', '1');
    if (st.mode === 'play') { q.set('level', st.level); q.set('as', st.as); q.set('seed', st.seed); }
    history.replaceState(null, '', '?' + q.toString());
  }

  function int(s, def) { const n = parseInt(s, 10); return Number.isFinite(n) ? n : def; }
  function strictInt(s) { return /^\s*[-+]?\d+\s*$/.test(s) ? parseInt(s, 10) : null; }
  // maxSeeds is the most seeds a pit of Kalah(pits, n) can start with.
  function maxSeeds(pits) { return Math.floor(MAX_SEEDS / (2 * pits)); }

  // ---- API ----------------------------------------------------------------

  function gameParams(node) {
    const q = new URLSearchParams({rule: st.rule, pits: st.pits, seeds: st.seeds});
    const p = node || st.root;
    if (p) { q.set('position', p.position); q.set('to_move', p.to_move); }
    return q;
  }

  async function api(path, q, signal) {
    const r = await fetch('/api/' + path + (q && [...q].length ? '?' + q.toString() : ''), {signal});
    let body;
    try { body = await r.json(); } catch (e) { body = {error: `${r.status} ${r.statusText}`}; }
    if (!r.ok) { const e = new Error(body.error || r.statusText); e.status = r.status; e.body = body; throw e; }
    return body;
  }

  // load fetches the positions along the line. A line with an illegal
  // move (an address edited by hand, a change of rule) is cut before it,
  // saying where; a game or position the server refuses gives way to the
  // start of a valid game, saying why; either way the page stays whole.
  async function load() {
    const my = ++epoch;
    const q = gameParams();
    q.set('moves', st.moves.join(','));
    let line;
    try {
      line = await api('line', q);
    } catch (e) {
      if (my !== epoch) return;
      if (e.status === 400 && e.body && e.body.legal !== undefined && e.body.legal < st.moves.length) {
        const k = e.body.legal;
        notes.push(`The line is cut ${k ? `after move ${k} (${st.moves.slice(0, k).join(',')})` : 'before its first move'}: ${e.message}.`);
        st.moves = st.moves.slice(0, k);
        if (st.at > k) st.at = k;
        return load();
      }
      if (e.status === 400 && st.root) {
        // Pits and seeds read off a position the server refuses mean nothing.
        if (st.fallback) Object.assign(st, st.fallback);
        notes.push(`The position ${st.root.position}, ${st.root.to_move} to move, cannot be shown: ${e.message}; showing the start of Kalah(${st.pits},${st.seeds}).`);
        st.root = null;
        st.moves = [];
        st.at = 0;
        return load();
      }
      if (e.status === 400 && (st.rule !== 'no-empty-capture' || st.pits !== 6 || st.seeds !== 4 || st.moves.length)) {
        notes.push(`Kalah(${st.pits},${st.seeds}) under ${st.rule} cannot be shown: ${e.message}; showing Kalah(6,4).`);
        Object.assign(st, {rule: 'no-empty-capture', pits: 6, seeds: 4, moves: [], at: 0});
        return load();
      }
      showError(`The server did not give the line: ${e.message}`);
      return;
    }
    if (my !== epoch) return;
    st.line = line;
    const n = st.moves.length;
    if (st.at < 0 || st.at > n) {
      notes.push(`at=${st.at} is outside the line, which has ${n} move${n === 1 ? '' : 's'} (at 0..${n}); showing ${st.at < 0 ? 'its start' : 'its end'}.`);
      st.at = Math.max(0, Math.min(st.at, n));
    }
    // In play mode the board is at the end of the line, but for a review of a finished game.
    if (st.mode === 'play' && !gameOver()) st.at = n;
    showError(notes.join('\n'));
    notes = [];
    render();
  }

  function key(node) { return st.rule + '|' + node.position + '|' + node.to_move; }

  // requestID names a request, so that /api/progress can tell its place in line.
  function requestID() { return 'p' + Math.random().toString(36).slice(2, 10) + '-' + (++seq); }

  // solve answers the exact values of node, from the page's cache, a
  // request already under way, or the server. While it waits the page
  // shows the running solve's proven bounds of every move, or the
  // request's place in line.
  function solve(node) {
    const k = key(node);
    if (solved.has(k)) return Promise.resolve(solved.get(k));
    if (inflight.has(k)) return inflight.get(k).promise;
    const ctl = new AbortController();
    const promise = (async () => {
      for (;;) {
        const id = requestID();
        const q = gameParams(node);
        q.set('id', id);
        watch(node, id);
        try {
          const rep = await api('solve', q, ctl.signal);
          if (rep.solved) solved.set(k, rep);
          // A search may start a database's deepening: the banner says so.
          if (!statusTimer) pollStatus();
          return rep;
        } catch (e) {
          if (e.status !== 503 || ctl.signal.aborted) throw e;
          setStatus('the server is busy; trying again…', true);
          await new Promise((r) => setTimeout(r, 1500));
        } finally {
          unwatch(id);
        }
      }
    })().finally(() => inflight.delete(k));
    inflight.set(k, {promise, abort: () => ctl.abort()});
    return promise;
  }

  // dropStale stops the requests for positions other than node: the
  // server then stops their solves (keeping what they proved) and turns to
  // the position shown.
  function dropStale(node) {
    const k = node && key(node);
    for (const [j, f] of inflight) if (j !== k) f.abort();
  }

  function isAbort(e) { return e && e.name === 'AbortError'; }

  // watch polls /api/progress for request id, about node, and /api/status
  // for what the server does meanwhile: the page says whether the request
  // is being searched (with the proven bounds), waits in line (its place),
  // or waits for the server to warm up or build a database.
  function watch(node, id) {
    unwatch();
    const w = {id, node, timer: null};
    poller = w;
    const tick = async () => {
      let pr, ss;
      try {
        [pr, ss] = await Promise.all([api('progress', new URLSearchParams({id})), api('status')]);
      } catch (e) { return; }
      if (poller !== w) return;
      showServer(ss);
      if (!same(current(), node)) return;
      const r = pr.running;
      if (pr.yours && r) {
        const where = r.searching ? `, searching ${r.searching}` : r.stage === 'deepening' ? ', deepening' : '';
        setStatus(`solving… value in [${signed(r.lower)}, ${signed(r.upper)}]${where}; ` +
          `${r.nodes.toLocaleString()} nodes, ${r.elapsed.toFixed(1)} s` + (pr.queued ? `; ${pr.queued} waiting` : ''), true);
        if (st.mode === 'explore' || st.hint || gameOver()) showLive(node, r);
        showSlow(node, r.elapsed);
      } else if (pr.place) {
        setWaiting((ss) => `waiting in line: ${ordinal(pr.place)} of ${pr.queued}` +
          (r ? `, behind a solve running for ${r.elapsed.toFixed(1)} s` : holds(ss) ? `, behind the server's ${serverDoing(ss)}` : ''));
      } else if (holds(ss)) {
        setWaiting((ss) => `waiting for the server: ${serverDoing(ss)}…`);
      }
    };
    w.timer = setInterval(tick, 400);
    setTimeout(() => { if (poller === w) tick(); }, 120);
  }

  function unwatch(id) {
    if (poller && (id === undefined || poller.id === id)) { clearInterval(poller.timer); poller = null; }
  }

  function ordinal(n) { return n + (n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'); }

  // ---- what the server does -------------------------------------------------

  let statusTimer = null;

  // pollStatus reads /api/status, and again every half second until the
  // server is ready (watch reads it too while a request waits).
  async function pollStatus() {
    clearTimeout(statusTimer);
    statusTimer = null;
    try { showServer(await api('status')); } catch (e) { /* the server is away: the requests say so */ }
    repoll();
  }

  // repoll reads /api/status again soon while the server is not ready,
  // every few seconds while it deepens a database in the background.
  function repoll() {
    if (statusTimer || (server.state === 'ready' && !server.deepening)) return;
    statusTimer = setTimeout(pollStatus, server.state !== 'ready' ? 500 : 2000);
  }

  // showServer shows what the server does besides searching: its warm-up
  // (the first game's database and table being opened) or a database
  // being built, with its progress; nothing when it is ready.
  function showServer(ss) {
    server = ss;
    const b = ss.build, w = ss.warming, bar = $('server-bar');
    if (ss.state === 'building' && b) {
      $('server-text').textContent = `The server is building the endgame database of Kalah(${b.pits}) under ${b.rule} ` +
        `up to ${b.max_seeds} seeds: ${percent(b)}% of ${b.positions.toLocaleString()} positions, ${b.elapsed.toFixed(0)} s so far ` +
        `(once: later runs reuse it). Answers that need a search wait for it.`;
      bar.max = Math.max(1, b.positions);
      bar.value = b.done;
      bar.hidden = false;
    } else if (ss.state === 'warming' && w) {
      $('server-text').textContent = `The server is warming up Kalah(${w.pits},${w.seeds}) under ${w.rule}: ${w.stage} ` +
        `(${w.elapsed.toFixed(1)} s). Answers that need a search wait for it.`;
      bar.hidden = true;
    } else if (ss.state === 'loading' && ss.loading) {
      const l = ss.loading, gb = (n) => (n / 1e9).toFixed(1);
      $('server-text').textContent = `The server is reading the endgame database into memory: ${gb(l.done)} of ${gb(l.total)} GB. ` +
        `Searches are slow until it is done (they wait for the disk).`;
      bar.max = Math.max(1, l.total);
      bar.value = l.done;
      bar.hidden = false;
    } else if (ss.state === 'ready' && ss.deepening) {
      const d = ss.deepening;
      $('server-text').textContent = `The server is deepening the endgame database of Kalah(${d.pits}) under ${d.rule} to ` +
        `${d.max_seeds} seeds in the background: ${percent(d)}% of ${d.positions.toLocaleString()} positions ` +
        `(${(d.bytes / 1e9).toFixed(1)} GB), ${d.elapsed.toFixed(0)} s so far. Answers go on meanwhile; ` +
        `once it is built, searches past the opening book get faster.`;
      bar.max = Math.max(1, d.positions);
      bar.value = d.done;
      bar.hidden = false;
    }
    const deepening = ss.state === 'ready' && !!ss.deepening;
    $('server').hidden = ss.state === 'ready' && !deepening;
    $('server').dataset.state = deepening ? 'deepening' : ss.state;
    // The status line of a request waiting for the server says the same.
    if (waiting) $('status').textContent = waiting(ss);
    repoll();
  }

  // holds says whether searches wait for what the server does: its warm-up
  // or a database build (while the database is read into memory they run,
  // only slower).
  function holds(ss) { return ss.state === 'warming' || ss.state === 'building'; }

  // percent is how much of a database build b is done, in whole percent.
  function percent(b) { return b.positions ? Math.floor(100 * b.done / b.positions) : 0; }

  function serverDoing(ss) {
    if (ss.state === 'building' && ss.build) return `endgame database build (${percent(ss.build)}%)`;
    return ss.state === 'warming' ? 'warm-up' : 'work';
  }

  // showSlow says why a search of node that has taken seconds is slow
  // when the endgame database of its game is shallower than the one the
  // server builds by default, and the one command that makes it fast.
  function showSlow(node, seconds) {
    if (seconds < SLOW || !st.line) return;
    const db = (server.databases || []).find((d) => d.pits === st.line.pits && d.rule === st.rule);
    const onBoard = node.holes.reduce((a, b) => a + b, 0) - node.south_store - node.north_store;
    if (!db || !db.command || db.seeds >= onBoard) return;
    const el = $('slow');
    const what = db.seeds < 0 ? `there is no endgame database for Kalah(${db.pits}) under ${db.rule}` :
      `the endgame database of Kalah(${db.pits}) under ${db.rule} covers only ${db.seeds} seeds (the default is ${db.default_seeds})`;
    const code = document.createElement('code');
    code.textContent = db.command;
    el.replaceChildren(`Slow because ${what}. `, code, ' builds it once and makes positions like this fast; the server uses it from its next search on.');
    el.hidden = false;
  }

  // ---- rendering ----------------------------------------------------------

  function current() {
    if (!st.line) return null;
    const at = Math.max(0, Math.min(st.at, st.line.steps.length));
    return at === 0 ? st.line.start : st.line.steps[at - 1].after;
  }

  // lineEnd is the position at the end of the line.
  function lineEnd() {
    const n = Math.min(st.moves.length, st.line.steps.length);
    return n === 0 ? st.line.start : st.line.steps[n - 1].after;
  }

  // gameOver says whether the game of play mode has ended (the user
  // resigned, or the line ends the game): the page then reviews it.
  function gameOver() { return st.mode === 'play' && !!st.line && (st.resigned || lineEnd().over); }

  // render shows the current position: after an animation of the sowing
  // that led to it, when the board showed the position before it.
  function render() {
    toURL();
    const node = current();
    dropStale(node);
    if (chooseCtl) { chooseCtl.abort(); chooseCtl = null; }
    const step = st.at > 0 ? st.line.steps[st.at - 1] : null;
    const before = st.at > 1 ? st.line.steps[st.at - 2].after : st.line.start;
    if (step && animate() && same(shown, before) && !same(shown, node)) {
      const my = epoch;
      clearValues();
      setStatus(`${cap(step.side)} plays ${step.move}…`);
      // The values are asked for at once; the sowing plays meanwhile.
      if (st.mode === 'explore' && !node.over) solve(node).catch(() => {});
      sow(before, step, my).then(() => { if (my === epoch) show(node); });
      return;
    }
    show(node);
  }

  function show(node) {
    shown = node;
    $('mode-explore').classList.toggle('active', st.mode === 'explore');
    $('mode-play').classList.toggle('active', st.mode === 'play');
    $('play-controls').hidden = st.mode !== 'play';
    $('nav').hidden = st.mode === 'play' && !gameOver();
    $('rule').value = st.rule;
    $('pits').value = st.pits;
    $('seeds').max = maxSeeds(st.pits);
    $('seeds').value = st.seeds;
    $('position').value = node.position;
    $('to-move').value = node.to_move;
    $('level').value = st.level;
    $('as').value = st.as;
    $('seed').value = st.seed;
    $('animate').checked = animate();
    $('order').value = order();
    $('game-name').textContent = `Kalah(${st.pits}${st.root ? '' : ',' + st.seeds}), ${st.rule}`;
    for (const id of ['first', 'back']) $(id).disabled = st.at === 0;
    for (const id of ['forward', 'last']) $(id).disabled = st.at === st.moves.length;
    drawBoard(node);
    drawLine();
    showAnalysis();
    clearValues();
    const my = epoch;
    if (st.mode === 'explore') {
      if (node.over) { setStatus(finalText(node)); return; }
      setStatus(`${cap(node.to_move)} to move`);
      solve(node).then((rep) => { if (my === epoch) showValues(node, rep); })
        .catch((e) => { if (my === epoch && !isAbort(e)) { setStatus(''); showError(e.message); } });
      return;
    }
    playTurn(node, my);
  }

  let chooseCtl = null; // the computer's move being asked for

  function playTurn(node, my) {
    const over = gameOver();
    $('undo').disabled = st.moves.length === 0;
    $('hint').disabled = over || node.to_move !== st.as;
    $('resign').disabled = over;
    if (over) { review(node, my); return; }
    if (node.to_move === st.as) {
      setStatus(`Your move (${st.as}).`);
      if (st.hint) {
        solve(node).then((rep) => { if (my === epoch) { showValues(node, rep); setStatus(hintText(rep)); } })
          .catch((e) => { if (my === epoch && !isAbort(e)) showError(e.message); });
      }
      return;
    }
    setStatus(`The computer (${st.level}) is thinking…`, true);
    const id = requestID();
    watch(node, id);
    const q = gameParams(node);
    q.set('level', st.level);
    q.set('seed', st.seed);
    q.set('id', id);
    const ctl = chooseCtl = new AbortController();
    api('choose', q, ctl.signal).then((rep) => {
      unwatch(id);
      if (my !== epoch) return;
      solved.set(key(node), rep.solve);
      if (!rep.move) return;
      st.moves = st.moves.slice(0, st.at);
      st.moves.push(rep.move);
      st.at = st.moves.length;
      load();
    }).catch((e) => { unwatch(id); if (my === epoch && !isAbort(e)) { setStatus(''); showError(e.message); } })
      .finally(() => { if (chooseCtl === ctl) chooseCtl = null; });
  }

  // review shows a finished game of play mode. At its end the table lists
  // the moves played with their values (each for the side that played it)
  // against the best; before the end the board shows the position with
  // every move's value, the move played there marked. The buttons under
  // the board, the arrow keys and the moves of the line step through it.
  function review(node, my) {
    const n = st.moves.length;
    if (st.at === n) {
      const you = node.winner === st.as ? 'you win' : node.winner === 'draw' ? 'a draw' : 'you lose';
      setStatus((st.resigned ? `You resigned. ${scoreText(node)}` : `${finalText(node)}: ${you}.`) +
        (n ? ' Step back through the game to see every move\u2019s value.' : ''));
      summary(my);
      return;
    }
    const step = st.line.steps[st.at];
    setStatus(`Move ${st.at + 1} of ${n}: ${step.side === st.as ? 'you' : 'the computer'} (${step.side}) played ${step.move}.`);
    solve(node).then((rep) => { if (my === epoch) showValues(node, rep, step); })
      .catch((e) => { if (my === epoch && !isAbort(e)) showError(e.message); });
  }

  // summary lists the moves of the finished game with their values, each
  // asked for in turn (most come from the page's cache: the computer's
  // answers, and the look-ahead's for the user's positions).
  async function summary(my) {
    const steps = st.line.steps.slice(0, st.moves.length);
    if (!steps.length) return;
    setHead(['move played', 'value', 'result', 'best']);
    $('order-box').hidden = true;
    const body = $('moves').querySelector('tbody');
    body.replaceChildren();
    const rows = steps.map((s, k) => {
      const tr = document.createElement('tr');
      tr.dataset.ply = k + 1;
      tr.dataset.move = s.move;
      tr.className = 'pending';
      for (const t of [`${k + 1}. ${s.move}` + (s.side === st.as ? ' (you)' : ''), '…', '', '']) {
        const td = document.createElement('td');
        td.textContent = t;
        tr.appendChild(td);
      }
      tr.title = 'show the position before this move';
      tr.addEventListener('click', () => goTo(k));
      body.appendChild(tr);
      return tr;
    });
    $('moves-box').hidden = false;
    const lost = {south: 0, north: 0};
    for (let k = 0; k < steps.length; k++) {
      const before = k === 0 ? st.line.start : steps[k - 1].after;
      let rep;
      try {
        rep = await solve(before);
      } catch (e) {
        if (my === epoch && !isAbort(e)) showError(e.message);
        return;
      }
      if (my !== epoch) return;
      const mv = rep.moves.find((m) => m.move === steps[k].move);
      if (!mv) continue;
      const tr = rows[k], best = rep.best.includes(mv.move);
      tr.dataset.value = mv.value;
      tr.dataset.best = rep.value;
      tr.className = cls3(mv.value) + (best ? ' best' : '');
      const cells = [tr.children[0].textContent, signed(mv.value) + (rep.solved ? '' : ' (bounds only)'), outcome(mv.value),
        best ? '★ best' : `${rep.best.join(' or ')}: ${signed(rep.value)}`];
      cells.forEach((t, j) => { tr.children[j].textContent = t; });
      lost[steps[k].side] += rep.value - mv.value;
    }
    const them = st.as === 'south' ? 'north' : 'south';
    $('meta').textContent = `Values for the side that moved. Against perfect play you gave away ${lost[st.as]} seed${lost[st.as] === 1 ? '' : 's'} of margin, the computer ${lost[them]}.`;
  }

  // ---- the sowing animation -------------------------------------------------

  function animate() { return localStorage.getItem(ANIM_KEY) !== 'off'; }

  function same(a, b) { return !!a && !!b && a.position === b.position && a.to_move === b.to_move; }

  // sow animates step from the position before it: the seeds leave the
  // pit one by one, counter-clockwise, past the opponent's store, then the
  // capture and the end of the game appear with the position after it (the
  // server's, drawn by show). It resolves when done, or at once when the
  // page moves on (epoch changes).
  async function sow(before, step, my) {
    window.kalahAnimations++;
    const m = st.line.pits, n = 2 * m + 2;
    const h = before.holes.slice();
    const south = step.side === 'south';
    let at = south ? step.pit - 1 : m + step.pit;
    const skip = south ? 2 * m + 1 : m;
    let seeds = h[at];
    h[at] = 0;
    const delay = Math.max(40, Math.min(160, 1800 / Math.max(seeds, 1)));
    const frame = (hole) => drawBoard({...before, holes: h.slice(), over: true, moves: []}, {hole, from: step.move});
    const wait = () => new Promise((r) => setTimeout(r, delay));
    frame(at);
    await wait();
    while (seeds > 0) {
      if (my !== epoch) return;
      at = (at + 1) % n;
      if (at === skip) continue;
      h[at]++;
      seeds--;
      frame(at);
      await wait();
    }
  }

  function hintText(rep) {
    const best = rep.moves.filter((m) => rep.best.includes(m.move));
    const others = rep.moves.filter((m) => !rep.best.includes(m.move));
    let s = `Hint: play ${rep.best.join(' or ')} (${outcome(rep.value)})`;
    if (others.length) {
      const next = Math.max(...others.map((m) => m.value));
      s += `; the next best move gives ${outcome(next)}`;
    } else if (best.length === rep.moves.length) {
      s += '; every move is as good';
    }
    return s + '.';
  }

  function finalText(node) {
    return `Game over: South ${node.south_store}, North ${node.north_store}, ` +
      (node.winner === 'draw' ? 'a draw' : `${node.winner} wins by ${Math.abs(node.result)}`);
  }

  function scoreText(node) { return `South ${node.south_store}, North ${node.north_store} in the stores.`; }

  // drawBoard draws node; anim ({hole, from}) draws a frame of a sowing:
  // the hole receiving a seed and the pit sown from are marked. The values
  // go beside the pits later (drawBadges), without redrawing the pits, so
  // that a click on a pit is never lost to a redraw.
  function drawBoard(node, anim) {
    const m = st.line.pits, h = node.holes;
    const pad = 10, sw = 76, cw = 84, r = 31;
    const W = 2 * pad + 2 * sw + m * cw + 20, H = 336;
    const svg = $('board');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('width', W);
    svg.setAttribute('height', H);
    svg.classList.toggle('sowing', !!anim);
    svg.replaceChildren();
    const el = (tag, attrs, parent, text) => {
      const e = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      (parent || svg).appendChild(e);
      return e;
    };
    el('rect', {class: 'board', x: pad, y: 52, width: W - 2 * pad, height: 230, rx: 40});
    const colX = (c) => pad + sw + 10 + c * cw + cw / 2;
    const last = !anim && st.at > 0 ? st.line.steps[st.at - 1] : null;
    // The pit whose last seed made the capture faces the pit emptied.
    let capturer = null;
    if (last && last.captured_from) {
      const j = last.captured_from.toLowerCase().charCodeAt(0) - 97;
      capturer = String.fromCharCode((last.side === 'south' ? 97 : 65) + m - 1 - j);
    }
    const pit = (side, i) => {
      const letter = String.fromCharCode((side === 'south' ? 97 : 65) + i);
      const x = colX(side === 'south' ? i : m - 1 - i), y = side === 'south' ? 224 : 110;
      const hole = side === 'south' ? i : m + 1 + i;
      const count = h[hole];
      const legal = !node.over && node.to_move === side && node.moves.includes(letter) && canClick(node);
      const cls = ['pit-g'];
      if (legal) cls.push('legal');
      if (last && last.move === letter) cls.push('last');
      if (last && last.captured_from === letter) cls.push('captured');
      if (capturer === letter) cls.push('capturer');
      if (anim && anim.hole === hole) cls.push('drop');
      if (anim && anim.from === letter) cls.push('from');
      const g = el('g', {class: cls.join(' '), 'data-move': letter, 'data-count': count});
      el('circle', {class: 'pit', cx: x, cy: y, r: r}, g);
      el('text', {class: 'count', x: x, y: y}, g, count);
      const ny = side === 'south' ? 322 : 18;
      el('text', {class: 'name', x: x, y: ny}, svg, `${letter} (${i + 1})`);
      if (legal) g.addEventListener('click', () => playMove(letter));
    };
    for (let i = 0; i < m; i++) { pit('south', i); pit('north', i); }
    const store = (side) => {
      const x = side === 'north' ? pad + 8 : W - pad - sw + 2, y = 80;
      const hole = side === 'south' ? m : 2 * m + 1;
      const count = h[hole];
      const cls = ['store-g'];
      if (anim && anim.hole === hole) cls.push('drop');
      if (last && last.captured && last.side === side) cls.push('gained');
      const g = el('g', {class: cls.join(' '), 'data-store': side, 'data-count': count});
      el('rect', {class: 'store', x: x, y: y, width: sw - 10, height: 174, rx: 30}, g);
      el('text', {class: 'count', x: x + (sw - 10) / 2, y: y + 87}, g, count);
      el('text', {class: 'name', x: x + (sw - 10) / 2, y: side === 'south' ? 322 : 18}, svg, side === 'south' ? 'South' : 'North');
    };
    store('north');
    store('south');
    // The side to move is written at its own side's edge of the board, on
    // the left; the last move on the right of the South edge, or of the
    // North edge when South's is too narrow for both.
    const low = 272, high = 70, left = pad + 20, right = W - pad - 20;
    let tomove = null;
    if (!node.over) {
      tomove = el('text', {class: 'tomove', x: left, y: node.to_move === 'south' ? low : high}, svg,
        `${node.to_move === 'south' ? 'South' : 'North'} to move`);
    }
    el('g', {id: 'badges'});
    if (last) {
      const what = `${cap(last.side)} played ${last.move}` + (last.captured ? `, captured ${last.captured} from ${last.captured_from}` : '') +
        (last.extra_turn ? ', extra turn' : '');
      const t = el('text', {class: 'lastmove', x: right, y: low, id: 'last-move'}, svg, what);
      const width = t.getComputedTextLength();
      let from = left; // where the text may start
      if (tomove && node.to_move === 'south') {
        const after = left + tomove.getComputedTextLength() + 16;
        if (right - after >= width) from = after;
        else t.setAttribute('y', high);
      }
      // Squeezed to fit a board too narrow for it (one or two pits).
      if (width > right - from) {
        t.setAttribute('textLength', right - from);
        t.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    }
  }

  // drawBadges puts rep's values beside the pits, or with live (an
  // /api/progress running solve) the moves' proven bounds.
  function drawBadges(rep, live) {
    const g = $('badges');
    if (!g) return;
    g.replaceChildren();
    const m = st.line.pits;
    const pad = 10, sw = 76, cw = 84;
    const colX = (c) => pad + sw + 10 + c * cw + cw / 2;
    const place = (letter) => {
      const south = letter >= 'a';
      const i = letter.toLowerCase().charCodeAt(0) - 97;
      return [colX(south ? i : m - 1 - i), south ? 300 : 42];
    };
    const text = (attrs, t) => {
      const e = document.createElementNS(SVGNS, 'text');
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      e.textContent = t;
      g.appendChild(e);
    };
    if (rep) {
      for (const mv of rep.moves) {
        const [x, y] = place(mv.move);
        text({class: 'badge ' + cls3(mv.value), x, y, 'data-move': mv.move, 'data-value': mv.value},
          (rep.best.includes(mv.move) ? '★ ' : '') + signed(mv.value));
      }
    } else if (live) {
      for (const mv of live.moves) {
        const [x, y] = place(mv.move);
        text({class: 'badge live ' + liveClass(mv), x, y, 'data-move': mv.move, 'data-lower': mv.lower, 'data-upper': mv.upper},
          boundsText(mv));
      }
    }
  }

  function canClick(node) {
    if (st.mode === 'explore') return true;
    return !gameOver() && node.to_move === st.as;
  }

  function drawLine() {
    const box = $('line');
    box.replaceChildren();
    const steps = st.line.steps;
    let turn = null;
    steps.forEach((s, k) => {
      if (!turn || s.side !== steps[k - 1].side) {
        turn = document.createElement('span');
        turn.className = 'turn';
        box.appendChild(turn);
      }
      const e = document.createElement('span');
      e.textContent = s.move;
      e.title = `ply ${s.ply}: ${s.side} ${s.move}` + (s.captured ? `, captures ${s.captured}` : '') + (s.extra_turn ? ', extra turn' : '');
      const a = analysed() && st.analysis.moves[k];
      if (a) {
        e.dataset.class = a.class;
        e.dataset.loss = a.loss;
        if (MARKS[a.class]) { e.classList.add(a.class); e.textContent += MARKS[a.class]; }
        e.title += `: ${a.class}` + (a.loss ? `, loses ${a.loss}` : '') + (a.best.length && !a.best.includes(a.move) ? `; best ${a.best.join(' or ')}` : '');
      }
      if (k + 1 === st.at) e.classList.add('current');
      e.addEventListener('click', () => { if (st.mode === 'explore' || gameOver()) goTo(k + 1); });
      turn.appendChild(e);
    });
  }

  const HEAD = ['move', 'value', 'result', ''];

  function setHead(cols) {
    const ths = $('moves').querySelectorAll('thead th');
    cols.forEach((c, i) => { ths[i].textContent = c; });
  }

  // clearValues empties the table and hides it, header and all, until
  // values come.
  function clearValues() {
    $('moves').querySelector('tbody').replaceChildren();
    $('moves-box').hidden = true;
    $('pv').replaceChildren();
    $('pv-box').hidden = true;
    $('meta').textContent = '';
    $('slow').hidden = true;
    $('slow').replaceChildren();
  }

  // order is how the table lists the moves: 'pit' (pit order) or 'best'
  // (best first), remembered in this browser.
  function order() { return localStorage.getItem(ORDER_KEY) === 'best' ? 'best' : 'pit'; }

  // ordered lists moves in the chosen order: best first is by value (for
  // bounds, the upper bound, then the lower), ties in pit order.
  function ordered(moves) {
    if (order() !== 'best') return moves;
    const hi = (m) => (m.value !== undefined ? m.value : m.upper);
    const lo = (m) => (m.value !== undefined ? m.value : m.lower);
    return moves.slice().sort((a, b) => hi(b) - hi(a) || lo(b) - lo(a) || a.pit - b.pit);
  }

  function showTable() {
    setHead(HEAD);
    $('order-box').hidden = false;
    $('moves-box').hidden = false;
  }

  // showLive shows a running solve's proven bounds: each move's value
  // lies in its interval; a move whose value is known shows it alone.
  function showLive(node, r) {
    if (!r.moves || !r.moves.length) return;
    drawBadges(null, r);
    showTable();
    const moves = ordered(r.moves);
    // The rows are updated in place, so that a click on one is not lost.
    const body = $('moves').querySelector('tbody');
    const rows = Array.from(body.children);
    if (rows.length !== moves.length || rows.some((tr, i) => !tr.classList.contains('live') || tr.dataset.move !== moves[i].move)) {
      body.replaceChildren();
      for (const mv of moves) {
        const tr = document.createElement('tr');
        tr.dataset.move = mv.move;
        for (let i = 0; i < 4; i++) tr.appendChild(document.createElement('td'));
        if (canClick(node)) tr.addEventListener('click', () => playMove(mv.move));
        body.appendChild(tr);
      }
    }
    moves.forEach((mv, i) => {
      const tr = body.children[i];
      tr.dataset.lower = mv.lower;
      tr.dataset.upper = mv.upper;
      tr.className = 'live ' + liveClass(mv) + (r.searching === mv.move ? ' searching' : '');
      const cells = [mv.move, boundsText(mv), liveOutcome(mv), r.searching === mv.move ? 'searching…' : ''];
      cells.forEach((t, j) => { tr.children[j].textContent = t; });
    });
    $('meta').textContent = `proven so far: value in [${signed(r.lower)}, ${signed(r.upper)}] for ${r.to_move}`;
  }

  function boundsText(mv) { return mv.lower === mv.upper ? signed(mv.lower) : `${signed(mv.lower)}…${signed(mv.upper)}`; }
  function liveClass(mv) { return mv.lower > 0 ? 'win' : mv.upper < 0 ? 'loss' : mv.lower === mv.upper ? 'draw' : 'open'; }
  function liveOutcome(mv) {
    if (mv.lower === mv.upper) return outcome(mv.lower);
    if (mv.lower > 0) return 'W';
    if (mv.upper < 0) return 'L';
    if (mv.lower === 0) return 'W or D';
    if (mv.upper === 0) return 'D or L';
    return '?';
  }

  // showValues shows every move's value of node; played (a step of the
  // line) marks the move played there, in the review of a finished game.
  function showValues(node, rep, played) {
    drawBadges(rep, null);
    showTable();
    const body = $('moves').querySelector('tbody');
    body.replaceChildren();
    for (const mv of ordered(rep.moves)) {
      const tr = document.createElement('tr');
      tr.dataset.move = mv.move;
      tr.dataset.value = mv.value;
      const best = rep.best.includes(mv.move), here = !!played && played.move === mv.move;
      tr.className = cls3(mv.value) + (best ? ' best' : '') + (here ? ' played' : '');
      const bounds = mv.lower !== undefined ? ` [${signed(mv.lower)}, ${signed(mv.upper)}]` : '';
      const mark = [best ? '★ best' : '', here ? '← played' : ''].filter(Boolean).join(' ');
      for (const t of [mv.move + (mv.extra_turn ? ' +' : ''), signed(mv.value) + bounds, outcome(mv.value), mark]) {
        const td = document.createElement('td');
        td.textContent = t;
        tr.appendChild(td);
      }
      if (canClick(node)) tr.addEventListener('click', () => playMove(mv.move));
      body.appendChild(tr);
    }
    $('moves-box').hidden = rep.moves.length === 0;
    const pv = $('pv');
    pv.replaceChildren();
    $('pv-box').hidden = !rep.pv_letters;
    const plies = [];
    for (const turn of (rep.pv_letters || '').split('-')) {
      const span = document.createElement('span');
      span.className = 'turn';
      for (const c of turn) {
        plies.push(c);
        const e = document.createElement('span');
        const upTo = plies.length;
        e.textContent = c;
        e.title = 'play the variation up to here';
        if (st.mode === 'explore') e.addEventListener('click', () => playLine(plies.slice(0, upTo)));
        span.appendChild(e);
      }
      pv.appendChild(span);
      pv.appendChild(document.createTextNode(' '));
    }
    const how = rep.from_cache ? 'from the cache' :
      `${rep.nodes.toLocaleString()} nodes in ${rep.seconds.toFixed(3)} s` + (rep.egdb_seeds >= 0 ? `, database to ${rep.egdb_seeds} seeds` : '');
    $('meta').textContent = `value ${signed(rep.value)} for ${rep.to_move}` + (rep.solved ? '' : ' (bounds only)') + `; ${how}`;
    if (st.mode === 'explore') setStatus(`${cap(node.to_move)} to move: ${outcome(rep.value)}`);
    if (played) {
      const mv = rep.moves.find((m) => m.move === played.move);
      if (mv) {
        setStatus(`Move ${st.at + 1} of ${st.moves.length}: ${played.side === st.as ? 'you' : 'the computer'} (${played.side}) played ${played.move}, ` +
          (rep.best.includes(mv.move) ? `${outcome(mv.value)}, a best move.` : `${outcome(mv.value)}; ${rep.best.join(' or ')} gave ${outcome(rep.value)}.`));
      }
    }
    if (!rep.from_cache && rep.seconds >= SLOW) showSlow(node, rep.seconds);
  }

  // ---- the analysis board ----------------------------------------------------

  // The marks of the move list, as chess annotators write them.
  const MARKS = {inaccuracy: '?!', mistake: '?', blunder: '??'};

  // lineKey names the line shown: the game, its start and its moves.
  function lineKey() { return [st.rule, st.pits, st.seeds, st.root ? st.root.position + ' ' + st.root.to_move : '', st.moves.join(',')].join('|'); }

  // analysed says whether the analysis held is of the line shown.
  function analysed() { return !!st.analysis && st.analysis.key === lineKey() && st.mode === 'explore'; }

  let analysing = null; // the analysis under way: {key, ctl, timer}

  // analyse sends a game to POST /api/analyze: text, pasted, in any form
  // the server reads (with the game shown for what it leaves out), or the
  // line shown. A pasted game becomes the line shown.
  async function analyse(text) {
    const pasted = text !== undefined && text.trim() !== '';
    const body = pasted ? text : st.moves.length ? st.moves.join(',') : '{}'; // {}: the game shown, no moves
    const q = new URLSearchParams({rule: st.rule, pits: st.pits, seeds: st.seeds});
    if (!pasted && st.root) { q.set('position', st.root.position); q.set('to_move', st.root.to_move); }
    if (analysing) { analysing.ctl.abort(); clearInterval(analysing.timer); }
    const me = analysing = {key: pasted ? null : lineKey(), ctl: new AbortController(), timer: null};
    $('analyse').disabled = true;
    $('analysis-text').textContent = 'analysing…';
    me.timer = setInterval(async () => {
      try {
        const pr = await api('progress');
        if (analysing === me && pr.analyzing) $('analysis-text').textContent = `analysing… ${pr.analyzing.done} of ${pr.analyzing.total} moves, ${pr.analyzing.elapsed.toFixed(1)} s`;
      } catch (e) { /* the answer says */ }
    }, 500);
    let a;
    try {
      const r = await fetch('/api/analyze?' + q.toString(), {method: 'POST', body, signal: me.ctl.signal});
      a = await r.json();
      if (!r.ok) throw new Error(a.error || r.statusText);
    } catch (e) {
      if (analysing === me) {
        analysing = null;
        clearInterval(me.timer);
        $('analyse').disabled = false;
        $('analysis-text').textContent = '';
        if (!isAbort(e)) showError(`Analysis: ${e.message}`);
      }
      return;
    }
    clearInterval(me.timer);
    if (analysing !== me) return;
    analysing = null;
    $('analyse').disabled = false;
    if (pasted) {
      // The line shown becomes the game pasted.
      Object.assign(st, {rule: a.rule, pits: a.pits, moves: a.moves.map((m) => m.move), resigned: false});
      st.seeds = a.seeds || Math.max(1, Math.min(maxSeeds(a.pits), Math.ceil(a.start.split(',').reduce((x, y) => x + +y, 0) / (2 * a.pits))));
      st.root = a.seeds ? null : {position: a.start, to_move: a.to_move};
      st.fallback = null;
      st.at = 0;
      $('game-input').value = '';
    } else if (me.key !== lineKey()) {
      return; // the line changed meanwhile
    }
    st.analysis = Object.assign(a, {key: lineKey()});
    st.analyse = true;
    if (a.interrupted) showError(`The analysis stopped early (${a.error}): ${a.moves.length} of its moves are analysed.`);
    if (pasted) { load(); return; }
    epoch++;
    render();
  }

  // showAnalysis draws the value graph under the board and the figures of
  // the position shown, when the line is analysed; else it hides them
  // (and starts the analysis the address asks for).
  function showAnalysis() {
    const svg = $('graph'), text = $('analysis-text');
    $('analysis-box').hidden = st.mode !== 'explore';
    if (!analysed()) {
      svg.toggleAttribute('hidden', true); // an SVG element has no hidden property
      if (!analysing) text.textContent = '';
      if (st.analysis) {
        // The line changed: its analysis no longer holds.
        st.analysis = null;
        st.analyse = false;
        toURL();
      } else if (st.analyse && st.mode === 'explore' && !analysing) {
        analyse();
      }
      return;
    }
    const a = st.analysis, n = a.moves.length;
    const values = [a.value].concat(a.moves.map((m) => m.after));
    const W = 600, H = 150, padL = 34, padR = 10, padY = 14;
    const top = Math.max(2, ...values.map(Math.abs));
    const x = (k) => padL + (n ? k * (W - padL - padR) / n : 0);
    const y = (v) => H / 2 - v * (H / 2 - padY) / top;
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('width', W);
    svg.setAttribute('height', H);
    svg.replaceChildren();
    const el = (tag, attrs, t) => {
      const e = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (t !== undefined) e.textContent = t;
      svg.appendChild(e);
      return e;
    };
    const pts = values.map((v, k) => `${x(k)},${y(v)}`).join(' ');
    el('polygon', {class: 'area-s', points: `${x(0)},${y(0)} ${pts} ${x(n)},${y(0)}`});
    el('line', {class: 'zero', x1: padL, x2: W - padR, y1: y(0), y2: y(0)});
    el('text', {class: 'axis', x: 4, y: y(top) + 4}, signed(top));
    el('text', {class: 'axis', x: 4, y: y(0) + 4}, '0');
    el('text', {class: 'axis', x: 4, y: y(-top) + 4}, signed(-top));
    el('line', {class: 'at', x1: x(st.at), x2: x(st.at), y1: padY / 2, y2: H - padY / 2, id: 'graph-at'});
    el('polyline', {class: 'curve', points: pts});
    values.forEach((v, k) => {
      const m = k > 0 ? a.moves[k - 1] : null;
      const c = el('circle', {class: 'pt' + (m ? ' ' + m.class : ''), cx: x(k), cy: y(v), r: m && MARKS[m.class] ? 6 : 4,
        'data-ply': k, 'data-value': v, 'data-class': m ? m.class : ''});
      const t = document.createElementNS(SVGNS, 'title');
      t.textContent = (m ? `after ${m.ply}. ${m.move} (${m.side}, ${m.class}${m.loss ? `, loses ${m.loss}` : ''})` : 'the start') + `: ${signed(v)} for South`;
      c.appendChild(t);
      c.addEventListener('click', () => goTo(k));
    });
    svg.toggleAttribute('hidden', false);
    // The position shown: the move played from it, against the best.
    const parts = [];
    if (st.at < n) {
      const m = a.moves[st.at];
      parts.push(`Move ${m.ply}: ${m.side} played ${m.move}, ${signed(m.before)} → ${signed(m.after)} for South` +
        (m.loss ? `, losing ${m.loss} (${m.class}); best ${m.best.join(' or ') || '?'}.` : ` (${m.class}).`));
    } else {
      parts.push(`End of the line: ${signed(a.end)} for South` + (a.game_over ? ' (the final margin).' : '.'));
    }
    const side = (s) => `${cap(s.side)}: ${s.moves} moves, ${s.loss} seed${s.loss === 1 ? '' : 's'} lost, accuracy ${Math.round(100 * s.accuracy)}%` +
      (s.largest_mistakes.length ? ` (${s.largest_mistakes.map((x) => `${x.ply}. ${x.move} −${x.loss}`).join(', ')})` : '');
    text.replaceChildren();
    const p1 = document.createElement('div');
    p1.id = 'analysis-here';
    p1.textContent = parts.join(' ');
    const p2 = document.createElement('div');
    p2.className = 'sum';
    p2.textContent = `${side(a.south)}. ${side(a.north)}. Values are South's; the start is worth ${signed(a.value)}` +
      (a.bound ? '; some figures are bounds.' : '.');
    text.append(p1, p2);
  }

  // ---- actions ------------------------------------------------------------

  function playMove(letter) {
    st.moves = st.moves.slice(0, st.at);
    st.moves.push(letter);
    st.at = st.moves.length;
    st.hint = false;
    load();
  }

  function playLine(letters) {
    st.moves = st.moves.slice(0, st.at).concat(letters);
    st.at = st.moves.length;
    load();
  }

  function goTo(at) {
    st.at = Math.max(0, Math.min(at, st.moves.length));
    epoch++;
    render();
  }

  function undo() {
    const steps = st.line.steps.slice(0, st.at);
    let j = steps.length - 1;
    while (j >= 0 && steps[j].side !== st.as) j--;
    // Back to before the user's last sowing; with none, to the start.
    st.moves = st.moves.slice(0, Math.max(j, 0));
    st.at = st.moves.length;
    st.resigned = false;
    st.hint = false;
    load();
  }

  function newGame() {
    st.root = null;
    st.moves = [];
    st.at = 0;
    st.resigned = false;
    st.hint = false;
    load();
  }

  async function setPosition() {
    const q = new URLSearchParams({rule: st.rule, position: $('position').value.trim(), to_move: $('to-move').value});
    try {
      const line = await api('line', q);
      st.root = {position: line.start.position, to_move: line.start.to_move};
      st.fallback = null;
      st.pits = line.pits;
      const total = line.start.holes.reduce((a, b) => a + b, 0);
      st.seeds = Math.max(1, Math.min(maxSeeds(st.pits), Math.ceil(total / (2 * st.pits))));
      st.moves = [];
      st.at = 0;
      st.resigned = false;
      load();
    } catch (e) {
      showError(e.message);
    }
  }

  // ---- helpers ------------------------------------------------------------

  function signed(v) { return v > 0 ? '+' + v : v < 0 ? '−' + -v : '0'; }
  function cls3(v) { return v > 0 ? 'win' : v < 0 ? 'loss' : 'draw'; }
  function outcome(v) { return v > 0 ? `W by ${v}` : v < 0 ? `L by ${-v}` : 'D'; }
  function cap(s) { return s[0].toUpperCase() + s.slice(1); }
  function setStatus(text, busy) { waiting = null; $('status').textContent = text; $('status').classList.toggle('solving', !!busy); }
  // setWaiting shows what a request waits for, text(the last /api/status
  // answer), and keeps it in step with the banner as new answers come.
  function setWaiting(text) { setStatus(text(server), true); waiting = text; }
  function showError(text) { $('error').textContent = text; }

  function init() {
    for (let m = 1; m <= 8; m++) $('pits').appendChild(new Option(String(m), String(m)));
    for (const l of LEVELS) $('level').appendChild(new Option(l, l));
    for (const b of document.querySelectorAll('#modes button')) {
      b.addEventListener('click', () => {
        st.mode = b.dataset.mode;
        st.moves = st.moves.slice(0, st.at);
        st.resigned = false;
        st.hint = false;
        load();
      });
    }
    $('rule').addEventListener('change', () => { st.rule = $('rule').value; load(); });
    $('pits').addEventListener('change', () => {
      st.pits = int($('pits').value, 6);
      if (st.seeds > maxSeeds(st.pits)) {
        notes.push(`${st.pits} pits hold at most ${maxSeeds(st.pits)} seeds each (${MAX_SEEDS} in all): showing Kalah(${st.pits},${maxSeeds(st.pits)}).`);
        st.seeds = maxSeeds(st.pits);
      }
      newGame();
    });
    $('seeds').addEventListener('change', () => {
      const n = strictInt($('seeds').value);
      if (n === null || n < 1 || n > maxSeeds(st.pits)) {
        // A note, so that the load of a click that ends the editing (New
        // game) says it too rather than clearing it.
        notes.push(`Seeds: ${$('seeds').value} is not a whole number 1..${maxSeeds(st.pits)} for ${st.pits} pits; keeping ${st.seeds}.`);
        showError(notes.join('\n'));
        $('seeds').value = st.seeds;
        return;
      }
      st.seeds = n;
      newGame();
    });
    $('order').addEventListener('change', () => {
      localStorage.setItem(ORDER_KEY, $('order').value);
      epoch++;
      render();
    });
    $('new-game').addEventListener('click', newGame);
    $('analyse').addEventListener('click', () => analyse($('game-input').value));
    $('game-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') analyse($('game-input').value); });
    $('set-position').addEventListener('click', setPosition);
    $('position').addEventListener('keydown', (e) => { if (e.key === 'Enter') setPosition(); });
    $('first').addEventListener('click', () => goTo(0));
    $('back').addEventListener('click', () => goTo(st.at - 1));
    $('forward').addEventListener('click', () => goTo(st.at + 1));
    $('last').addEventListener('click', () => goTo(st.moves.length));
    $('level').addEventListener('change', () => { st.level = $('level').value; epoch++; render(); });
    $('as').addEventListener('change', () => { st.as = $('as').value; epoch++; render(); });
    $('seed').addEventListener('change', () => { st.seed = int($('seed').value, 1); epoch++; render(); });
    $('animate').addEventListener('change', () => {
      localStorage.setItem(ANIM_KEY, $('animate').checked ? 'on' : 'off');
    });
    $('undo').addEventListener('click', undo);
    $('hint').addEventListener('click', () => { st.hint = true; epoch++; render(); });
    $('resign').addEventListener('click', () => { st.resigned = true; epoch++; render(); });
    document.addEventListener('keydown', (e) => {
      if ((st.mode !== 'explore' && !gameOver()) || ['INPUT', 'SELECT'].includes(e.target.tagName)) return;
      const to = {ArrowLeft: st.at - 1, ArrowRight: st.at + 1, Home: 0, End: st.moves.length}[e.key];
      if (to !== undefined) { e.preventDefault(); goTo(to); }
    });
    fromURL();
    load();
    pollStatus();
  }

  init();
})();
