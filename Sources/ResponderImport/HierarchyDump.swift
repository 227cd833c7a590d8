import Foundation
import ResponderJSON
import ResponderProtocol

/// Reads lldb hierarchy dumps into a world (the `tree` of tree.load): `recursiveDescription` lines (views) and
/// `_printHierarchy` lines (view controllers). Each line is classified by its content, so one file may hold
/// either kind or both. Node ids are the addresses as printed; `class` is the printed class. What lldb wraps
/// around a dump, and the line endings, are DumpText's; the parts of a view line are ViewLineText's.
package struct HierarchyDump {
    /// A line that could not be read (or a value in it): reported with its place, skipped.
    package struct Problem {
        package var file: String
        package var line: Int
        package var message: String
        /// The world built without this line is wrong, not just smaller (a line that had children was lost):
        /// the import refuses it unless the user accepts a partial world.
        package var breaksTheWorld = false
        package var text: String { "\(file):\(line): \(message)" }
    }

    package final class ViewLine {
        package var id: String
        package var className: String
        var kind: NodeKind = .view
        var members: [(key: String, value: JSON)] = []
        var annotations: [(String, String)] = []
        var children: [ViewLine] = []
        weak var parent: ViewLine?
        /// Read from the line, settled into `members` once the whole line is read.
        var frame: [Double]?
        var frameText = ""
        var transform: [Double]?
        var baseClass: String?
        var contentSize: (size: [Double], text: String)?
        init(id: String, className: String) {
            self.id = id
            self.className = className
        }
    }

    package final class ControllerLine {
        var id: String
        var className: String
        var viewID: String?
        var viewClass: String?
        var state: String?
        var presented = false
        var parent: ControllerLine?
        var line: Int
        var file: String
        init(id: String, className: String, line: Int, file: String) {
            self.id = id
            self.className = className
            self.line = line
            self.file = file
        }
    }

    package private(set) var roots: [ViewLine] = []
    package private(set) var controllers: [ControllerLine] = []
    package private(set) var problems: [Problem] = []
    /// What was read but had to be assumed (a rotated view's bounds): said, not refused, even with --strict.
    package internal(set) var notes: [Problem] = []
    var viewsByID: [String: ViewLine] = [:]
    /// The open views by depth; an entry without a view is a line that could not be read, which still holds
    /// its place so that the lines nested in it are known to have lost their parent.
    private var viewStack: [(depth: Int, view: ViewLine?, line: Int)] = []
    private var controllerStack: [(depth: Int, controller: ControllerLine)] = []
    /// The last line of the current file that could not be read, so a view nested under it can name it.
    private var lastUnread: Int?
    private var reportedLost: Set<Int> = []
    package private(set) var lineCount = 0
    /// Recognizers and control targets printed beside the hierarchy.
    package private(set) var objects = ObjectLines()
    /// What the dump does not say about recognizers and targets, each a sentence the import prints.
    package internal(set) var unknowns: [String] = []

    package init() {}

    /// Reads one file's text; `progress` is called every 50,000 lines.
    package mutating func read(_ text: String, file: String, progress: ((Int) -> Void)? = nil) {
        viewStack = []
        controllerStack = []
        lastUnread = nil
        var number = 0
        for raw in DumpText.lines(text) {
            number += 1
            lineCount += 1
            if lineCount % 50_000 == 0 { progress?(lineCount) }
            switch DumpText.piece(raw) {
            case .wrapper: continue
            case .line(let line): readText(line, number: number, file: file)
            case .escaped(let inner, let complete):
                // One file line holding the whole dump: its lines are reported under that line's number.
                for line in DumpText.lines(inner) { readText(line, number: number, file: file) }
                if !complete { problem(file, number, "the quoted dump has no closing quote: lldb cut it short") }
            }
        }
        if let (line, message) = objects.endOfFile() { problem(file, line, message) }
    }

    private mutating func readText(_ line: Substring, number: Int, file: String) {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        if trimmed.isEmpty { return }
        // A command names whose lines follow (`po [0x… allTargets]`); lldb's note on `command source` is no line.
        if trimmed.hasPrefix("(lldb)") { return objects.command(trimmed.dropFirst(6)) }
        if trimmed.hasPrefix(Self.marker) { return objects.command(trimmed.dropFirst(Self.marker.count)) }
        if trimmed.hasPrefix("Executing commands in ") { return }
        switch objects.read(trimmed, number: number, file: file) {
        case .read: return
        case .problem(let message): return problem(file, number, message)
        case .notMine: readLine(String(line), number: number, file: file)
        }
    }

    /// The line the command file (tools/lldb/responder-dump.lldb) prints before each section: the lldb command
    /// that prints the lines after it.
    package static let marker = "responder-dump:"

    mutating func problem(_ file: String, _ line: Int, _ message: String, breaksTheWorld: Bool = false) {
        problems.append(Problem(file: file, line: line, message: message, breaksTheWorld: breaksTheWorld))
    }

    /// Splits `   |    | <…>` / `   + <…>` into the markers before the `<` and the rest.
    private static func prefix(_ line: String) -> (markers: [Character], rest: Substring)? {
        guard let lt = line.firstIndex(of: "<") else { return nil }
        let head = line[..<lt]
        guard head.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "|" || $0 == "+" }) else { return nil }
        return (head.filter { $0 == "|" || $0 == "+" }, line[lt...])
    }

    private mutating func readLine(_ line: String, number: Int, file: String) {
        guard let (markers, rest) = Self.prefix(line) else {
            lastUnread = number
            return problem(file, number, "not a hierarchy line: \(Self.excerpt(line))")
        }
        if rest.contains(">, state:")
            || rest.range(of: #"^<[^;:<>]+ 0x[0-9A-Fa-f]+>,"#, options: .regularExpression) != nil
        {
            readController(rest, markers: markers, number: number, file: file)
        } else {
            readView(rest, depth: markers.count, number: number, file: file)
        }
    }

    package static func excerpt(_ s: some StringProtocol) -> String {
        let t = s.trimmingCharacters(in: .whitespaces)
        return t.count > 60 ? "\"\(t.prefix(60))…\"" : "\"\(t)\""
    }

    // MARK: views

    private mutating func unreadView(_ file: String, _ number: Int, _ depth: Int, _ message: String) {
        lastUnread = number
        while let top = viewStack.last, top.depth >= depth { viewStack.removeLast() }
        viewStack.append((depth, nil, number))
        problem(file, number, message)
    }

    private mutating func readView(_ text: Substring, depth: Int, number: Int, file: String) {
        guard let parsed = ViewLineText(text) else {
            return unreadView(file, number, depth, "unreadable view line (no closing >): \(Self.excerpt(text))")
        }
        let head = parsed.head
        guard let colon = head.range(of: ": 0x") else {
            return unreadView(
                file, number, depth, "unreadable view line (expected <Class: 0xADDRESS; …>): \(Self.excerpt(text))")
        }
        let className = head[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        let address = "0x" + head[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !className.isEmpty, !className.contains(" "), address.count > 2,
            address.dropFirst(2).allSatisfy(\.isHexDigit)
        else {
            return unreadView(
                file, number, depth, "unreadable view line (expected <Class: 0xADDRESS; …>): \(Self.excerpt(text))")
        }
        guard viewsByID[address] == nil else {
            return problem(file, number, "duplicate address \(address): line skipped")
        }
        let view = ViewLine(id: address, className: className)
        for item in parsed.items {
            guard let (key, value) = Self.keyValue(item) else {
                view.annotations.append((item, ""))
                continue
            }
            if let message = Self.apply(key: key, value: value, to: view) {
                problem(file, number, "\(key): \(message)")
            }
        }
        view.annotations += ViewLineText.trailingAnnotations(parsed.trailing)
        if let note = Self.settle(view, depth: depth) { notes.append(Problem(file: file, line: number, message: note)) }
        // Parent: the nearest earlier line with less depth. When that line could not be read, or is more than
        // one level up (a line in between is not there at all), the view lands in the wrong coordinate space.
        while let top = viewStack.last, top.depth >= depth { viewStack.removeLast() }
        let unreadParent = viewStack.last.flatMap { $0.view == nil ? $0.line : nil }
        while let top = viewStack.last, top.view == nil { viewStack.removeLast() }
        let parentDepth = viewStack.last?.depth ?? -1
        if depth > 0, unreadParent != nil || parentDepth < depth - 1 {
            let lostLine = unreadParent ?? lastUnread
            let lost = lostLine.map { "line \($0)" } ?? "a line that is not in the dump"
            if reportedLost.insert(lostLine ?? -number).inserted {
                let placed = viewStack.last?.view.map { "under \($0.id)" } ?? "at the top"
                problem(
                    file, number,
                    "\(address) is nested in a view that was not read (\(lost)): it is placed \(placed), where its frame means something else",
                    breaksTheWorld: true)
            }
        }
        if depth > 0, let parent = viewStack.last?.view {
            view.parent = parent
            parent.children.append(view)
        } else {
            roots.append(view)
        }
        viewStack.append((depth, view, number))
        viewsByID[address] = view
    }

    /// `key = value` or `key: value` (scroll views print `contentOffset: {0, 0}`).
    package static func keyValue(_ item: String) -> (String, String)? {
        let eq = item.range(of: " = ")
        let co = item.range(of: ": ")
        let sep: Range<String.Index>
        switch (eq, co) {
        case let (e?, c?): sep = e.lowerBound < c.lowerBound ? e : c
        case let (e?, nil): sep = e
        case let (nil, c?): sep = c
        default: return nil
        }
        let key = item[..<sep.lowerBound].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, !key.contains(" ") else { return nil }
        return (key, item[sep.upperBound...].trimmingCharacters(in: .whitespaces))
    }

    package static func numbers(_ s: String, open: Character, close: Character) -> [Double]? {
        guard s.first == open, s.last == close else { return nil }
        let inner = s.dropFirst().dropLast()
        let items = inner.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " })
        let values = items.compactMap { Double($0) }
        guard values.count == items.count, values.allSatisfy(\.isFinite) else { return nil }
        return values
    }

    package static func yesNo(_ s: String) -> Bool? {
        switch s {
        case "YES", "true", "1": return true
        case "NO", "false", "0": return false
        default: return nil
        }
    }

    /// Sets a known key on the view; unknown keys become annotations. Returns a message when a known key's
    /// value cannot be read (the raw value is then kept as an annotation).
    package static func apply(key: String, value: String, to view: ViewLine) -> String? {
        func set(_ name: String, _ v: JSON) { view.members.append((name, v)) }
        func bad(_ expected: String) -> String {
            view.annotations.append((key, value))
            return "cannot read \(excerpt(value)) (expected \(expected)); kept as an annotation"
        }
        switch key {
        case "frame":
            guard let f = numbers(value, open: "(", close: ")"), f.count == 4 else { return bad("(x y; w h)") }
            guard f[2] >= 0, f[3] >= 0 else { return bad("a non-negative width and height") }
            view.frame = f
            view.frameText = value
        case "hidden", "clipsToBounds", "userInteractionEnabled", "multipleTouchEnabled", "exclusiveTouch", "enabled":
            guard let b = yesNo(value) else { return bad("YES or NO") }
            set(key, .bool(b))
        case "alpha":
            guard let a = Double(value), a.isFinite else { return bad("a number") }
            set("alpha", JSON(min(1, max(0, a))))
        case "transform":
            guard let t = numbers(value, open: "[", close: "]"), t.count == 6 else {
                return bad("[a, b, c, d, tx, ty]")
            }
            view.transform = t == [1, 0, 0, 1, 0, 0] ? nil : t
        case "baseClass":
            view.baseClass = value
        case "contentOffset", "bounds.origin":
            guard let p = numbers(value, open: "{", close: "}"), p.count == 2 else { return bad("{x, y}") }
            set("boundsOrigin", .array(p.map { JSON($0) }))
        case "contentSize":
            guard let p = numbers(value, open: "{", close: "}"), p.count == 2, p.allSatisfy({ $0 >= 0 }) else {
                return bad("{width, height}, not negative")
            }
            view.contentSize = (p, value)
        case "tag":
            guard Int(value) != nil else { return bad("an integer") }
            view.annotations.append(("tag", value))
        case "text":
            var t = Substring(value)
            if t.count >= 2, t.first == "'", t.last == "'" { t = t.dropFirst().dropLast() }
            view.annotations.append(("text", String(t)))
        case "gestureRecognizers":
            // The dump shows only that there are some (an NSArray's address), not their kinds.
            view.annotations.append(("gestureRecognizers", value))
        default:
            view.annotations.append((key, value))
        }
        return nil
    }

    /// Settles what the whole line says: the kind (from the class, or the UIKit class `baseClass` names), the
    /// K1 default, and the frame of a transformed view. Returns a note when something had to be assumed.
    package static func settle(_ view: ViewLine, depth: Int) -> String? {
        func set(_ name: String, _ v: JSON) { view.members.append((name, v)) }
        view.kind = kind(view.className)
        var resolved = UIKitClass(rawValue: view.className)
        if let base = view.baseClass {
            // `baseClass = UIButton` on `MyApp.ThemeChip`: the chip is a button in every K rule. A base the engine
            // does not know (UITableViewCell, UIStackView) is kept as a note and still names the kind.
            let known = UIKitClass(rawValue: base)
            if resolved == nil, let known, known.kind.isView, known.kind != .window || depth == 0 {
                resolved = known
                view.kind = known.kind
                set("baseClass", .string(base))
            } else {
                view.annotations.append(("baseClass", base))
                if resolved == nil, view.kind == .view, kind(base) != .window { view.kind = kind(base) }
            }
        }
        if view.kind == .window && depth > 0 { view.kind = .view }  // a window only at the top
        // K1: `-[UIView description]` prints `userInteractionEnabled = NO` whenever it is NO and nothing when it is
        // YES, whatever the class (a label or image view left at UIKit's default shows the NO). A line without the
        // key is therefore enabled, and a label or image view must say so, or the engine's K1 default would turn
        // it off.
        if let resolved, !resolved.defaultUserInteractionEnabled,
            !view.members.contains(where: { $0.key == "userInteractionEnabled" })
        {
            set("userInteractionEnabled", .bool(true))
        }
        // K8: a scroll view's pan scrolls only over its content, so its size is a field of the scroll classes;
        // on any other class it is a note.
        if let content = view.contentSize {
            if resolved?.isScrollView == true {
                set("contentSize", .array(content.size.map { JSON($0) }))
            } else {
                view.annotations.append(("contentSize", content.text))
            }
        }
        var note: String?
        if let t = view.transform {
            set("transform", .array(t.map { JSON($0) }))
            if let box = view.frame, let derived = TransformedFrame.derive(box: box, transform: t) {
                view.frame = derived.frame
                view.annotations.append(("printedFrame", view.frameText))
                if let assumption = derived.assumption {
                    view.annotations.append(("frameAssumption", assumption))
                    note = "frame: \(assumption)"
                }
            }
        }
        if let f = view.frame { set("frame", .array(f.map { JSON($0) })) }
        return note
    }

    // MARK: the world

    /// The world: the application holding the dumped windows (a dump whose top view is not a window is put in
    /// a window of its size), the controllers inserted above their root views, presented ones under the window.
    package mutating func world() -> JSON {
        var windows: [ViewLine] = []
        var used = Set(viewsByID.keys)
        func fresh(_ base: String) -> String {
            var id = base, n = 1
            while used.contains(id) { n += 1; id = "\(base)\(n)" }
            used.insert(id)
            return id
        }
        func windowOf(_ node: ViewLine) -> ViewLine? {
            var n: ViewLine? = node
            while let c = n, c.kind != .window { n = c.parent }
            return n
        }
        for root in roots {
            if root.kind == .window { windows.append(root); continue }
            let window = ViewLine(id: fresh("window"), className: "UIWindow")
            window.kind = .window
            var size = [0.0, 0.0]
            if let f = root.members.first(where: { $0.key == "frame" })?.value.arrayValue?.compactMap(\.doubleValue),
                f.count == 4
            {
                size = [f[0] + f[2], f[1] + f[3]]
            }
            window.members = [("frame", .array([JSON(0), JSON(0), JSON(size[0]), JSON(size[1])]))]
            window.annotations = [("imported", "a window added to hold the dumped views")]
            root.parent = window
            window.children = [root]
            windows.append(window)
        }
        var controllerNodes: [String: ViewLine] = [:]
        for c in controllers {
            guard viewsByID[c.id] == nil else {
                problem(c.file, c.line, "address \(c.id) is also a view's: controller skipped")
                continue
            }
            let node = ViewLine(id: c.id, className: c.className)
            node.kind = .viewController
            if let state = c.state { node.annotations.append(("state", state)) }
            var view = c.viewID.flatMap { viewsByID[$0] }
            if view == nil {
                // Not in the views dump (or not loaded): a placeholder root view, so the controller can be placed.
                let placeholder = ViewLine(id: c.viewID ?? fresh(c.id + ".view"), className: c.viewClass ?? "UIView")
                placeholder.annotations.append(("imported", "root view not in the views dump"))
                used.insert(placeholder.id)
                viewsByID[placeholder.id] = placeholder
                view = placeholder
            }
            guard let view, view.kind != .window else {
                problem(c.file, c.line, "the view of \(c.id) is a window: controller skipped")
                continue
            }
            let presenter = c.presented ? c.parent.flatMap { controllerNodes[$0.id] } : nil
            if c.presented, let presenter {
                node.members.append(("presentedBy", .string(presenter.id)))
                // The views dump holds every view the app has, a sheet's UIDimmingView included when one dims:
                // a style that adds no dimming view of its own (K17) keeps the imported hits the app's.
                node.members.append(("modalPresentationStyle", .string("overFullScreen")))
            }
            let window: ViewLine? =
                windowOf(view) ?? presenter.flatMap(windowOf) ?? c.parent.flatMap { controllerNodes[$0.id] }.flatMap(
                    windowOf) ?? windows.first
            if c.presented || view.parent == nil {
                // Presented controllers sit under their window (9); so does a root controller whose view is not placed.
                if let p = view.parent { p.children.removeAll { $0 === view } }
                var host: ViewLine? =
                    c.presented ? window : (c.parent.flatMap { controllerNodes[$0.id] }?.children.first ?? window)
                if host == nil {
                    let w = ViewLine(id: fresh("window"), className: "UIWindow")
                    w.kind = .window
                    windows.append(w)
                    host = w
                }
                node.parent = host
                host!.children.append(node)
            } else if let p = view.parent {
                let i = p.children.firstIndex { $0 === view }!
                p.children[i] = node
                node.parent = p
            }
            view.parent = node
            node.children = [view]
            controllerNodes[c.id] = node
        }
        attachObjects(windows)
        if !windows.isEmpty, !windows.contains(where: { w in w.members.contains { $0.key == "key" } }) {
            windows[0].members.append(("key", .bool(true)))
        }
        var unnamed = windows
        while let node = unnamed.popLast() {
            node.annotations.append((NodeDisplayName.key, DisplayName.of(node)))
            unnamed += node.children
        }
        let app = ViewLine(id: "app", className: "UIApplication")
        app.kind = .application
        app.children = windows
        return Self.json(app)
    }

    /// The nested node object, built without recursion (a dump may nest deeply).
    package static func json(_ root: ViewLine) -> JSON {
        func fields(_ n: ViewLine) -> [(key: String, value: JSON)] {
            var m: [(key: String, value: JSON)] = [("id", .string(n.id)), ("kind", .string(n.kind.rawValue))]
            if n.className != n.kind.defaultClassName { m.append(("class", .string(n.className))) }
            var seen = Set<String>()
            for (k, v) in n.members.reversed()
            where n.kind.isView || k == "presentedBy" || k == "handles" || k == "modalPresentationStyle" {
                if seen.insert(k).inserted { m.append((k, v)) }
            }
            m[2...].sort { $0.key < $1.key }
            if !n.annotations.isEmpty {
                var notes: [(key: String, value: JSON)] = []
                var names = Set<String>()
                for (k, v) in n.annotations.reversed() where names.insert(k).inserted { notes.append((k, .string(v))) }
                m.append(("annotations", .object(notes.sorted { $0.key < $1.key })))
            }
            return m
        }
        var stack: [(node: ViewLine, next: Int, built: [JSON])] = [(root, 0, [])]
        while true {
            let top = stack[stack.count - 1]
            if top.next < top.node.children.count {
                stack[stack.count - 1].next += 1
                stack.append((top.node.children[top.next], 0, []))
                continue
            }
            stack.removeLast()
            var members = fields(top.node)
            if !top.built.isEmpty { members.append(("children", .array(top.built))) }
            let value = JSON.object(members)
            if stack.isEmpty { return value }
            stack[stack.count - 1].built.append(value)
        }
    }

    /// The node kind for a printed class (module prefixes kept; subclasses recognised by their name's ending).
    package static func kind(_ className: String) -> NodeKind {
        let bare = className.split(separator: ".").last.map(String.init) ?? className
        if bare.hasSuffix("Window") { return .window }
        if bare.hasSuffix("TextField") { return .textField }
        if bare.hasSuffix("TextView") { return .textView }
        for suffix in ["Button", "Control", "Switch", "Slider", "Stepper", "DatePicker"] where bare.hasSuffix(suffix) {
            return .control
        }
        return .view
    }

    /// Splits at `separator` outside (), [], {}, <> and '…'.
    package static func splitTopLevel(_ s: Substring, separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        for c in s {
            if quoted {
                current.append(c)
                if c == "'" { quoted = false }
                continue
            }
            switch c {
            case "'": quoted = true
            case "(", "[", "{", "<": depth += 1
            case ")", "]", "}", ">": depth = max(0, depth - 1)
            default: break
            }
            if c == separator && depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        return parts
    }

    // MARK: view controllers

    private mutating func readController(_ text: Substring, markers: [Character], number: Int, file: String) {
        // <Class 0xADDRESS>, state: appeared, view: <ViewClass 0xADDRESS>
        let pattern = #"^<([^\s<>]+) (0x[0-9A-Fa-f]+)>(.*)$"#
        guard let m = text.range(of: pattern, options: .regularExpression), m.lowerBound == text.startIndex else {
            return problem(file, number, "unreadable view controller line: \(Self.excerpt(text))")
        }
        let closing = text.firstIndex(of: ">")!
        let head = text[text.index(after: text.startIndex)..<closing].split(separator: " ")
        guard head.count == 2 else {
            return problem(file, number, "unreadable view controller line: \(Self.excerpt(text))")
        }
        let controller = ControllerLine(id: String(head[1]), className: String(head[0]), line: number, file: file)
        let tail = text[text.index(after: closing)...]
        for part in Self.splitTopLevel(tail, separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty, let (key, value) = Self.keyValue(item) else { continue }
            switch key {
            case "state": controller.state = value
            case "view":
                let v = value.trimmingCharacters(in: CharacterSet(charactersIn: "<>")).split(separator: " ")
                if v.count == 2, v[1].hasPrefix("0x") {
                    controller.viewClass = String(v[0])
                    controller.viewID = String(v[1])
                }
            default: break
            }
        }
        if controllers.contains(where: { $0.id == controller.id }) {
            return problem(file, number, "duplicate address \(controller.id): line skipped")
        }
        let depth = markers.count
        controller.presented = markers.last == "+"
        while let top = controllerStack.last, top.depth >= depth { controllerStack.removeLast() }
        if depth > 0 { controller.parent = controllerStack.last?.controller }
        controllerStack.append((depth, controller))
        controllers.append(controller)
    }
}
