import Foundation

/// Gesture recognizers and control targets as lldb prints them, read beside the hierarchy lines.
///
/// - A recognizer's description names its view (`<UITapGestureRecognizer: 0x…; state = Possible; view = <UILabel
///   0x…>; target= <(action=tapped:, target=<MyApp.VC 0x…>)>>`), so its lines are read wherever they are: in
///   `po view.gestureRecognizers` (Objective-C's `<__NSArrayI 0x…>(` … `)`, Swift's `- 0 : <…>` elements, an
///   NSLog'd array's quoted elements), or one recognizer at a time (`Optional(<…>)`). A `must-fail = {` list runs
///   over several lines until its closing `}>`.
/// - `allTargets` (an NSSet: `{(` … `)}`) and `actionsForTarget:forControlEvent:` (an array of selector names) do
///   not say whose they are: the command that printed them does. The `(lldb) po …` line before them, or the
///   `responder-dump: po …` line the command file prints, names the control, the target and the event by
///   address (`po [0x7fa1… allTargets]`, `po [(UIControl *)0x7fa1… actionsForTarget:(id)0x7fa2… forControlEvent:64]`,
///   `$name` variables set with `e id $name = (id)0x…`); printed through a name lldb alone knows (`self.button`)
///   they cannot be attached, and each such section is reported once.
package struct ObjectLines {
    package struct Recognizer {
        package var id: String
        package var className: String
        package var view: String
        package var state: String?
        package var fields: [String: String] = [:]
        package var targets: [(action: String, target: String)] = []
        package var mustFail: [String] = []
        package var file: String
        package var line: Int
    }

    package struct Action {
        package var control: String
        /// nil: a nil-targeted action (NSNull among `allTargets`, `0x0` in the command).
        package var target: String?
        package var event: String
        package var action: String
        package var file: String
        package var line: Int
    }

    enum Section {
        case none
        case recognizers
        case targets(control: String?, command: String)
        case actions(control: String?, target: String??, event: String?, command: String)
    }

    enum Outcome {
        case notMine
        case read
        case problem(String)
    }

    private var section = Section.none
    private var sectionReported = false
    private var variables: [String: String] = [:]
    private var pending: (text: String, line: Int, lines: Int)?
    package private(set) var recognizers: [Recognizer] = []
    package private(set) var actions: [Action] = []
    /// The targets `allTargets` printed per control (nil: NSNull, a nil-targeted action).
    package private(set) var targets: [String: [String?]] = [:]
    /// Views whose recognizers were printed (a recognizer names its view; so does `po [0x… gestureRecognizers]`).
    package private(set) var viewsShown: Set<String> = []
    /// Controls whose targets or actions were printed.
    package private(set) var controlsShown: Set<String> = []
    private var recognizerIDs: Set<String> = []

    /// UIKit's public recognizer classes and the engine's kinds.
    package static let kinds: [String: String] = [
        "UITapGestureRecognizer": "tap", "UILongPressGestureRecognizer": "longPress",
        "UIPanGestureRecognizer": "pan", "UISwipeGestureRecognizer": "swipe",
        "UIPinchGestureRecognizer": "pinch", "UIRotationGestureRecognizer": "rotation"
    ]

    /// The recognizers UIKit gives every scroll view, which the engine models as its built-in pan (K8).
    package static let scrollViewOwn: Set<String> = [
        "UIScrollViewPanGestureRecognizer", "UIScrollViewDelayedTouchesBeganGestureRecognizer"
    ]

    /// UIControl.Event bits and the engine's event names.
    package static let events: [UInt64: String] = [
        1 << 0: "touchDown", 1 << 1: "touchDownRepeat", 1 << 2: "touchDragInside", 1 << 3: "touchDragOutside",
        1 << 4: "touchDragEnter", 1 << 5: "touchDragExit", 1 << 6: "touchUpInside", 1 << 7: "touchUpOutside",
        1 << 8: "touchCancel", 1 << 12: "valueChanged", 1 << 13: "primaryActionTriggered",
        1 << 16: "editingDidBegin", 1 << 17: "editingChanged", 1 << 18: "editingDidEnd", 1 << 19: "editingDidEndOnExit"
    ]

    // MARK: commands

    /// A command line: `(lldb) po …` typed by the user, or `responder-dump: po …` printed by the command file.
    /// It opens the section its output belongs to.
    mutating func command(_ text: Substring) {
        pending = nil
        sectionReported = false
        let cmd = String(text).trimmingCharacters(in: .whitespaces)
        if let (name, address) = Self.variableDefinition(cmd) { variables[name] = address }
        // A command that walks the hierarchy itself (the command file's `for` loops) prints nothing to read.
        if cmd.contains("for (") || cmd.contains("for(") {
            section = .none
            return
        }
        if let r = cmd.range(of: "actionsForTarget") ?? cmd.range(of: "actions(forTarget") {
            let control = lastReference(in: cmd[..<r.lowerBound])
            let rest = cmd[r.upperBound...]
            let eventRange = rest.range(of: "forControlEvent")
            let targetText = eventRange.map { rest[..<$0.lowerBound] } ?? rest
            var target: String?? = nil
            if targetText.contains("nil") || targetText.contains("NSNull") {
                target = .some(nil)
            } else if let t = firstReference(in: targetText) {
                target = .some(Self.isNull(t) ? nil : t)
            }
            let event = eventRange.flatMap { Self.event(in: rest[$0.upperBound...]) }
            section = .actions(control: control, target: target, event: event, command: cmd)
            if let control { controlsShown.insert(control) }
        } else if let r = cmd.range(of: "allTargets") {
            let control = lastReference(in: cmd[..<r.lowerBound])
            section = .targets(control: control, command: cmd)
            if let control {
                controlsShown.insert(control)
                targets[control, default: []] += []
            }
        } else if let r = cmd.range(of: "gestureRecognizers") {
            if let view = lastReference(in: cmd[..<r.lowerBound]) { viewsShown.insert(view) }
            section = .recognizers
        } else {
            section = .none
        }
    }

    /// `e id $b = (id)0x7fa1…`, `expr UIButton *$b = (UIButton *)0x7fa1…`.
    static func variableDefinition(_ cmd: String) -> (String, String)? {
        let pattern = #"\$([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\([^)]*\)\s*)?(0x[0-9A-Fa-f]+)\s*;?\s*$"#
        guard let m = cmd.range(of: pattern, options: .regularExpression) else { return nil }
        let part = cmd[m]
        let name = part.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let hex = part.range(of: #"0x[0-9A-Fa-f]+"#, options: .regularExpression) else { return nil }
        return (String(name), Self.canonical(String(part[hex])))
    }

    /// Addresses as recursiveDescription prints them: `0x` and lower-case hex without leading zeros, so
    /// `0x00007fa1…` in a command names the view printed as `0x7fa1…`.
    static func canonical(_ hex: String) -> String {
        let digits = hex.dropFirst(2).drop { $0 == "0" }.lowercased()
        return "0x" + (digits.isEmpty ? "0" : digits)
    }

    static func isNull(_ address: String) -> Bool { address == "0x0" }

    private func references(in text: Substring) -> [String] {
        var out: [String] = []
        let pattern = #"0x[0-9A-Fa-f]+|\$[A-Za-z_][A-Za-z0-9_]*"#
        var rest = text[...]
        while let r = rest.range(of: pattern, options: .regularExpression) {
            let token = String(rest[r])
            if token.hasPrefix("$") {
                if let a = variables[String(token.dropFirst())] { out.append(a) }
            } else {
                out.append(Self.canonical(token))
            }
            rest = rest[r.upperBound...]
        }
        return out
    }

    private func lastReference(in text: Substring) -> String? { references(in: text).last }
    private func firstReference(in text: Substring) -> String? { references(in: text).first }

    /// `64`, `0x40`, `UIControlEventTouchUpInside`, `.touchUpInside`: one event the engine knows.
    static func event(in text: Substring) -> String? {
        let t = text.drop { $0 == ":" || $0 == " " || $0 == "(" }
        let token = t.prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
        var raw: UInt64?
        if token.hasPrefix("0x") { raw = UInt64(token.dropFirst(2), radix: 16) } else { raw = UInt64(token) }
        if let raw { return events[raw] }
        var name = String(token.split(separator: ".").last ?? "")
        if name.hasPrefix("UIControlEvent") { name = String(name.dropFirst("UIControlEvent".count)) }
        guard let first = name.first else { return nil }
        let camel = first.lowercased() + name.dropFirst()
        return events.values.contains(camel) ? camel : nil
    }

    // MARK: output lines

    /// Reads one line (leading blanks removed) when it is a recognizer, a target, an action or the wrapper lldb
    /// prints around them; `.notMine` leaves it to the hierarchy reader.
    mutating func read(_ line: Substring, number: Int, file: String) -> Outcome {
        if var p = pending {
            p.text += "\n" + line
            p.lines += 1
            if Self.depth(p.text) <= 0 {
                pending = nil
                return finish(p.text, number: p.line, file: file)
            }
            if p.lines > 500 {
                pending = nil
                return .problem("a recognizer's description (line \(p.line)) does not close within 500 lines: skipped")
            }
            pending = p
            return .read
        }
        let text = Self.element(line)
        if text.isEmpty { return .read }
        if Self.isWrapper(text) { return .read }
        if Self.looksLikeRecognizer(text) {
            if Self.depth(text) > 0 {
                pending = (String(text), number, 1)
                return .read
            }
            return finish(String(text), number: number, file: file)
        }
        switch section {
        case .none, .recognizers:
            section = .none
            return .notMine
        case .targets(let control, let command):
            guard let target = Self.targetObject(text) else {
                section = .none
                return .notMine
            }
            guard let control else { return unattached(command, "its targets", Self.noControl) }
            let object: String? = Self.isNull(target) ? nil : target
            if !(targets[control] ?? []).contains(object) { targets[control, default: []].append(object) }
            return .read
        case .actions(let control, let target, let event, let command):
            guard text.range(of: #"^[A-Za-z_][A-Za-z0-9_:]*$"#, options: .regularExpression) != nil else {
                section = .none
                return .notMine
            }
            guard let control else { return unattached(command, "its actions", Self.noControl) }
            guard let target else { return unattached(command, "its actions", "it names no target by address") }
            guard let event else {
                return unattached(command, "its actions", "it names no single control event the engine knows")
            }
            actions.append(
                Action(control: control, target: target, event: event, action: String(text), file: file, line: number))
            return .read
        }
    }

    static let noControl =
        "it names the control by no address lldb printed (print it with the address: po [0x… allTargets])"

    private mutating func unattached(_ command: String, _ what: String, _ why: String) -> Outcome {
        if sectionReported { return .read }
        sectionReported = true
        return .problem("`\(command)`: \(what) cannot be attached: \(why)")
    }

    /// The text of a printed element: Swift's `- 0 : ` / `▿ 0 : ` / `- value : `, `Optional(…)`, `AnyHashable(…)`,
    /// NSLog's quotes and an array's separating comma removed.
    static func element(_ line: Substring) -> Substring {
        var t = line.drop { $0 == " " || $0 == "\t" }
        // Most lines are hierarchy lines: the patterns below run only where they can match.
        if t.first == "-" || t.first == "▿",
            let r = t.range(of: #"^[-▿] +([0-9]+|value|some) : "#, options: .regularExpression)
        {
            t = t[r.upperBound...]
        }
        while t.last == " " || t.last == "\t" { t = t.dropLast() }
        if t.last == "," { t = t.dropLast() }
        if t.count >= 2, t.first == "\"", t.last == "\"" { t = t.dropFirst().dropLast() }
        for wrapper in ["Optional(", "AnyHashable("] where t.hasPrefix(wrapper) && t.last == ")" {
            t = t.dropFirst(wrapper.count).dropLast()
        }
        return t
    }

    /// What lldb prints around a collection: `<__NSArrayI 0x…>(`, `(`, `)`, `{(`, `)}`, `0 elements`, `nil`.
    static func isWrapper(_ t: Substring) -> Bool {
        if ["(", ")", "{(", ")}", "{()}", "()", "nil", "<nil>", "Optional<Any>"].contains(t) { return true }
        if t.hasPrefix("<__NS"),
            t.range(of: #"^<__NS[A-Za-z0-9]+ 0x[0-9A-Fa-f]+>\{?\(\)?\}?$"#, options: .regularExpression) != nil
        {
            return true
        }
        return t.hasSuffix("element") || t.hasSuffix("elements")
            ? t.range(of: #"^(- )?[0-9]+ elements?$"#, options: .regularExpression) != nil : false
    }

    /// `<Class: 0xADDRESS; state = …` (iOS 13 and later print `id = N; ` and a name in parentheses before it).
    static func looksLikeRecognizer(_ t: Substring) -> Bool {
        guard t.first == "<", t.contains("; state = ") || t.contains("; id = ") else { return false }
        return t.range(
            of: #"^<[^\s:<>;]+: 0x[0-9A-Fa-f]+( \([^)]*\))?; (id = [0-9]+; )?state = "#, options: .regularExpression)
            != nil
    }

    /// `<MyApp.VC: 0x…>`, `<MyApp.VC 0x…>`, or NSNull's `<null>` (returned as `0x0`).
    static func targetObject(_ t: Substring) -> String? {
        if t == "<null>" || t == "<NSNull>" || t == "NSNull" { return "0x0" }
        guard t.range(of: #"^<[^\s<>;]+:? 0x[0-9A-Fa-f]+>$"#, options: .regularExpression) != nil,
            let r = t.range(of: #"0x[0-9A-Fa-f]+"#, options: .regularExpression)
        else { return nil }
        return canonical(String(t[r]))
    }

    /// Open `<`, `{` and `(` less closed ones: above 0 while a description continues on the next line.
    static func depth(_ s: some StringProtocol) -> Int {
        var d = 0
        for c in s {
            switch c {
            case "<", "{", "(": d += 1
            case ">", "}", ")": d -= 1
            default: break
            }
        }
        return d
    }

    private mutating func finish(_ whole: String, number: Int, file: String) -> Outcome {
        section = .recognizers
        // The element separators and NSLog's quotes after a description's closing `}>` on its last line.
        var text = Substring(whole)
        while let last = text.last, last == "," || last == "\"" || last == " " || last == "\t" {
            text = text.dropLast()
        }
        guard text.last == ">", let open = text.firstIndex(of: "<") else {
            return .problem("unreadable recognizer: \(HierarchyDump.excerpt(text))")
        }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let parts = HierarchyDump.splitTopLevel(inner, separator: ";").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let head = parts[0]
        guard let colon = head.range(of: ": 0x") else {
            return .problem("unreadable recognizer: \(HierarchyDump.excerpt(text))")
        }
        let className = String(head[..<colon.lowerBound])
        let address = Self.canonical("0x" + head[colon.upperBound...].prefix { $0.isHexDigit })
        var viewAddress: String?
        var recognizer = Recognizer(id: address, className: className, view: "", file: file, line: number)
        for item in parts.dropFirst() where !item.isEmpty {
            if item.hasPrefix("target=") {
                recognizer.targets += Self.recognizerTargets(item)
                continue
            }
            guard let (key, value) = HierarchyDump.keyValue(item) else { continue }
            switch key {
            case "view":
                if let r = value.range(of: #"0x[0-9A-Fa-f]+"#, options: .regularExpression) {
                    viewAddress = Self.canonical(String(value[r]))
                }
            case "state": recognizer.state = value
            case "must-fail":
                var rest = value[...]
                while let r = rest.range(of: #"<[^\s:<>;]+: 0x[0-9A-Fa-f]+"#, options: .regularExpression) {
                    let hex = rest[r].range(of: #"0x[0-9A-Fa-f]+"#, options: .regularExpression)!
                    recognizer.mustFail.append(Self.canonical(String(rest[r][hex])))
                    rest = rest[r.upperBound...]
                }
            default: recognizer.fields[key] = value
            }
        }
        guard let viewAddress else {
            return .problem("recognizer \(address) names no view (no `view = <… 0x…>`): skipped")
        }
        recognizer.view = viewAddress
        viewsShown.insert(viewAddress)
        guard recognizerIDs.insert(address).inserted else { return .read }  // printed again: the same object
        recognizers.append(recognizer)
        return .read
    }

    /// `target= <(action=tapped:, target=<MyApp.VC 0x…>)>` (more than one pair each in its own parentheses).
    static func recognizerTargets(_ item: String) -> [(action: String, target: String)] {
        var out: [(action: String, target: String)] = []
        var rest = item[...]
        let pattern = #"action=([^,\s)]+), target=<[^<>]*?(0x[0-9A-Fa-f]+)>"#
        while let r = rest.range(of: pattern, options: .regularExpression) {
            let pair = rest[r]
            let action = pair.dropFirst("action=".count).prefix { $0 != "," }
            if let hex = pair.range(of: #"0x[0-9A-Fa-f]+"#, options: .regularExpression) {
                out.append((String(action), canonical(String(pair[hex]))))
            }
            rest = rest[r.upperBound...]
        }
        return out
    }

    /// The end of a file: a description still open is cut short.
    mutating func endOfFile() -> (line: Int, message: String)? {
        section = .none
        guard let p = pending else { return nil }
        pending = nil
        return (p.line, "a recognizer's description does not close before the end of the file: skipped")
    }
}
