import ResponderJSON

extension PageAssets {
    /// The page's script: one WebSocket to `responder web`; every picture comes drawn from the server.
    package static let script = #"""
        'use strict';
        const $ = (s) => document.querySelector(s);
        const state = {
          mode: 'hit', panels: [], selected: null, scrubSeq: null, events: [], capacity: 200, outlineGen: 0, nodes: new Map(),
          // The tree generation of the world drawn: when it changes, what was drawn on the old geometry is asked again.
          shownGeneration: null,
          // The overlay drawn: {gen, hit, title, seq, live, generation}; `gen` tells a follow-up's answer from a stale one.
          overlay: null, overlayGen: 0, following: null,
          // The outline: rows, their subtree ends and parents, which system views the user opened or closed, the search.
          rows: [], end: null, parent: null, system: null, index: new Map(), toggled: new Set(), systemOpen: false, query: '', hitRows: new Map(),
        };
        let ws = null;

        function connect() {
          // The token of the printed address goes with the socket: responder web refuses a socket without it.
          ws = new WebSocket(`ws://${location.host}/socket?token=${encodeURIComponent(new URLSearchParams(location.search).get('token') || '')}`);
          ws.onmessage = (e) => handle(JSON.parse(e.data));
          ws.onclose = () => { setStatus('lost the connection to responder web; retrying…'); setTimeout(connect, 1000); };
        }
        function send(message) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(message)); }
        function setStatus(text) { $('#status').textContent = text; $('#status').title = text; }
        function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
        function byId(root, id) { return root.querySelectorAll(`[data-node-id="${CSS.escape(id)}"]`); }

        function handle(m) {
          switch (m.type) {
            case 'hello': hello(m); break;
            case 'opened': setStatus(`opened ${m.session}: ${m.from}'s tree under ${m.profile}`); break;
            case 'status': setStatus(m.text); break;
            case 'world': drawWorld(m); break;
            case 'history': $('#events').replaceChildren(); state.events = []; m.events.forEach((e) => addEvent(e, false)); updateScrubber(); break;
            case 'event': addEvent(m, true); updateScrubber(); break;
            case 'overlay': drawOverlay(m); break;
            case 'node': showNode(m); break;
            case 'error': state.following = null; $('#otherProfile').disabled = !state.profile; showError(m.message); break;
          }
        }

        // ---- the session followed and its profile; the same tree under the other profile is a new session
        function hello(m) {
          if (state.session !== undefined && state.session !== m.session) {
            // Another session: what was drawn and selected belongs to the old one.
            state.selected = null; state.overlay = null; state.overlayGen++; state.shownGeneration = null;
            $('#overlay').replaceChildren(); $('#whyLayer').replaceChildren(); $('#explain').replaceChildren(hint());
            $('#why').replaceChildren(); $('#chain').replaceChildren(); $('#fields').replaceChildren(); $('#nodeTitle').textContent = '';
          }
          state.session = m.session;
          state.profile = m.profile;
          state.capacity = m.capacity;
          $('#session').textContent = m.session;
          document.title = `${m.session} · Responder inspector`;
          const badge = $('#profile');
          badge.textContent = m.profile || '…';
          if (m.profile) badge.dataset.profile = m.profile; else delete badge.dataset.profile;
          document.body.dataset.profile = m.profile || '';
          const other = m.profile === 'android' ? 'uikit' : 'android';
          const button = $('#otherProfile');
          button.textContent = `open under ${other}`;
          button.dataset.profile = other;
          button.disabled = !m.profile;
          $('#modeHit').textContent = m.profile === 'android' ? 'Search' : 'Hit-test';
          $('#modeHit').title = m.profile === 'android'
            ? "Click the picture to see which views a touch there is offered to (a dry run of event.tap; changes nothing)"
            : 'Click the picture to hit-test (changes nothing)';
        }
        $('#otherProfile').addEventListener('click', () => {
          const button = $('#otherProfile');
          if (button.disabled) return;
          button.disabled = true;
          setStatus(`copying ${state.session} under ${button.dataset.profile}…`);
          send({ type: 'openProfile', profile: button.dataset.profile });
        });

        // ---- the picture
        function drawWorld(m) {
          if (m.live && state.scrubSeq !== null) return;  // looking at the past: live changes wait for "Live"
          const treeChanged = state.shownGeneration !== null && m.generation !== state.shownGeneration;
          state.shownGeneration = m.generation;
          const t0 = performance.now();
          const svg = $('#picture');
          svg.setAttribute('viewBox', `0 0 ${m.width} ${m.height}`);  // scaled to fit the stage
          $('#world').innerHTML = m.svg;
          state.panels = m.panels;
          state.firstResponders = m.firstResponders;
          $('#world').getBBox();  // lay it out now, so the time below covers the whole redraw
          drawOutline(m.outline);
          if (state.selected) markSelected(state.selected, false);
          if (m.live && (treeChanged || state.refreshOnLive)) { state.refreshOnLive = false; followOverlay(); refreshSelection(); }
          if (!m.live) { $('#whyLayer').replaceChildren(); $('#why').dataset.past = 'true'; }
          requestAnimationFrame(() => {
            const ms = performance.now() - t0;
            document.body.dataset.redrawMs = ms.toFixed(1);
            document.body.dataset.worldSeq = m.seq;
            document.body.dataset.redrawViews = m.drawn;
            $('#perf').textContent = `${m.drawn} views drawn${m.collapsed ? `, ${m.collapsed} too small` : ''} · redraw ${ms.toFixed(0)} ms`;
            console.log(`redraw ${ms.toFixed(1)} ms (${m.drawn} views drawn, ${m.collapsed} collapsed)`);
          });
        }

        function drawOverlay(m) {
          if (m.clear) { state.overlay = null; state.overlayGen++; $('#overlay').replaceChildren(); $('#explain').replaceChildren(hint()); markHitRows([]); return; }
          if (m.source === 'event' && state.scrubSeq !== null && m.seq !== state.scrubSeq) return;
          if (m.source === 'follow') {
            // The answer to a follow-up: drawn only if it is still about the overlay shown, and asked again if the
            // tree changed once more meanwhile.
            const asked = state.following;
            if (!asked || m.follow !== asked.gen) return;  // not the question in flight
            state.following = null;
            if (!state.overlay || asked.gen !== state.overlay.gen) return;  // its overlay was replaced meanwhile
            state.overlay.generation = asked.generation;
          } else {
            state.overlay = { gen: ++state.overlayGen, hit: m.hit, title: m.title, seq: m.seq, live: state.scrubSeq === null, generation: state.shownGeneration };
            state.following = null;
          }
          const t0 = performance.now();
          $('#overlay').innerHTML = m.svg;
          $('#overlay').classList.remove('stale');
          const box = $('#explain');
          box.replaceChildren();
          box.dataset.source = m.source;
          if (m.seq !== null) box.dataset.seq = m.seq; else delete box.dataset.seq;
          const hits = [];
          for (const line of m.lines) {
            const div = el('div', `line ln-${line.style}`, line.text);
            if (line.node) {
              div.dataset.nodeId = line.node;
              if (['path', 'target'].includes(line.style)) { div.dataset.hit = 'hit'; hits.push([line.node, 'hit']); }
              if (['miss', 'skip'].includes(line.style)) { div.dataset.hit = 'miss'; hits.push([line.node, 'miss']); }
              div.addEventListener('click', () => select(line.node));
            }
            box.appendChild(div);
          }
          markHitRows(hits);
          if (m.source === 'follow') { followOverlay(); return; }
          if (m.view && m.source !== 'event') select(m.view);
          if (m.source !== 'event' && state.clickedAt) {
            // From the click to the explanation shown: the engine's answer, the server's drawing, this page's.
            const answered = performance.now() - state.clickedAt;
            document.body.dataset.answerMs = answered.toFixed(1);
            document.body.dataset.overlayMs = (performance.now() - t0).toFixed(1);
            console.log(`click answered in ${answered.toFixed(1)} ms (overlay drawn in ${(performance.now() - t0).toFixed(1)} ms)`);
          }
        }

        // The overlay was drawn on the world before the tree changed: its hit test is asked again at the same point
        // (read-only; a tap is never repeated), and the answer replaces it with a note saying so.
        function followOverlay() {
          const o = state.overlay;
          if (!o || !o.hit || !o.live || state.scrubSeq !== null || o.generation === state.shownGeneration) return;
          if (state.following) return;  // one at a time: the answer's arrival asks again if still behind
          state.following = { gen: o.gen, generation: state.shownGeneration };
          $('#overlay').classList.add('stale');
          send({ type: 'hit', x: o.hit.x, y: o.hit.y, follow: o.gen, was: o.title, seq: o.seq });
        }

        function hint() { return el('p', 'hint', 'Click a view in the picture: every view asked, why the others were passed over, and the responder chain.'); }

        function markHitRows(hits) {
          state.hitRows = new Map(hits);
          document.querySelectorAll('.row.hit-path, .row.hit-miss').forEach((r) => r.classList.remove('hit-path', 'hit-miss'));
          for (const [id, hit] of hits) byId($('#outline'), id).forEach((r) => r.classList.add(hit === 'hit' ? 'hit-path' : 'hit-miss'));
        }

        $('#picture').addEventListener('click', (e) => {
          const svg = $('#picture');
          const pt = svg.createSVGPoint();
          pt.x = e.clientX; pt.y = e.clientY;
          const p = pt.matrixTransform(svg.getScreenCTM().inverse());
          const panel = state.panels.find((q) => p.x >= q.x && p.x < q.x + q.w && p.y >= q.y && p.y < q.y + q.h);
          if (!panel) return;
          const x = Math.round(p.x - panel.x + panel.sx), y = Math.round(p.y - panel.y + panel.sy);  // whole screen points
          if (state.scrubSeq !== null) goLive();  // hit-tests and taps are asked of the world as it is now
          $('#explain').replaceChildren(el('p', 'hint', `${state.mode === 'tap' ? 'Tapping' : 'Hit-testing'} (${x}, ${y}) in ${panel.id}…`));
          state.clickedAt = performance.now();
          send({ type: state.mode, x, y });
        });

        function setMode(mode) {
          state.mode = mode;
          $('#modeHit').classList.toggle('on', mode === 'hit');
          $('#modeTap').classList.toggle('on', mode === 'tap');
          document.body.classList.toggle('tap', mode === 'tap');
        }
        $('#modeHit').addEventListener('click', () => setMode('hit'));
        $('#modeTap').addEventListener('click', () => setMode('tap'));
        document.addEventListener('keydown', (e) => { if (e.key === 't' && !e.target.closest('input')) setMode(state.mode === 'tap' ? 'hit' : 'tap'); });

        // ---- the outline: rendered in slices so that a 10,000-node world never blocks the page.
        // System views are collapsed by default: a view whose class begins with "_" (UIKit's private classes by
        // Apple's naming) or is one of UIKit's private classes without the underscore below. A container that holds
        // a view controller stays open (the app's own views are inside it: UITransitionView, UILayoutContainerView…).
        const PRIVATE_CLASSES = new Set(['UIButtonLabel', 'UIFieldEditor', 'UITextFieldLabel', 'UITextFieldBorderView',
          'UISearchBarTextFieldLabel', 'UITextSelectionView']);
        function isSystemClass(cls) { return cls.startsWith('_') || PRIVATE_CLASSES.has(cls); }

        function drawOutline(rows) {
          // Each row: [id, kind, name, depth, flags, first responder, class, words].
          const n = rows.length;
          const end = new Int32Array(n), parent = new Int32Array(n), controllers = new Int32Array(n + 1);
          const stack = [];
          for (let i = 0; i < n; i++) {
            const depth = rows[i][3];
            while (stack.length && rows[stack[stack.length - 1]][3] >= depth) end[stack.pop()] = i;
            parent[i] = stack.length ? stack[stack.length - 1] : -1;
            stack.push(i);
            controllers[i + 1] = controllers[i] + (rows[i][1] === 'viewController' ? 1 : 0);
          }
          while (stack.length) end[stack.pop()] = n;
          const system = new Uint8Array(n);
          for (let i = 0; i < n; i++) {
            const holdsController = controllers[end[i]] - controllers[i + 1] > 0;
            system[i] = isSystemClass(rows[i][6] || '') && end[i] > i + 1 && !holdsController ? 1 : 0;
          }
          Object.assign(state, { rows, end, parent, system, index: new Map(rows.map((r, i) => [r[0], i])) });
          state.nodes = new Map(rows.map((r) => [r[0], r]));
          renderOutline();
        }
        function collapsed(i) { return state.system[i] === 1 && state.systemOpen === state.toggled.has(state.rows[i][0]); }
        function matches(row, q) {
          const [id, kind, name, , , , cls, words] = row;
          return id.toLowerCase().includes(q) || name.toLowerCase().includes(q) || (cls || '').toLowerCase().includes(q)
            || kind.toLowerCase().includes(q) || (words || '').toLowerCase().includes(q);
        }
        // Which rows show: with a search, the matches and their ancestors (collapsing set aside); without one, every
        // row outside a collapsed system view.
        function visibleRows() {
          const { rows, end, parent } = state;
          const shown = [], kinds = new Map();
          let hidden = 0, found = 0;
          if (state.query) {
            const keep = new Uint8Array(rows.length);
            for (let i = 0; i < rows.length; i++) {
              if (!matches(rows[i], state.query)) continue;
              found++;
              keep[i] = 2;
              for (let p = parent[i]; p >= 0 && !keep[p]; p = parent[p]) keep[p] = 1;
            }
            for (let i = 0; i < rows.length; i++) if (keep[i]) { shown.push(i); kinds.set(i, keep[i] === 2 ? 'match' : 'context'); }
          } else {
            for (let i = 0; i < rows.length; ) {
              shown.push(i);
              if (collapsed(i)) { hidden += end[i] - i - 1; i = end[i]; } else i++;
            }
          }
          return { shown, kinds, hidden, found };
        }
        function renderOutline() {
          const gen = ++state.outlineGen;
          const nav = $('#outline');
          const scroll = nav.scrollTop;
          nav.replaceChildren();
          const { rows, end, system } = state;
          const { shown, kinds, hidden, found } = visibleRows();
          const systemCount = system.reduce((a, b) => a + b, 0);
          const note = $('#outlineNoteText');
          if (state.query) note.textContent = `${found} of ${rows.length} match “${$('#search').value.trim()}”`;
          else if (systemCount) note.textContent = `${systemCount} system view${systemCount === 1 ? '' : 's'} (UIKit private classes) ${state.systemOpen ? 'open' : `collapsed, ${hidden} views inside`}`;
          else note.textContent = '';
          $('#outlineNote').hidden = !note.textContent;
          $('#systemToggle').hidden = systemCount === 0 || !!state.query;
          $('#systemToggle').textContent = state.systemOpen ? 'collapse all' : 'expand all';
          document.body.dataset.outlineShown = shown.length;
          let k = 0;
          const slice = () => {
            if (gen !== state.outlineGen) return;
            const frag = document.createDocumentFragment();
            const started = performance.now();
            // About 8 ms of rows per frame: clicks and messages are handled between slices.
            for (; k < shown.length && (k % 100 !== 0 || performance.now() - started < 8); k++) {
              const i = shown[k];
              const [id, kind, cls, depth, flags, first] = rows[i];
              const row = el('div', `row k-${kind}`);
              row.dataset.nodeId = id;
              row.style.paddingLeft = `${8 + depth * 12}px`;
              if (system[i]) {
                const closed = !state.query && collapsed(i);
                row.classList.add('system');
                row.dataset.system = closed ? 'collapsed' : 'open';
                const tw = el('span', 'tw', closed ? '▸' : '▾');
                tw.title = closed ? 'UIKit private class: show what is inside' : 'Hide what is inside';
                row.appendChild(tw);
              }
              row.appendChild(el('span', 'id', id));
              row.appendChild(el('span', 'cls', cls));
              if (flags) row.appendChild(el('span', 'flags', flags));
              if (first) { row.appendChild(el('span', 'fr', '★')); row.title = 'first responder'; row.dataset.firstResponder = 'true'; }
              if (row.dataset.system === 'collapsed') row.appendChild(el('span', 'more', `+${end[i] - i - 1}`));
              const kindOfMatch = kinds.get(i);
              if (kindOfMatch) row.classList.add(kindOfMatch);
              const hit = state.hitRows.get(id);
              if (hit) row.classList.add(hit === 'hit' ? 'hit-path' : 'hit-miss');
              if (id === state.selected) row.classList.add('sel');
              frag.appendChild(row);
            }
            nav.appendChild(frag);
            if (k < shown.length) requestAnimationFrame(slice); else nav.scrollTop = scroll;
          };
          slice();
        }
        function toggle(id) {
          if (state.toggled.has(id)) state.toggled.delete(id); else state.toggled.add(id);
          renderOutline();
        }
        // A node selected from the picture or a why line may sit inside a collapsed system view: open its way there.
        function reveal(id) {
          const i = state.index.get(id);
          if (i === undefined || state.query) return;
          let changed = false;
          for (let p = state.parent[i]; p >= 0; p = state.parent[p]) {
            if (collapsed(p)) { const pid = state.rows[p][0]; if (state.toggled.has(pid)) state.toggled.delete(pid); else state.toggled.add(pid); changed = true; }
          }
          if (changed) renderOutline();
        }
        let searchTimer = null;
        $('#search').addEventListener('input', () => {
          clearTimeout(searchTimer);
          searchTimer = setTimeout(() => { state.query = $('#search').value.trim().toLowerCase(); renderOutline(); }, 80);
        });
        $('#search').addEventListener('keydown', (e) => { if (e.key === 'Escape') { $('#search').value = ''; state.query = ''; renderOutline(); } });
        $('#systemToggle').addEventListener('click', () => { state.systemOpen = !state.systemOpen; state.toggled.clear(); renderOutline(); });

        // The outline's width: drag the handle (or use the arrow keys on it); double-click for the default.
        const DEFAULT_OUTLINE = 250;
        function setOutlineWidth(px, keep = true) {
          const most = Math.max(200, window.innerWidth - 420 - 240);
          const w = Math.round(Math.min(Math.max(px, 140), most));
          document.querySelector('main').style.setProperty('--outline-width', `${w}px`);
          document.body.dataset.outlineWidth = w;
          if (keep) try { localStorage.setItem('responder.outlineWidth', String(w)); } catch (e) { /* private mode */ }
        }
        {
          const handle = $('#outlineHandle');
          handle.addEventListener('pointerdown', (e) => {
            e.preventDefault();
            handle.setPointerCapture(e.pointerId);
            handle.classList.add('dragging');
            const startX = e.clientX, startWidth = $('#outlinePane').getBoundingClientRect().width;
            const move = (ev) => setOutlineWidth(startWidth + ev.clientX - startX);
            const up = () => { handle.classList.remove('dragging'); handle.removeEventListener('pointermove', move); handle.removeEventListener('pointerup', up); };
            handle.addEventListener('pointermove', move);
            handle.addEventListener('pointerup', up);
          });
          handle.addEventListener('keydown', (e) => {
            const w = $('#outlinePane').getBoundingClientRect().width;
            if (e.key === 'ArrowLeft') setOutlineWidth(w - 20);
            if (e.key === 'ArrowRight') setOutlineWidth(w + 20);
          });
          handle.addEventListener('dblclick', () => setOutlineWidth(DEFAULT_OUTLINE));
          let saved = null;
          try { saved = Number(localStorage.getItem('responder.outlineWidth')); } catch (e) { /* private mode */ }
          setOutlineWidth(saved || DEFAULT_OUTLINE, false);
        }
        document.addEventListener('keydown', (e) => { if (e.key === '/' && !e.target.closest('input')) { e.preventDefault(); $('#search').focus(); } });
        // Hover: which view is under the pointer (the picture carries no tooltips of its own, to stay light).
        $('#picture').addEventListener('mousemove', (e) => {
          const tip = $('#tip');
          const target = e.target.closest('[data-node-id]');
          const row = target && state.nodes && state.nodes.get(target.dataset.nodeId);
          if (!row) { tip.hidden = true; return; }
          const [id, kind, cls, , flags, first] = row;
          tip.textContent = `${id} · ${cls} · ${kind}${flags ? ' · ' + flags : ''}${first ? ' · first responder' : ''}`;
          tip.style.left = `${e.clientX + 14}px`;
          tip.style.top = `${e.clientY + 12}px`;
          tip.hidden = false;
        });
        $('#picture').addEventListener('mouseleave', () => { $('#tip').hidden = true; });
        $('#outline').addEventListener('click', (e) => {
          const row = e.target.closest('.row');
          if (!row) return;
          if (e.target.closest('.tw')) { toggle(row.dataset.nodeId); return; }
          select(row.dataset.nodeId);
        });

        // ---- a node's fields and chain
        function select(id) {
          state.selected = id;
          reveal(id);
          markSelected(id, true);
          $('#why').replaceChildren(el('p', 'hint', 'Asking the engine why not…'));
          $('#whyLayer').classList.add('stale');
          state.asking = true;
          send({ type: 'select', id });
        }
        // The tree changed: the selected node's fields, chain and why-not are asked again, one question at a time
        // (a burst of changes asks once more when the answer in flight comes, not once per change).
        function refreshSelection() {
          if (!state.selected) return;
          $('#whyLayer').classList.add('stale');
          if (state.asking) { state.askAgain = true; return; }
          state.asking = true;
          send({ type: 'select', id: state.selected });
        }
        function markSelected(id, scroll) {
          document.querySelectorAll('.sel').forEach((e) => e.classList.remove('sel'));
          byId($('#world'), id).forEach((e) => { if (e.matches('rect.v')) e.classList.add('sel'); });
          const row = byId($('#outline'), id)[0];
          if (row) { row.classList.add('sel'); if (scroll) row.scrollIntoView({ block: 'nearest' }); }
        }
        function showNode(m) {
          state.asking = false;
          if (state.askAgain) { state.askAgain = false; refreshSelection(); }
          if (m.id !== state.selected) return;
          $('#nodeTitle').textContent = m.id;
          const chain = $('#chain');
          chain.replaceChildren();
          const firsts = new Set(Object.values(state.firstResponders || {}));
          m.chain.forEach((id, k) => {
            if (k) chain.appendChild(el('span', 'arrow', ' → '));
            const chip = el('span', `chip${firsts.has(id) ? ' first' : ''}`, id);
            chip.dataset.nodeId = id;
            chip.title = firsts.has(id) ? 'first responder' : 'next responder';
            chip.addEventListener('click', () => select(id));
            chain.appendChild(chip);
          });
          const table = $('#fields');
          table.replaceChildren();
          if (!m.fields) { table.appendChild(rowOf('', 'not in the world shown')); return; }
          for (const [key, value] of Object.entries(m.fields)) table.appendChild(rowOf(key, typeof value === 'string' ? value : JSON.stringify(value)));
          showWhy(m.id, m.why);
        }

        // ---- why not: the engine's whyNot answer in the lines `responder why` prints, and on the picture the view,
        // the culprit of the decisive cause and where a tap is the view's own
        function showWhy(id, why) {
          const box = $('#why');
          box.replaceChildren();
          box.dataset.view = id;
          delete box.dataset.past;
          const layer = $('#whyLayer');
          layer.replaceChildren();
          layer.classList.remove('stale');
          if (!why) { delete box.dataset.ok; return; }
          if (why.error) { box.dataset.ok = 'error'; box.appendChild(el('p', 'error', why.error)); return; }
          if (why.note) {
            // The engine answers why-not by UIKit's rules only; under another model that is a fact, not a failure.
            box.dataset.ok = 'note';
            const note = el('p', 'note', why.note);
            note.title = why.refusal || '';
            box.appendChild(note);
            return;
          }
          box.dataset.ok = String(why.ok);
          box.dataset.culprit = (why.causes[0] && why.causes[0].culprit) || '';
          let cause = 0;
          for (const line of why.lines) {
            const div = el('div', `line w-${line.style}`);
            div.appendChild(el('span', 'text', line.text));
            if (line.style === 'cause' || line.style === 'also') {
              const c = why.causes[cause++];
              if (c && c.culprit) {
                div.dataset.nodeId = c.culprit;
                const chip = el('span', 'culprit', c.culpritLabel);
                chip.title = `${c.rule}: ${c.ruleTitle} — click to select`;
                chip.addEventListener('click', () => select(c.culprit));
                div.appendChild(chip);
              }
            }
            box.appendChild(div);
          }
          if (state.scrubSeq !== null) {
            box.dataset.past = 'true';
            box.appendChild(el('p', 'hint', 'Answered for the world as it is now; the picture shows an earlier one.'));
            return;
          }
          drawWhy(id, why);
        }
        function drawWhy(id, why) {
          const layer = $('#whyLayer');
          const outline = (node, cls) => {
            const src = [...byId($('#world'), node)].find((e) => e.matches('rect.v'));
            if (!src) return null;
            const r = src.cloneNode(false);
            r.setAttribute('class', cls);
            r.removeAttribute('opacity');
            layer.appendChild(r);
            return r;
          };
          const culprit = why.causes[0] && why.causes[0].culprit;
          if (culprit && culprit !== id) outline(culprit, 'why-culprit');
          const view = outline(id, `why-view${why.ok ? ' ok' : ''}`);
          for (const [x, y, width, height] of why.area || []) {  // where a tap is the view's own
            layer.appendChild(svgEl('rect', { class: 'why-area', x, y, width, height }));
          }
          const pct = Math.round(why.fraction * 100);
          if (why.mark) {
            const g = svgEl('g', { class: 'why-point', 'data-x': why.mark.screen[0], 'data-y': why.mark.screen[1] });
            const { x, y } = why.mark;
            g.appendChild(svgEl('circle', { cx: x, cy: y, r: 9 }));
            g.appendChild(svgEl('path', { d: `M${x - 14} ${y}h28M${x} ${y - 14}v28` }));
            layer.appendChild(g);
            const at = why.mark.screen.map((v) => Number(v.toFixed(2))).join(', ');  // two decimals, as the answers write them
            tag(layer, x + 13, y - 22, `hittable ${pct}% · (${at})`, 'ok');
          } else if (view) {
            const b = view.getBBox();
            const m = view.transform.baseVal.consolidate();
            const p = m ? new DOMPoint(b.x, b.y).matrixTransform(m.matrix) : { x: b.x, y: b.y };
            tag(layer, p.x + 4, p.y + 4, 'hittable nowhere', 'none');
          }
          if (!view) $('#why').appendChild(el('p', 'hint', 'The view is not drawn on the picture (too small, or outside every window).'));
        }
        function svgEl(tag, attrs) {
          const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
          for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
          return e;
        }
        function tag(layer, x, y, text, kind) {
          const g = svgEl('g', { class: `why-tag ${kind}` });
          const t = svgEl('text', { x: x + 6, y: y + 12.5 });
          t.textContent = text;
          g.appendChild(t);
          layer.appendChild(g);
          const w = t.getComputedTextLength();
          g.insertBefore(svgEl('rect', { x, y, width: w + 12, height: 18, rx: 4 }), t);
        }
        function rowOf(key, value) { const tr = el('tr'); tr.appendChild(el('td', '', key)); tr.appendChild(el('td', '', value)); return tr; }
        function showError(message) { const box = $('#explain'); box.replaceChildren(el('p', 'error', message)); }

        // ---- the event stream and the scrubber
        function addEvent(m, fresh) {
          state.events.push(m);
          if (state.events.length > state.capacity) state.events.shift();
          const li = el('li', `s-${m.stream}${fresh ? ' fresh' : ''}`);
          li.dataset.seq = m.seq;
          li.dataset.stream = m.stream;
          if (m.client) li.dataset.client = m.client;
          li.dataset.receivedAt = Date.now();
          li.appendChild(el('span', 'seq', `#${m.seq}`));
          li.appendChild(el('span', 'stream', m.stream));
          li.appendChild(el('span', 'client', m.client ? ` by ${m.client}` : ''));
          li.appendChild(el('span', 'summary', m.summary));
          li.title = m.summary;
          li.addEventListener('click', () => scrubTo(m.seq));
          const list = $('#events');
          list.prepend(li);
          while (list.children.length > state.capacity) list.lastChild.remove();
        }
        function updateScrubber() {
          const s = $('#scrub');
          s.disabled = state.events.length === 0;
          s.max = Math.max(0, state.events.length - 1);
          if (state.scrubSeq === null) { s.value = s.max; $('#scrubLabel').textContent = `live · ${state.events.length} events held`; }
        }
        let scrubTimer = null;
        $('#scrub').addEventListener('input', () => {
          const e = state.events[Number($('#scrub').value)];
          if (!e) return;
          clearTimeout(scrubTimer);
          scrubTimer = setTimeout(() => scrubTo(e.seq), 60);
        });
        function scrubTo(seq) {
          state.scrubSeq = seq;
          const index = state.events.findIndex((e) => e.seq === seq);
          if (index >= 0) $('#scrub').value = index;
          const back = state.events.length - 1 - index;
          $('#scrubLabel').textContent = `after #${seq} · ${back} event${back === 1 ? '' : 's'} ago`;
          $('#pastSeq').textContent = `#${seq}`;
          $('#pastBanner').hidden = false;
          $('#live').disabled = false;
          document.querySelectorAll('#events li.current').forEach((li) => li.classList.remove('current'));
          const li = document.querySelector(`#events li[data-seq="${seq}"]`);
          if (li) li.classList.add('current');
          send({ type: 'scrub', seq });
        }
        function goLive() {
          state.scrubSeq = null;
          state.refreshOnLive = true;  // the selection's why is asked again once the live world is drawn
          $('#pastBanner').hidden = true;
          $('#live').disabled = true;
          document.querySelectorAll('#events li.current').forEach((li) => li.classList.remove('current'));
          updateScrubber();
          send({ type: 'scrub', seq: null });
        }
        $('#live').addEventListener('click', goLive);
        $('#backLive').addEventListener('click', goLive);

        connect();
        """#
}
