import ResponderJSON

extension PageAssets {
    /// The page's script: one WebSocket to `responder web`; every picture comes drawn from the server.
    package static let script = #"""
        'use strict';
        const $ = (s) => document.querySelector(s);
        const state = { mode: 'hit', panels: [], selected: null, scrubSeq: null, events: [], capacity: 200, outlineGen: 0, nodes: new Map() };
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
            case 'hello': $('#session').textContent = m.session; state.capacity = m.capacity; document.title = `${m.session} · Responder inspector`; break;
            case 'status': setStatus(m.text); break;
            case 'world': drawWorld(m); break;
            case 'history': $('#events').replaceChildren(); state.events = []; m.events.forEach((e) => addEvent(e, false)); updateScrubber(); break;
            case 'event': addEvent(m, true); updateScrubber(); break;
            case 'overlay': drawOverlay(m); break;
            case 'node': showNode(m); break;
            case 'error': showError(m.message); break;
          }
        }

        // ---- the picture
        function drawWorld(m) {
          if (m.live && state.scrubSeq !== null) return;  // looking at the past: live changes wait for "Live"
          const t0 = performance.now();
          const svg = $('#picture');
          svg.setAttribute('viewBox', `0 0 ${m.width} ${m.height}`);  // scaled to fit the stage
          $('#world').innerHTML = m.svg;
          state.panels = m.panels;
          state.firstResponders = m.firstResponders;
          $('#world').getBBox();  // lay it out now, so the time below covers the whole redraw
          drawOutline(m.outline);
          if (state.selected) markSelected(state.selected, false);
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
          if (m.clear) { $('#overlay').replaceChildren(); $('#explain').replaceChildren(hint()); markHitRows([]); return; }
          if (m.source === 'event' && state.scrubSeq !== null && m.seq !== state.scrubSeq) return;
          const t0 = performance.now();
          $('#overlay').innerHTML = m.svg;
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
          if (m.view && m.source !== 'event') select(m.view);
          if (m.source !== 'event' && state.clickedAt) {
            // From the click to the explanation shown: the engine's answer, the server's drawing, this page's.
            const answered = performance.now() - state.clickedAt;
            document.body.dataset.answerMs = answered.toFixed(1);
            document.body.dataset.overlayMs = (performance.now() - t0).toFixed(1);
            console.log(`click answered in ${answered.toFixed(1)} ms (overlay drawn in ${(performance.now() - t0).toFixed(1)} ms)`);
          }
        }

        function hint() { return el('p', 'hint', 'Click a view in the picture: every view asked, why the others were passed over, and the responder chain.'); }

        function markHitRows(hits) {
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

        // ---- the outline: rendered in slices so that a 10,000-node world never blocks the page
        function drawOutline(rows) {
          const gen = ++state.outlineGen;
          const nav = $('#outline');
          const scroll = nav.scrollTop;
          nav.replaceChildren();
          state.nodes = new Map(rows.map((r) => [r[0], r]));
          let i = 0;
          const slice = () => {
            if (gen !== state.outlineGen) return;
            const frag = document.createDocumentFragment();
            const started = performance.now();
            // About 8 ms of rows per frame: clicks and messages are handled between slices.
            for (; i < rows.length && (i % 100 !== 0 || performance.now() - started < 8); i++) {
              const [id, kind, cls, depth, flags, first] = rows[i];
              const row = el('div', `row k-${kind}`);
              row.dataset.nodeId = id;
              row.style.paddingLeft = `${8 + depth * 12}px`;
              row.appendChild(el('span', 'id', id));
              row.appendChild(el('span', 'cls', cls));
              if (flags) row.appendChild(el('span', 'flags', flags));
              if (first) { row.appendChild(el('span', 'fr', '★')); row.title = 'first responder'; row.dataset.firstResponder = 'true'; }
              if (id === state.selected) row.classList.add('sel');
              frag.appendChild(row);
            }
            nav.appendChild(frag);
            if (i < rows.length) requestAnimationFrame(slice); else nav.scrollTop = scroll;
          };
          slice();
        }
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
        $('#outline').addEventListener('click', (e) => { const row = e.target.closest('.row'); if (row) select(row.dataset.nodeId); });

        // ---- a node's fields and chain
        function select(id) {
          state.selected = id;
          markSelected(id, true);
          send({ type: 'select', id });
        }
        function markSelected(id, scroll) {
          document.querySelectorAll('.sel').forEach((e) => e.classList.remove('sel'));
          byId($('#world'), id).forEach((e) => { if (e.matches('rect.v')) e.classList.add('sel'); });
          const row = byId($('#outline'), id)[0];
          if (row) { row.classList.add('sel'); if (scroll) row.scrollIntoView({ block: 'nearest' }); }
        }
        function showNode(m) {
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
