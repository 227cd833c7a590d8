/// The inspector page: HTML, CSS and JavaScript served from this binary (no build step, nothing fetched from
/// the internet). The picture's own stylesheet (ResponderPicture) is put into the HTML when served.
package enum PageAssets {
    package static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Responder inspector</title>
        <link rel="stylesheet" href="/app.css">
        </head>
        <body>
        <header>
          <h1>Responder inspector</h1>
          <span class="session">session <b id="session">…</b> <span id="profile" class="profile" title="The session's dispatch model (its profile)">…</span></span>
          <button id="otherProfile" class="otherProfile" disabled title="Copy the session's tree into a new session under the other dispatch model, and follow that one">open under …</button>
          <div class="mode" role="group" aria-label="Click does">
            <button id="modeHit" class="on" title="Click the picture to hit-test (changes nothing)">Hit-test</button>
            <button id="modeTap" title="Click the picture to tap there for real (event.tap)">Tap</button>
          </div>
          <span id="status" class="status">connecting…</span>
          <span id="perf" class="perf"></span>
        </header>
        <main>
          <div id="outlinePane">
            <div class="outlineTools">
              <input id="search" type="search" placeholder="Search class, text or id  ( / )" aria-label="Search the tree by class, text or id" autocomplete="off" spellcheck="false">
            </div>
            <div id="outlineNote" class="outlineNote" hidden><span id="outlineNoteText"></span><button id="systemToggle" hidden title="System views: UIKit's private classes (a class beginning with _, or UIButtonLabel, UIFieldEditor, UITextFieldLabel…); a container holding a view controller stays open">expand</button></div>
            <nav id="outline" aria-label="Tree"></nav>
          </div>
          <div id="outlineHandle" role="separator" aria-orientation="vertical" aria-label="Resize the tree" tabindex="0" title="Drag to resize the tree (arrow keys too); double-click for the default width"></div>
          <section id="stage">
            <div id="pastBanner" hidden>Showing the world as it was after <b id="pastSeq"></b>. <button id="backLive">Back to live</button></div>
            <svg id="picture" xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMin meet"><style>/*PICTURE-STYLE*/
        .v.sel{stroke:#2563eb;stroke-width:3;stroke-dasharray:none}
        #overlay.stale,#whyLayer.stale{opacity:.35}
        #whyLayer{pointer-events:none}
        #whyLayer .why-view{fill:#2563eb;fill-opacity:.10;stroke:#2563eb;stroke-width:3;stroke-dasharray:none}
        #whyLayer .why-area{fill:#0d7a3b;fill-opacity:.28;stroke:none}
        #whyLayer .why-culprit{fill:#d32f2f;fill-opacity:.18;stroke:#d32f2f;stroke-width:3;stroke-dasharray:8 4}
        #whyLayer .why-point circle{fill:#15924a;fill-opacity:.3;stroke:#0d7a3b;stroke-width:2}
        #whyLayer .why-point path{stroke:#0d7a3b;stroke-width:2}
        #whyLayer .why-tag rect{fill:#fff;stroke:#0d7a3b;stroke-width:1.2}
        #whyLayer .why-tag text{font-size:11px;font-weight:700;fill:#0d7a3b}
        #whyLayer .why-tag.none rect{stroke:#d32f2f}#whyLayer .why-tag.none text{fill:#b71c1c}
        </style><!--PICTURE-DEFS--><rect class="bg" id="bg" x="0" y="0" width="100%" height="100%"/><g id="world"></g><g id="overlay"></g><g id="whyLayer"></g></svg>
          </section>
          <aside>
            <section class="panel" id="explainPanel">
              <h2>Explanation</h2>
              <div id="explain" class="explain"><p class="hint">Click a view in the picture: every view asked, why the others were passed over, and the responder chain.</p></div>
            </section>
            <section class="panel" id="nodePanel">
              <h2>Selected <span id="nodeTitle"></span></h2>
              <div id="why" class="why" aria-label="Why not"><p class="hint">Pick a view in the tree: why a tap anywhere on it does or does not reach it, and where a tap is its own.</p></div>
              <div id="chain" class="chain"></div>
              <table id="fields"></table>
            </section>
            <section class="panel grow" id="eventsPanel">
              <h2>Events <span class="sub">from every client of the session</span></h2>
              <ol id="events" reversed></ol>
            </section>
          </aside>
        </main>
        <footer>
          <label for="scrub">History</label>
          <input id="scrub" type="range" min="0" max="0" value="0" disabled>
          <span id="scrubLabel">live</span>
          <button id="live" disabled>Live</button>
        </footer>
        <div id="tip" hidden></div>
        <script src="/app.js"></script>
        </body>
        </html>
        """#

    package static let css = #"""
        * { box-sizing: border-box; }
        html, body { margin: 0; height: 100%; font: 13px/1.4 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #1f2430; background: #eef0f4; }
        body { display: grid; grid-template-rows: 48px 1fr 46px; }
        header { display: flex; align-items: center; gap: 16px; padding: 0 16px; background: #1f2430; color: #e9ecf2; }
        header h1 { font-size: 15px; margin: 0; font-weight: 700; }
        header .session b { color: #fff; }
        .profile { display: inline-block; margin-left: 4px; padding: 1px 7px; border-radius: 9px; font-size: 11px; font-weight: 700; background: #5b6474; color: #fff; }
        .profile[data-profile="uikit"] { background: #1f6fd0; }
        .profile[data-profile="android"] { background: #2e8b57; }
        .otherProfile { background: transparent; color: #c9ced6; border: 1px solid #5b6474; border-radius: 6px; padding: 4px 10px; font: inherit; cursor: pointer; }
        .otherProfile:hover:not(:disabled) { color: #fff; border-color: #c9ced6; }
        .otherProfile:disabled { opacity: .5; cursor: default; }
        .mode { display: flex; border: 1px solid #5b6474; border-radius: 6px; overflow: hidden; }
        .mode button { background: transparent; color: #c9ced6; border: 0; padding: 5px 12px; font: inherit; cursor: pointer; }
        .mode button.on { background: #15924a; color: #fff; }
        .mode button#modeTap.on { background: #e8590c; }
        .status { color: #aab2c0; flex: 1; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .perf { color: #aab2c0; font-variant-numeric: tabular-nums; }
        main { display: grid; grid-template-columns: var(--outline-width, 250px) 6px minmax(0, 1fr) 420px; min-height: 0; }
        #outlinePane { display: flex; flex-direction: column; min-height: 0; min-width: 0; background: #fff; }
        .outlineTools { display: flex; gap: 6px; padding: 6px 8px; border-bottom: 1px solid #e3e6eb; }
        #search { flex: 1; min-width: 0; padding: 4px 8px; border: 1px solid #c9ced6; border-radius: 5px; font: inherit; font-size: 12px; }
        #search:focus { outline: 2px solid #9db7e6; border-color: #2563eb; }
        #systemToggle { margin-left: 6px; padding: 0 6px; border: 1px solid #c9ced6; border-radius: 4px; background: #fff; color: #1f6fd0; font-size: 11px; cursor: pointer; white-space: nowrap; }
        .outlineNote { padding: 3px 10px; font-size: 11px; color: #6b7382; background: #f7f8fa; border-bottom: 1px solid #eef0f4; }
        nav#outline { flex: 1; overflow: auto; padding: 6px 0; font-size: 12px; }
        #outlineHandle { cursor: col-resize; background: #e3e6eb; border-left: 1px solid #d5d9e0; border-right: 1px solid #d5d9e0; touch-action: none; }
        #outlineHandle:hover, #outlineHandle.dragging, #outlineHandle:focus { background: #9db7e6; outline: none; }
        .row .tw { display: inline-block; width: 12px; margin-left: -12px; color: #6b7382; }
        .row.system .cls { color: #a0a6b0; font-style: italic; }
        .row .more { color: #8a93a3; font-size: 11px; margin-left: 4px; }
        .row.context { opacity: .55; }
        .row.match .id, .row.match .cls { background: #fff1a8; }
        .row { padding: 1px 8px; white-space: nowrap; cursor: pointer; }
        .row:hover { background: #eef3fb; }
        .row.sel { background: #dbe7fb; }
        .row .id { font-weight: 600; }
        .row .cls { color: #6b7382; margin-left: 4px; }
        .row .flags { color: #a0563a; margin-left: 4px; font-size: 11px; }
        .row .fr { color: #e08a00; margin-left: 4px; }
        .row.k-viewController .id, .row.k-application .id, .row.k-appDelegate .id { font-style: italic; }
        .row.hit-path { box-shadow: inset 3px 0 #15924a; }
        .row.hit-miss { box-shadow: inset 3px 0 #d32f2f; }
        #stage { position: relative; overflow: hidden; }
        #picture { position: absolute; inset: 0; width: 100%; height: 100%; cursor: crosshair; background: #eef0f4; }
        body.tap #picture { cursor: pointer; }
        #pastBanner { position: absolute; top: 10px; left: 50%; transform: translateX(-50%); z-index: 2; padding: 6px 10px; background: #fff4d6; border: 1px solid #e0b84a; border-radius: 6px; }
        aside { display: flex; flex-direction: column; min-height: 0; border-left: 1px solid #d5d9e0; background: #fff; }
        .panel { padding: 8px 14px; border-bottom: 1px solid #e3e6eb; overflow: auto; }
        .panel.grow { flex: 1; min-height: 120px; }
        #explainPanel { max-height: 42%; }
        #nodePanel { max-height: 45%; }
        .why { margin-bottom: 8px; }
        .why .line { padding: 1px 0; }
        .why .w-ok { color: #0d7a3b; font-weight: 700; }
        .why .w-cause { color: #b71c1c; font-weight: 700; background: #fdecec; border-left: 3px solid #d32f2f; padding: 3px 6px; margin: 2px 0; }
        .why .w-also { color: #7a2e2e; padding-left: 12px; }
        .why .w-hittable { color: #0d7a3b; margin-top: 2px; }
        .why .w-legend { color: #5b6474; font-family: "DejaVu Sans Mono", monospace; font-size: 11px; white-space: pre-wrap; }
        .why .culprit { display: inline-block; margin-left: 6px; padding: 0 7px; border-radius: 10px; background: #fde2e2; color: #9b1c1c; font-weight: 600; font-size: 11.5px; cursor: pointer; }
        h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: #5b6474; margin: 2px 0 6px; }
        h2 .sub, h2 #nodeTitle { text-transform: none; letter-spacing: 0; color: #1f2430; font-weight: 600; }
        h2 .sub { color: #8a93a3; font-weight: 400; }
        .explain .line { padding: 1px 0 1px 16px; position: relative; }
        .explain .line::before { content: ""; position: absolute; left: 0; top: 5px; width: 9px; height: 9px; border-radius: 2px; }
        .explain .ln-title { font-weight: 700; font-size: 14px; padding-left: 0; }
        .explain .ln-heading { font-weight: 700; margin-top: 6px; padding-left: 0; }
        .explain .ln-path { color: #0d7a3b; } .explain .ln-path::before { border: 2px solid #15924a; width: 7px; height: 7px; }
        .explain .ln-target { color: #0d7a3b; font-weight: 700; } .explain .ln-target::before { background: #15924a; }
        .explain .ln-miss { color: #b71c1c; } .explain .ln-miss::before { border: 2px dashed #d32f2f; width: 7px; height: 7px; }
        .explain .ln-skip { color: #5b21b6; } .explain .ln-skip::before { border: 2px dotted #7c3aed; width: 7px; height: 7px; }
        .explain .ln-chain { color: #c2410c; } .explain .ln-chain::before { background: #e8590c; border-radius: 50%; }
        .explain .ln-note { color: #2b303a; font-family: "DejaVu Sans Mono", monospace; font-size: 11.5px; }
        .explain [data-node-id] { cursor: pointer; }
        .hint { color: #8a93a3; margin: 4px 0; }
        .chain { margin-bottom: 6px; }
        .chip { display: inline-block; padding: 0 7px; margin: 1px 2px; border-radius: 10px; background: #fde6d8; color: #9a3412; cursor: pointer; }
        .chip.first { background: #e08a00; color: #fff; }
        .arrow { color: #b0b6c0; }
        table#fields { border-collapse: collapse; width: 100%; font-size: 12px; }
        #fields td { padding: 1px 6px 1px 0; vertical-align: top; border-bottom: 1px solid #f0f1f4; }
        #fields td:first-child { color: #5b6474; white-space: nowrap; }
        #fields td:last-child { font-family: "DejaVu Sans Mono", monospace; font-size: 11.5px; word-break: break-all; }
        ol#events { margin: 0; padding: 0; list-style: none; font-size: 12px; }
        #events li { padding: 3px 4px; border-bottom: 1px solid #f0f1f4; cursor: pointer; }
        #events li:hover { background: #f4f6fa; }
        #events li.current { background: #fff4d6; }
        #events li.fresh { animation: fresh 1.2s ease-out; }
        @keyframes fresh { from { background: #d9f2e2; } to { background: transparent; } }
        #events .seq { color: #8a93a3; font-variant-numeric: tabular-nums; margin-right: 4px; }
        #events .stream { display: inline-block; min-width: 38px; font-weight: 600; }
        #events .s-tree .stream { color: #1f6fd0; } #events .s-trace .stream { color: #0d7a3b; } #events .s-focus .stream { color: #b36b00; }
        #events .client { color: #6b7382; }
        #events .summary { display: block; color: #2b303a; font-family: "DejaVu Sans Mono", monospace; font-size: 11px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        footer { display: flex; align-items: center; gap: 12px; padding: 0 16px; background: #fff; border-top: 1px solid #d5d9e0; }
        footer input { flex: 1; }
        #scrubLabel { min-width: 220px; color: #5b6474; }
        button { font: inherit; }
        #live, #backLive { padding: 3px 12px; border: 1px solid #15924a; color: #15924a; background: #fff; border-radius: 5px; cursor: pointer; }
        #live:disabled { opacity: .4; cursor: default; }
        .error { color: #b71c1c; }
        .why .note { color: #5b6474; background: #f3f5f8; border-left: 3px solid #2e8b57; padding: 4px 8px; margin: 4px 0; }
        #tip { position: fixed; z-index: 5; pointer-events: none; padding: 3px 8px; background: #1f2430; color: #fff; border-radius: 4px; font-size: 12px; }
        """#
}
