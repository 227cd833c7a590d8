import ResponderJSON
import Testing

@testable import ResponderProtocol

/// A node's `android` object (8.7): read and checked as the spec gives it, kept on the node, written back as
/// given, and absent from every node that does not give it.
@Suite struct AndroidFieldsTests {
    /// Every member, with each shape of answer and policy.
    static let full = #"""
        {"class": "Button", "visibility": "invisible", "enabled": false, "clickable": true,
         "longClickable": true, "focusable": true, "focusableInTouchMode": false,
         "shouldDelayChildPressedState": false, "elevation": 4, "translationZ": 1.5,
         "touchDelegate": {"bounds": [-10, -10, 60, 64], "delegate": "small"},
         "handles": {"onTouchEvent": {"down": "consume", "move": "pass", "*": "super"},
                     "dispatchTouchEvent": "super",
                     "onInterceptTouchEvent": {"afterSlop": {"axis": "vertical"}},
                     "requestDisallowIntercept": {"afterSlop": {"axis": "horizontal"}}},
         "listeners": {"touch": "pass", "click": {"target": "act", "method": "save"},
                       "clickXml": "onSave",
                       "longClick": {"target": "act", "method": "menu", "returns": true}},
         "allowClickWhenDisabled": true, "splitMotionEvents": false, "nestedScrollingEnabled": true,
         "tooltip": true, "temporarilyDetached": false}
        """#

    static func tree(android: String, kind: String = "view") -> String {
        // A view controller has no frame.
        let frame = kind == "viewController" ? "" : #", "frame": [0, 0, 10, 10]"#
        return #"{"id": "app", "kind": "application", "children": [{"id": "w", "kind": "window", "children": ["#
            + #"{"id": "b", "kind": "\#(kind)"\#(frame), "android": \#(android)}]}]}"#
    }

    static func read(_ text: String) throws(RPCError) -> NodeTree {
        let json = try! JSONCodec.decode(text)
        return try NodeTree(wire: json, path: "tree")
    }

    /// The node's members as written for output (8.5).
    static func written(_ node: NodeSpec) -> JSON {
        var w = JSONWriter()
        w.beginObject()
        NodeField.writeMembers(of: node, to: &w)
        w.endObject()
        return try! JSONCodec.decode(w.takeBytes())
    }

    static func node(_ tree: NodeTree, _ id: String) -> NodeSpec { tree.entries.first { $0.spec.id == id }!.spec }

    @Test func everyMemberReadsAndWritesBackAsGiven() throws {
        let tree = try Self.read(Self.tree(android: Self.full))
        let b = Self.node(tree, "b")
        let android = try #require(b.android)
        #expect(android.className == "Button")
        #expect(android.visibility == .invisible)
        #expect(android.enabled == false && android.clickable == true && android.focusableInTouchMode == false)
        #expect(android.elevation == 4 && android.translationZ == 1.5)
        #expect(android.touchDelegate == .init(bounds: Rect(-10, -10, 60, 64), delegate: "small"))
        #expect(
            android.handles?.onTouchEvent
                == .byAction([.init(.down, .consume), .init(.move, .pass), .init(.other, .super)]))
        #expect(android.handles?.dispatchTouchEvent == .always(.super))
        #expect(android.handles?.onInterceptTouchEvent == .afterSlop(.vertical))
        #expect(android.handles?.requestDisallowIntercept == .afterSlop(.horizontal))
        #expect(android.listeners?.touch == .always(.pass))
        #expect(android.listeners?.click == .init(target: "act", method: "save"))
        #expect(android.listeners?.clickXml == "onSave")
        #expect(android.listeners?.longClick == .init(target: "act", method: "menu", returns: true))
        #expect(android.allowClickWhenDisabled == true && android.splitMotionEvents == false)
        #expect(android.nestedScrollingEnabled == true && android.tooltip == true)
        #expect(android.temporarilyDetached == false)
        #expect(Self.written(b)["android"] == (try JSONCodec.decode(Self.full)))
    }

    /// Members left out stay out: the object is written back with exactly the members given.
    @Test(arguments: [
        #"{}"#, #"{"visibility": "gone"}"#, #"{"handles": {}}"#, #"{"handles": {"onInterceptTouchEvent": "down"}}"#,
        #"{"handles": {"onInterceptTouchEvent": {"atEvent": 3}, "requestDisallowIntercept": "down"}}"#,
        #"{"handles": {"onInterceptTouchEvent": "always", "onTouchEvent": {"up": "consume"}}}"#,
        #"{"listeners": {"touch": {"cancel": "pass", "down": "consume"}}, "class": "FrameLayout"}"#
    ])
    func partialObjectsRoundTrip(_ android: String) throws {
        let b = Self.node(try Self.read(Self.tree(android: android)), "b")
        #expect(b.android != nil)
        #expect(Self.written(b)["android"] == (try JSONCodec.decode(android)))
    }

    /// Any kind may carry it (an activity's view controller, a window).
    @Test(arguments: ["application", "window", "viewController", "control", "textField"])
    func everyKindTakesIt(_ kind: String) throws {
        let text = #"{"id": "n", "kind": "\#(kind)", "android": {"focusable": true}}"#
        let tree = try NodeTree(wire: try JSONCodec.decode(text), path: "tree")
        #expect(tree.entries[0].spec.android?.focusable == true)
    }

    @Test func aNodeWithoutItWritesNoAndroidMember() throws {
        let tree = try Self.read(#"{"id": "app", "kind": "application", "children": [{"id": "v", "kind": "view"}]}"#)
        let v = Self.node(tree, "v")
        #expect(v.android == nil)
        #expect(v.outOfLineFieldsUnset)
        #expect(Self.written(v)["android"] == nil)
    }

    /// A snapshot writes only the members a node holds other than unset: the object is one of them, and reading
    /// the snapshot's text back (both readers) gives the node as it was.
    @Test func snapshotsKeepIt() throws {
        let b = Self.node(try Self.read(Self.tree(android: Self.full)), "b")
        var w = JSONWriter()
        w.beginObject()
        w.key("id"); w.string("b")
        w.key("kind"); w.string("view")
        NodeField.writeChangedMembers(of: b, to: &w)
        w.endObject()
        let bytes = w.takeBytes()
        let general = try NodeTree(wire: try JSONCodec.decode(bytes), path: "tree")
        #expect(general.entries[0].spec == b)
        if let plain = PlainTreeTests.plain(bytes) { #expect(plain.entries[0].spec == b) }
    }

    /// `update … set` takes it like any field, and null takes it away.
    @Test func updateSetsAndResetsIt() throws {
        let members: [(key: String, value: JSON)] = [("android", try JSONCodec.decode(#"{"clickable": false}"#))]
        let set = try NodeUpdate(members: members, id: "b", path: "ops[0].set.")
        #expect(set.values.android?.clickable == false)
        var b = Self.node(try Self.read(Self.tree(android: Self.full)), "b")
        try NodeField.named("android")!.read(.null, into: &b, path: "")
        #expect(b.android == nil)
    }

    /// Bad input is INVALID_NODE naming the member's full path.
    @Test(arguments: [
        (#"{"bogus": 1}"#, "tree.children[0].children[0].android.bogus"),
        (#"{"visibility": "blurry"}"#, "tree.children[0].children[0].android.visibility"),
        (#"{"visibility": true}"#, "tree.children[0].children[0].android.visibility"),
        (#"{"class": ""}"#, "tree.children[0].children[0].android.class"),
        (#"{"enabled": "yes"}"#, "tree.children[0].children[0].android.enabled"),
        (#"{"elevation": "high"}"#, "tree.children[0].children[0].android.elevation"),
        (#"{"handles": {"onTouchEvent": "maybe"}}"#, "tree.children[0].children[0].android.handles.onTouchEvent"),
        (
            #"{"handles": {"onTouchEvent": {"down": "maybe"}}}"#,
            "tree.children[0].children[0].android.handles.onTouchEvent.down"
        ),
        (
            #"{"handles": {"onTouchEvent": {"pinch": "pass"}}}"#,
            "tree.children[0].children[0].android.handles.onTouchEvent.pinch"
        ),
        (#"{"handles": {"onTouchEvent": true}}"#, "tree.children[0].children[0].android.handles.onTouchEvent"),
        (#"{"handles": {"onKeyDown": "super"}}"#, "tree.children[0].children[0].android.handles.onKeyDown"),
        (
            #"{"handles": {"onInterceptTouchEvent": "sometimes"}}"#,
            "tree.children[0].children[0].android.handles.onInterceptTouchEvent"
        ),
        (
            #"{"handles": {"onInterceptTouchEvent": {"atEvent": 0}}}"#,
            "tree.children[0].children[0].android.handles.onInterceptTouchEvent.atEvent"
        ),
        (
            #"{"handles": {"onInterceptTouchEvent": {"afterSlop": {"axis": "diagonal"}}}}"#,
            "tree.children[0].children[0].android.handles.onInterceptTouchEvent.afterSlop.axis"
        ),
        (
            #"{"handles": {"onInterceptTouchEvent": {"afterSlop": {"axis": "any", "by": 3}}}}"#,
            "tree.children[0].children[0].android.handles.onInterceptTouchEvent.afterSlop.by"
        ),
        (
            #"{"handles": {"requestDisallowIntercept": "always"}}"#,
            "tree.children[0].children[0].android.handles.requestDisallowIntercept"
        ),
        (
            #"{"handles": {"requestDisallowIntercept": {"atEvent": 2}}}"#,
            "tree.children[0].children[0].android.handles.requestDisallowIntercept.atEvent"
        ),
        (
            #"{"touchDelegate": {"bounds": [0, 0, 10], "delegate": "x"}}"#,
            "tree.children[0].children[0].android.touchDelegate.bounds"
        ),
        (
            #"{"touchDelegate": {"bounds": [0, 0, 10, 10]}}"#,
            "tree.children[0].children[0].android.touchDelegate.delegate"
        ),
        (
            #"{"listeners": {"click": {"target": "act"}}}"#,
            "tree.children[0].children[0].android.listeners.click.method"
        ),
        (
            #"{"listeners": {"longClick": {"target": "act", "method": "m"}}}"#,
            "tree.children[0].children[0].android.listeners.longClick.returns"
        ),
        (#"{"listeners": {"touch": "maybe"}}"#, "tree.children[0].children[0].android.listeners.touch"),
        (#"{"listeners": {"key": "pass"}}"#, "tree.children[0].children[0].android.listeners.key"),
        (#"[]"#, "tree.children[0].children[0].android")
    ])
    func badInputNamesThePath(_ android: String, _ field: String) {
        let text = Self.tree(android: android)
        #expect(PlainTreeTests.plain(Array(text.utf8)) == nil)
        #expect {
            _ = try Self.read(text)
        } throws: { error in
            guard let e = error as? RPCError else { return false }
            return e.name == .invalidNode && e.detail("field") == .string(field) && e.detail("id") == .string("b")
        }
    }

    /// Windows', view controllers' and views' own members (AR1, AR5, AV4, AK10, AX3–AX5) read on their kinds and
    /// write back as given.
    @Test(arguments: [
        (
            "window",
            #"{"class": "Dialog", "focusable": false, "touchModal": false, "touchable": true, "watchOutsideTouch": true, "closeOnTouchOutside": true}"#
        ),
        (
            "viewController",
            #"{"onOptionsItemSelected": ["share", "print"], "onContextItemSelected": [], "actionMode": true, "hasOptionsMenu": true, "menuVisible": false, "hidden": false, "backCallback": {"enabled": true}}"#
        ),
        ("view", #"{"filterTouchesWhenObscured": true, "contextMenu": ["copy"]}"#),
        ("control", #"{"contextMenu": ["copy", "paste"]}"#)
    ])
    func windowControllerAndViewMembersRoundTrip(_ kind: String, _ android: String) throws {
        let b = Self.node(try Self.read(Self.tree(android: android, kind: kind)), "b")
        #expect(Self.written(b)["android"] == (try JSONCodec.decode(android)))
    }

    /// A member on a kind it does not apply to is INVALID_NODE naming its path.
    @Test(arguments: [
        ("view", #"{"touchModal": false}"#, "touchModal"),
        ("viewController", #"{"closeOnTouchOutside": true}"#, "closeOnTouchOutside"),
        ("viewController", #"{"filterTouchesWhenObscured": true}"#, "filterTouchesWhenObscured"),
        ("window", #"{"backCallback": {"enabled": true}}"#, "backCallback"),
        ("view", #"{"onOptionsItemSelected": ["share"]}"#, "onOptionsItemSelected"),
        ("view", #"{"contextMenu": ["copy", ""]}"#, "contextMenu[1]"),
        ("viewController", #"{"backCallback": {}}"#, "backCallback.enabled"),
        ("viewController", #"{"backCallback": {"enabled": true, "id": 1}}"#, "backCallback.id")
    ])
    func membersOnOtherKindsAreRefused(_ kind: String, _ android: String, _ member: String) {
        #expect {
            _ = try Self.read(Self.tree(android: android, kind: kind))
        } throws: { error in
            guard let e = error as? RPCError else { return false }
            return e.name == .invalidNode
                && e.detail("field") == .string("tree.children[0].children[0].android." + member)
        }
    }
}
