import FlyingFox
import Foundation
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderPicture
import ResponderProtocol
import Synchronization

/// The page's side of a followed session: the mirror of the world, the last events with the world as each
/// left it (for the scrubber), and the open pages to tell. Written by the feed thread, read by the web
/// handlers; one Mutex guards it all.
package final class Inspector: Sendable {
    package struct Entry {
        var seq: Int
        var message: JSON
        /// The world after this event; nil once dropped to bound memory (the page then cannot scrub to it).
        var tree: JSONHolder?
        /// Which tree `tree` is (consecutive entries share one) and its size, to bound what is kept.
        var generation: Int
        var nodes: Int
        var firstResponders: [String: String]
        var overlay: Overlay?
    }

    package let capacity: Int
    private let state: Mutex<State>

    package init(session: String, capacity: Int) {
        self.capacity = capacity
        state = Mutex(State(session: session, capacity: capacity))
    }

    /// The session followed: the one named at start, or the copy the page last opened under another profile.
    package var session: String { state.withLock { $0.session } }
    /// Its dispatch model (`uikit`, `android`), from its snapshot; nil until the snapshot came.
    package var profile: String? { state.withLock { $0.profile } }

    /// Follows `session` from now on: the page is told at once, and the feed joins it from a fresh snapshot.
    package func follow(_ session: String) {
        state.withLock { st in
            st.session = session
            st.profile = nil
            st.history.removeAll()
            st.lastStatus = "switching to \(session)…"
            for m in [st.helloMessage(), st.statusMessage(), st.historyMessage()] { st.sendToPages(m) }
        }
    }

    // MARK: - From the feed thread

    /// An item of the feed following `session`; dropped when the page has switched to another session since.
    package func receive(_ item: SessionFollower.Item, from session: String, connection: ResponderConnection) {
        guard session == self.session else { return }
        receive(item, connection: connection)
    }

    private func receive(_ item: SessionFollower.Item, connection: ResponderConnection) {
        let session = self.session
        switch item {
        case .snapshot(let s):
            state.withLock { st in
                st.profile = s.profile.name
                do { try st.mirror.load(tree: s.tree, detached: s.detached) } catch {
                    st.lastStatus = "cannot mirror the snapshot: \(error)"
                }
                st.setWorld(
                    tree: s.tree,
                    firstResponders: Dictionary(
                        s.firstResponders.entries.compactMap { e in e.responder.map { (e.window, $0) } },
                        uniquingKeysWith: { $1 }))
                st.seq = s.seq
                st.history.removeAll()
                st.lastStatus = "following \(session) from seq \(s.seq)"
                for m in [st.helloMessage(), st.statusMessage(), st.worldMessage(live: true), st.historyMessage()] {
                    st.sendToPages(m)
                }
            }
        case .event(let e):
            event(e, connection: connection)
        case .recovered(let after, let through, let count):
            status(
                "recovered \(count) event\(count == 1 ? "" : "s") (\(after + 1)…\(through)) from the engine's replay ring"
            )
        case .system(let e):
            if e.topic == "$sys/sessions", e.body["session"]?.stringValue == session,
                e.body["action"]?.stringValue == "deleted"
            {
                status("session \(session) was deleted")
            }
        }
    }

    private func event(_ e: EngineEvent, connection: ResponderConnection) {
        let session = self.session
        let body = e.body
        let stream = e.stream ?? "?"
        if stream == "tree" {
            let replayed = state.withLock { (try? $0.mirror.apply(event: body)) != nil }
            if !replayed {
                // A change this client cannot replay (a newer engine's field): take the engine's tree instead,
                // asked for outside the lock.
                let fresh = try? connection.call("tree.get", ["session": .string(session)])
                state.withLock { st in if let t = fresh?["tree"] { try? st.mirror.load(tree: t, detached: nil) } }
            }
        }
        state.withLock { st in
            var overlay: Overlay?
            var worldChanged = false
            switch stream {
            case "tree":
                st.setWorld(tree: st.mirror.tree, firstResponders: st.firstResponders)
                worldChanged = true
            case "focus":
                if let window = body["change"]?["window"]?.stringValue {
                    st.firstResponders[window] = body["change"]?["to"]?.stringValue
                    worldChanged = true
                }
            case "trace":
                let trace = body["trace"] ?? .null
                if trace["kind"]?.stringValue == "touch", st.profile == "android" {
                    overlay = AndroidOverlay.touch(trace: trace, point: Self.requestPoint(body))
                } else if trace["kind"]?.stringValue == "touch" {
                    overlay = OverlayReplies.touch(trace: trace, point: Self.requestPoint(body))
                } else {
                    overlay = Overlay(notes: TraceLines.lines(trace: trace))
                }
                overlay?.title =
                    "#\(e.seq ?? 0) \(trace["kind"]?.stringValue ?? "trace") by \(body["cause"]?["client"]?.stringValue ?? "?")"
            default:
                break
            }
            st.seq = e.seq ?? st.seq
            let seq = st.seq
            let message: JSON = [
                "type": "event", "seq": JSON(seq), "stream": .string(stream),
                "client": JSON(body["cause"]?["client"]?.stringValue), "summary": .string(EventFormatter.summary(body)),
                "receivedAt": .number((Date().timeIntervalSince1970 * 1000).rounded())
            ]
            st.history.append(
                Entry(
                    seq: seq, message: message, tree: st.tree, generation: st.generation, nodes: st.scene.nodes.count,
                    firstResponders: st.firstResponders, overlay: overlay))
            st.trimHistory()
            var out = [message]
            if worldChanged { out.append(st.worldMessage(live: true)) }
            if let overlay { out.append(st.overlayMessage(overlay, source: "event", seq: seq, scene: st.scene)) }
            // Sent under the lock: a page attaching meanwhile gets this event either in its history or after
            // it, never before it (its history would then wipe the event off the page).
            out.forEach { st.sendToPages($0) }
        }
    }

    /// The screen point of a dispatching request (13.3 `request`): event.tap's point, or event.touch's first.
    package static func requestPoint(_ body: JSON) -> Point? {
        let params = body["request"]?["params"]
        let raw = params?["point"] ?? params?["touches"]?.arrayValue?.first?["point"]
        guard let a = raw?.arrayValue, a.count == 2, let x = a[0].doubleValue, let y = a[1].doubleValue else {
            return nil
        }
        return Point(x, y)
    }

    package func status(_ text: String) {
        state.withLock { st in
            st.lastStatus = text
            st.sendToPages(st.statusMessage())
        }
    }

    // MARK: - From the web handlers

    /// A new page: what it shows first.
    package func attach(_ page: AsyncStream<WSMessage>.Continuation) -> UUID {
        let id = UUID()
        state.withLock { st in
            st.pages[id] = page
            for m in [st.helloMessage(), st.statusMessage(), st.worldMessage(live: true), st.historyMessage()] {
                page.yield(.text(JSONCodec.encodeString(m)))
            }
        }
        return id
    }

    package func detach(_ id: UUID) {
        state.withLock { $0.pages[id] = nil }
    }

    /// The world as it was after event `seq` (nil: now), with that event's overlay.
    package func scrub(to target: Int?) -> [JSON] {
        state.withLock { st in
            guard let target else { return [st.worldMessage(live: true), ["type": "overlay", "clear": true]] }
            guard let entry = st.history.last(where: { $0.seq == target }) else {
                return [State.error("event #\(target) is no longer held")]
            }
            guard let t = entry.tree else {
                return [State.error("the world after #\(target) is no longer held (large worlds keep fewer)")]
            }
            let past = Scene(tree: t.value)
            var out = [
                st.worldMessage(
                    scene: past, tree: t.value, generation: entry.generation, firstResponders: entry.firstResponders,
                    live: false, at: target)
            ]
            out.append(
                entry.overlay.map { st.overlayMessage($0, source: "event", seq: target, scene: past) } ?? [
                    "type": "overlay", "clear": true
                ])
            return out
        }
    }

    /// An overlay drawn on the current world.
    package func overlayMessage(_ overlay: Overlay, source: String, seq: Int? = nil) -> JSON {
        state.withLock { st in st.overlayMessage(overlay, source: source, seq: seq, scene: st.scene) }
    }

    /// The why panel of `view` (WhyPanel), its names and picture point read from the current world.
    package func whyMessage(_ answer: WhyNotAnswer, raw: JSON, view: String) -> JSON {
        state.withLock { st in WhyPanel.message(answer, raw: raw, view: view, scene: st.scene) }
    }

    /// A node's fields (its children counted, not listed) from the world shown.
    package func node(_ id: String) -> JSON? {
        let root = state.withLock { $0.tree.value }
        var stack = [root]
        while let n = stack.popLast() {
            if n["id"]?.stringValue == id {
                let children = n["children"]?.arrayValue ?? []
                var fields = (n.objectMembers ?? []).filter { $0.key != "children" }
                fields.append(("children", .array(children.map { $0["id"] ?? .null })))
                return .object(fields)
            }
            stack.append(contentsOf: n["children"]?.arrayValue ?? [])
        }
        return nil
    }
}

/// What the Mutex guards, and the messages built from it (under the lock).
private struct State {
    var session: String
    var profile: String?
    let capacity: Int
    var mirror = WorldMirror()
    var tree = JSONHolder(.null)
    var generation = 0
    var scene = Scene(tree: .null)
    var firstResponders: [String: String] = [:]
    var seq = 0
    var history: [Inspector.Entry] = []
    var pages: [UUID: AsyncStream<WSMessage>.Continuation] = [:]
    var lastStatus = "connecting to the engine…"
    /// Trees kept for the scrubber, counted in nodes: past this, the oldest entries lose theirs.
    let keptNodesLimit = 300_000

    init(session: String, capacity: Int) {
        self.session = session
        self.capacity = capacity
    }

    /// Keeps `capacity` entries, and trees for at most `keptNodesLimit` nodes in all (a tree shared by
    /// consecutive entries counts once).
    mutating func trimHistory() {
        if history.count > capacity { history.removeFirst(history.count - capacity) }
        var nodes = 0
        var last = -1
        for i in history.indices.reversed() where history[i].tree != nil {
            if history[i].generation != last { nodes += history[i].nodes }
            last = history[i].generation
            if nodes > keptNodesLimit { history[i].tree = nil }
        }
    }

    mutating func setWorld(tree json: JSON, firstResponders fr: [String: String]) {
        tree = JSONHolder(json)
        generation += 1
        scene = Scene(tree: json)
        firstResponders = fr
    }

    // MARK: - Messages

    func helloMessage() -> JSON {
        ["type": "hello", "session": .string(session), "profile": JSON(profile), "capacity": JSON(capacity)]
    }
    func statusMessage() -> JSON { ["type": "status", "text": .string(lastStatus), "seq": JSON(seq)] }
    func historyMessage() -> JSON { ["type": "history", "events": .array(history.map(\.message))] }
    static func error(_ text: String) -> JSON { ["type": "error", "message": .string(text)] }

    func worldMessage(live: Bool) -> JSON {
        worldMessage(
            scene: scene, tree: tree.value, generation: generation, firstResponders: firstResponders, live: live,
            at: seq)
    }

    /// `generation` tells the page whether the tree changed (a focus change redraws the same tree), so that
    /// what it drew on the old geometry is asked again.
    func worldMessage(
        scene: Scene, tree: JSON, generation: Int, firstResponders: [String: String], live: Bool, at: Int
    ) -> JSON {
        let selection = try! Selection(scene: scene, options: PictureOptions())  // no window or subtree named: cannot fail
        let svg = WorldSVG(scene: scene, selection: selection, firstResponders: firstResponders, tooltips: false)
            .render()
        let firsts = Set(firstResponders.values)
        let words = OutlineWords.of(tree)
        // [id, kind, name, depth, flags, first responder, class, words]: the last two for the page's search
        // and its rule for system views.
        let outline: [JSON] = scene.nodes.map { n in
            [
                .string(n.id), .string(n.kind), .string(n.name), JSON(n.depth),
                .string(n.flags.joined(separator: ", ")), .bool(firsts.contains(n.id)), .string(n.className),
                .string(words[n.id] ?? "")
            ]
        }
        let panels: [JSON] = scene.windows.map { p in
            [
                "id": .string(scene.nodes[p.node].id), "x": .number(p.origin.x), "y": .number(p.origin.y),
                "w": .number(p.screen.width),
                "h": .number(p.screen.height), "sx": .number(p.screen.x), "sy": .number(p.screen.y)
            ]
        }
        return [
            "type": "world", "live": .bool(live), "seq": JSON(at), "generation": JSON(generation),
            "svg": .string(svg), "width": .number(scene.size.x),
            "height": .number(scene.size.y), "outline": .array(outline), "panels": .array(panels),
            "drawn": JSON(selection.drawnCount), "collapsed": .number(Double(selection.collapsed.values.reduce(0, +))),
            "firstResponders": .object(firstResponders.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        ]
    }

    func overlayMessage(_ overlay: Overlay, source: String, seq: Int?, scene: Scene) -> JSON {
        let crop = Rect(0, 0, scene.size.x, scene.size.y)
        let svg = OverlaySVG(scene: scene, crop: crop, overlay: overlay, firstResponders: firstResponders).render()
        let lines: [JSON] = Legend(overlay: overlay, label: scene.label).lines.map {
            ["style": .string($0.style.rawValue), "text": .string($0.text), "node": JSON($0.node)]
        }
        return [
            "type": "overlay", "source": .string(source), "seq": seq.map { .number(Double($0)) } ?? .null,
            "title": JSON(overlay.title),
            "svg": .string(svg), "lines": .array(lines),
            "view": JSON(overlay.hit?.view),
            "hit": overlay.hit.map { ["x": .number($0.point.x), "y": .number($0.point.y)] } ?? .null
        ]
    }

    /// To every page, in the order of the feed; the lock is held (yielding to a page's stream never blocks).
    func sendToPages(_ message: JSON) {
        let text = JSONCodec.encodeString(message)
        for page in pages.values { page.yield(.text(text)) }
    }
}
