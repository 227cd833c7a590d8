import ResponderCore
import ResponderJSON
import ResponderProtocol

/// The one place a core error becomes a JSON-RPC error: its name (and so its code), its message and its
/// details, in the order clients have always read them (Protocol/errors.json, the Python suite).
extension RPCError {
    public init(_ error: CoreError) {
        switch error {
        case .noNode(let id, let field):
            self = .noNode(id, field: field)
        case .notAWindow(let id, let kind, let field):
            var details: [(key: String, value: JSON)] = [("id", .string(id))]
            if let field { details.append(("field", .string(field))) }
            details.append(("kind", .string(kind.rawValue)))
            self.init(.wrongKind, "\"\(id)\" is a \(kind.rawValue), not a window", details)
        case .detachedWindow(let id):
            self.init(
                .invalidParams, "window \"\(id)\" is detached; only an attached window can be key",
                [("field", "id"), ("id", .string(id))])

        case .revisionConflict(let revision, let expected):
            self.init(
                .revisionConflict, "the tree is at revision \(revision), not \(expected)",
                [("revision", JSON(revision)), ("expected", JSON(expected))])
        case .nodeRevisionConflict(let id, let revision, let expected):
            self.init(
                .revisionConflict, "node \"\(id)\" is at revision \(revision), not \(expected)",
                [("id", .string(id)), ("revision", JSON(revision)), ("expected", JSON(expected))])
        case .tooManyOps(let max):
            self.init(
                .limitExceeded, "a batch holds at most \(max) ops", [("limit", "opsPerBatch"), ("max", JSON(max))])
        case .tooManyNodes(let max):
            self.init(.limitExceeded, "a session holds at most \(max) nodes", [("limit", "nodes"), ("max", JSON(max))])
        case .tooDeep(let id, let max):
            self.init(
                .limitExceeded, "the tree may be at most \(max) deep",
                [("limit", "depth"), ("max", JSON(max)), ("id", .string(id))])
        case .rootNotApplication(let id, let kind, let field):
            self.init(
                .invalidNode, "the tree's root must be the application, not a \(kind.rawValue)",
                [("field", .string(field)), ("id", .string(id))])
        case .applicationID(let id, let field):
            self.init(
                .invalidNode, "the application's id must be \"app\", not \"\(id)\"",
                [("field", .string(field)), ("id", .string(id))])
        case .duplicateID(let id, let field):
            self.init(
                .duplicateID, "a node with id \"\(id)\" already exists",
                [("id", .string(id)), ("field", .string(field))])
        case .misplaced(let id, let parent, let rule):
            self.init(.invalidPlacement, rule.message, [("id", .string(id)), ("parent", JSON(parent))])
        case .applicationFixed(let id, let removal):
            self.init(
                .invalidPlacement, removal ? "the application cannot be removed" : "the application cannot be moved",
                [("id", .string(id))])
        case .notModelled(let what, let model, let field):
            let details: [(key: String, value: JSON)] = [
                ("field", .string(field)), ("profile", .string(model.rawValue))
            ]
            self.init(.invalidParams, "the \(model.rawValue) profile does not model \(what)", details)
        case .notInMenu(let item, let view, let items):
            let listed = items.isEmpty ? "it has no items" : "its items: " + items.joined(separator: ", ")
            self.init(
                .invalidParams, "item: \"\(item)\" is not in the context menu of \"\(view)\" (\(listed))",
                [("field", "item"), ("view", .string(view))])
        case .indexOutOfRange(let index, let count):
            self.init(.invalidParams, "index \(index) is outside 0…\(count)", [("field", "index")])
        case .cycle(let id, let parent):
            self.init(
                .cycle, "cannot move \"\(id)\" under its own descendant \"\(parent)\"",
                [("id", .string(id)), ("parent", .string(parent))])
        case .fieldNotApplicable(let id, let field, let kind):
            self.init(
                .invalidNode, "field set.\(field) does not apply to a \(kind.rawValue)",
                [("field", .string("set.\(field)")), ("id", .string(id))])
        case .classMismatch(let id, let field, let reason):
            self.init(
                .invalidNode, "set.\(field): \(reason)", [("field", .string("set.\(field)")), ("id", .string(id))])
        case .brokenInvariant(let id, let rule):
            self.init(invariant: rule, id)
        case .severalKeyWindows(let keys):
            self.init(
                .invalidNode, "at most one window can be key (\(keys.joined(separator: ", ")))",
                [("field", "key"), ("id", .string(keys[1]))])
        case .recognizer(let id, let field, let problem):
            let (name, message, recognizer): (ErrorName, String, String)
            switch problem {
            case .builtInPan(let r, let scrollView):
                (name, message, recognizer) = (
                    .duplicateID, "\"\(r)\" is the built-in pan recognizer of scroll view \"\(scrollView)\" (K8)", r
                )
            case .idInUse(let r, let owner):
                (name, message, recognizer) = (
                    .duplicateID, "a recognizer with id \"\(r)\" is already attached to \"\(owner)\"", r
                )
            case .unknownReference(let r):
                (name, message, recognizer) = (.invalidNode, "names no recognizer \"\(r)\"", r)
            }
            self.init(
                name, "\(field): \(message)",
                [("field", .string(field)), ("id", .string(id)), ("recognizer", .string(recognizer))])

        case .touchPointMissing:
            self.init(.invalidParams, "point is required for began", [("field", "point")])
        case .timeBeforeClock(let time, let clock, let touch?):
            self.init(
                .invalidParams,
                "touches[\(touch)].time: \(time) is before the session clock (\(clock)); time never goes back",
                [("field", .string("touches[\(touch)].time")), ("clock", JSON(clock))])
        case .timeBeforeClock(let time, let clock, nil):
            // event.tap's own `time`: clients have always read its clock first.
            self.init(
                .invalidParams, "time: \(time) is before the session clock (\(clock)); time never goes back",
                [("clock", JSON(clock)), ("field", "time")])
        case .clockBackwards(let target, let clock):
            self.init(
                .invalidParams, "to: \(target) is before the session clock (\(clock))",
                [("field", "to"), ("clock", JSON(clock))])
        case .touchInUse(let touch, let client, let reason):
            let message =
                switch reason {
                case .live: "touch \(touch) is live (owned by \(client))"
                case .heldByRecognizers:
                    "touch \(touch) has ended but its view has not had all its phases yet (held by recognizers, G9)"
                case .otherClient: "touch \(touch) belongs to another client"
                }
            self.init(.touchInUse, message, [("touch", touch.wire), ("client", .string(client))])
        case .touchNotFound(let touch):
            self.init(.touchNotFound, "no live touch \(touch)", [("touch", touch.wire)])
        case .pressInUse(let press, let client, let reason):
            let message =
                switch reason {
                case .live, .heldByRecognizers: "press \(press) is live (owned by \(client))"
                case .otherClient: "press \(press) belongs to another client"
                }
            self.init(.pressInUse, message, [("press", press.wire), ("client", .string(client))])
        case .pressNotFound(let press):
            self.init(.pressNotFound, "no live press \(press)", [("press", press.wire)])

        case .inOp(let index, let inner):
            // The op is named, and a field path is given from the top of the params ("ops[2].set.alpha"). A node
            // tree's path starts there already ("ops[2].node.children[0].id").
            let error = RPCError(inner).with("opIndex", JSON(index))
            if let field = error.detail("field")?.stringValue, !field.hasPrefix("ops[") {
                self = error.with("field", .string("ops[\(index)].\(field)"))
            } else {
                self = error
            }
        case .afterOp(let index, let inner):
            self = RPCError(inner).with("opIndex", JSON(index))
        case .inTouch(let index, let inner):
            self = RPCError(inner).with("index", JSON(index))
        }
    }

    private init(invariant rule: CoreError.InvariantRule, _ id: String) {
        let message: String
        switch rule {
        case .severalAppDelegates:
            message = "the application has more than one appDelegate"
        case .severalRootViewControllers(let window, let roots):
            message = "window \"\(window)\" has more than one root viewController (\(roots.joined(separator: ", ")))"
        case .viewControllerChildren(let controller, let count):
            message = "viewController \"\(controller)\" must hold exactly its root view (it holds \(count))"
        case .viewControllerSibling(let controller):
            message = "viewController \"\(controller)\" must hold exactly its root view"
        case .presentedOutsideWindow(let controller):
            message = "viewController \"\(controller)\" is presented (presentedBy) but does not sit under a window"
        case .presenterNotViewController:
            self.init(
                .invalidNode, "presentedBy of \"\(id)\" must name another viewController",
                [("id", .string(id)), ("field", "presentedBy")])
            return
        }
        self.init(.invalidPlacement, message, [("id", .string(id))])
    }
}

/// Runs core code for a request: what it refuses is answered as the wire's error.
@inline(__always)
func core<T>(_ body: () throws(CoreError) -> T) throws(RPCError) -> T {
    do { return try body() } catch { throw RPCError(error) }
}
