import ResponderJSON
import ResponderProtocol

/// Puts the recognizers and control targets read beside the hierarchy on the nodes they belong to, and says
/// what the dump leaves unknown instead of guessing it.
extension HierarchyDump {
    mutating func attachObjects(_ windows: [ViewLine]) {
        var nodes: [String: ViewLine] = [:]
        var stack = windows
        while let n = stack.popLast() {
            nodes[n.id] = n
            stack += n.children
        }
        var handles: [String: [(String, JSON)]] = [:]
        func implements(_ target: String?, _ action: String) {
            // The app registered this target-action pair and runs: the target implements the action.
            guard let target, nodes[target] != nil else { return }
            if !(handles[target] ?? []).contains(where: { $0.0 == action }) {
                handles[target, default: []].append((action, .string("handle")))
            }
        }

        // Recognizers: the public UIKit kinds become the engine's; a scroll view's own pan is its K8 pan.
        var unknownKinds: [String] = []
        var placed: [(recognizer: ObjectLines.Recognizer, kind: String, view: ViewLine)] = []
        for r in objects.recognizers {
            guard let view = nodes[r.view], view.kind.isView else {
                problem(
                    r.file, r.line, "recognizer \(r.id) belongs to \(r.view), which is not a view in the dump: skipped")
                continue
            }
            guard let kind = ObjectLines.kinds[r.className] else {
                let scroll =
                    UIKitClass(rawValue: view.className)?.isScrollView == true
                    || view.members.contains {
                        $0.key == "baseClass" && UIKitClass(rawValue: $0.value.stringValue ?? "")?.isScrollView == true
                    }
                // A scroll view's pan and its delay of content touches are the engine's K8 pan; a hover
                // recognizer follows a pointer, which a touch never is.
                if scroll, ObjectLines.scrollViewOwn.contains(r.className) { continue }
                if r.className == "UIHoverGestureRecognizer" { continue }
                unknownKinds.append("\(r.className) \(r.id) on \(r.view)")
                continue
            }
            placed.append((r, kind, view))
        }
        let imported = Set(placed.map(\.recognizer.id))
        var byView: [ObjectIdentifier: [JSON]] = [:]
        for (r, kind, view) in placed {
            var m: [(key: String, value: JSON)] = [("id", .string(r.id)), ("kind", .string(kind))]
            func flag(_ key: String) {
                guard let text = r.fields[key] else { return }
                if let b = Self.yesNo(text) { m.append((key, .bool(b))) }
            }
            func count(_ key: String) {
                guard let text = r.fields[key] else { return }
                if let n = Int(text), n >= 1 {
                    m.append((key, JSON(n)))
                } else {
                    note(r, "\(key) = \(text) is not modeled")
                }
            }
            if r.fields["enabled"].flatMap(Self.yesNo) == false { m.append(("enabled", .bool(false))) }
            flag("cancelsTouchesInView")
            flag("delaysTouchesBegan")
            flag("delaysTouchesEnded")
            switch kind {
            case "tap":
                count("numberOfTapsRequired")
                count("numberOfTouchesRequired")
            case "longPress":
                count("numberOfTouchesRequired")
                if let t = r.fields["numberOfTapsRequired"], t != "0" {
                    note(r, "numberOfTapsRequired = \(t) (a tap before the press) is not modeled: the press alone is")
                }
                for key in ["minimumPressDuration", "allowableMovement"] {
                    if let text = r.fields[key], let v = Double(text), v.isFinite, v >= 0 { m.append((key, JSON(v))) }
                }
            case "pan":
                count("minimumNumberOfTouches")
                count("maximumNumberOfTouches")
            case "swipe":
                count("numberOfTouchesRequired")
                if let d = r.fields["direction"], ["right", "left", "up", "down"].contains(d.lowercased()) {
                    m.append(("direction", .string(d.lowercased())))
                }
            default: break
            }
            if !r.targets.isEmpty {
                m.append(
                    (
                        "targets",
                        .array(
                            r.targets.map { .object([("target", .string($0.target)), ("action", .string($0.action))]) })
                    ))
            }
            for t in r.targets { implements(t.target, t.action) }
            let waits = r.mustFail.filter { imported.contains($0) && $0 != r.id }
            if !waits.isEmpty { m.append(("requireToFail", .array(waits.map { .string($0) }))) }
            if let dropped = r.mustFail.first(where: { !imported.contains($0) }) {
                note(r, "it waits for \(dropped) to fail, which is not imported: answers assume it does not wait")
            }
            if let state = r.state, state != "Possible" {
                note(r, "it was \(state) when the dump was taken; it starts possible")
            }
            byView[ObjectIdentifier(view), default: []].append(.object(m))
        }
        for (_, _, view) in placed where view.members.last(where: { $0.key == "gestureRecognizers" }) == nil {
            view.members.append(("gestureRecognizers", .array(byView[ObjectIdentifier(view)] ?? [])))
        }

        // Control targets: an address that prints them is a UIControl.
        var controlTargets: [String: [JSON]] = [:]
        var seen = Set<String>()
        var nilTargeted: [String] = []
        for a in objects.actions {
            guard let control = nodes[a.control], control.kind.isView, control.kind != .window else {
                problem(a.file, a.line, "\(a.control) is not a view in the dump: its action \(a.action) is skipped")
                continue
            }
            if control.kind == .view {
                guard !control.members.contains(where: { $0.key == "baseClass" }) else {
                    problem(
                        a.file, a.line,
                        "\(a.control) is not a control of its base class: its action \(a.action) is skipped")
                    continue
                }
                control.kind = .control
                notes.append(
                    Problem(
                        file: a.file, line: a.line,
                        message: "\(a.control) (\(control.className)) prints control targets: imported as a control"))
            } else if control.kind != .control && control.kind != .textField {
                problem(
                    a.file, a.line,
                    "\(a.control) is a \(control.kind.rawValue), which has no control targets: \(a.action) skipped")
                continue
            }
            guard seen.insert("\(a.control) \(a.target ?? "nil") \(a.event) \(a.action)").inserted else { continue }
            controlTargets[a.control, default: []].append(
                .object([
                    ("event", .string(a.event)), ("action", .string(a.action)),
                    ("target", a.target.map { .string($0) } ?? .null)
                ]))
            if a.target == nil { nilTargeted.append("\(a.action) from \(a.control)") }
            implements(a.target, a.action)
        }
        var withTargets = Set<String>()
        for a in objects.actions { withTargets.insert("\(a.control) \(a.target ?? "nil")") }
        for (id, list) in controlTargets { nodes[id]?.members.append(("targets", .array(list))) }
        for (id, list) in handles { nodes[id]?.members.append(("handles", .object(list))) }

        // What the dump leaves unknown, listed.
        func listed(_ items: [String]) -> String {
            items.prefix(5).joined(separator: ", ") + (items.count > 5 ? ", …" : "")
        }
        let hidden = nodes.values.filter {
            $0.annotations.contains { $0.0 == "gestureRecognizers" } && !objects.viewsShown.contains($0.id)
        }.map(\.id).sorted()
        if !hidden.isEmpty {
            unknowns.append(
                "\(hidden.count) view\(hidden.count == 1 ? " has" : "s have") gesture recognizers whose kinds the dump does not show; answers assume they do not fire (\(listed(hidden)))"
            )
        }
        if !unknownKinds.isEmpty {
            unknowns.append(
                "\(unknownKinds.count) recognizer\(unknownKinds.count == 1 ? " is" : "s are") of a class the engine does not model; answers assume \(unknownKinds.count == 1 ? "it does" : "they do") not fire (\(listed(unknownKinds)))"
            )
        }
        let silent = nodes.values.filter {
            ($0.kind == .control || $0.kind == .textField) && viewsByID[$0.id] != nil
                && !objects.controlsShown.contains($0.id)
        }.map(\.id).sorted()
        if !silent.isEmpty {
            unknowns.append(
                "\(silent.count) control\(silent.count == 1 ? "'s targets are" : "s' targets are") not in the dump; answers assume \(silent.count == 1 ? "it sends" : "they send") no actions (\(listed(silent)); tools/lldb/responder-dump.lldb prints them)"
            )
        }
        var actionless: [String] = []
        for (control, list) in objects.targets.sorted(by: { $0.key < $1.key }) {
            for t in list where !withTargets.contains("\(control) \(t ?? "nil")") {
                actionless.append("\(t ?? "nil") of \(control)")
            }
        }
        if !actionless.isEmpty {
            unknowns.append(
                "\(actionless.count) control target\(actionless.count == 1 ? " has" : "s have") no actions in the dump for the events the engine knows (\(listed(actionless)))"
            )
        }
        if !nilTargeted.isEmpty {
            unknowns.append(
                "\(nilTargeted.count) action\(nilTargeted.count == 1 ? " is" : "s are") sent to the first responder (nil target): which responder implements \(nilTargeted.count == 1 ? "it" : "them") the dump does not show (\(listed(nilTargeted)))"
            )
        }
    }

    private mutating func note(_ r: ObjectLines.Recognizer, _ message: String) {
        notes.append(Problem(file: r.file, line: r.line, message: "recognizer \(r.id): \(message)"))
    }
}
