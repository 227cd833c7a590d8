import Foundation
import ResponderClient
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import ResponderTestSupport
import Testing

@testable import ResponderServer

/// The `responder` binary end to end: each test starts its own in-process engine (own name, own short ipc
/// directory) and runs the built binary against it with `--dir`/`--name`, checking output and exit status.
@Suite struct CLIBinaryTests {
    // MARK: World commands

    @Test func infoPrintsTheEngineName() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let r = try t.run(["info"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("engine    \(t.name)  (responderd"))
        #expect(r.stdout.contains("methods   "))
        let json = try t.run(["info", "--json"])
        #expect(try JSONCodec.decode(json.stdout)["name"] == .string(t.name))
    }

    @Test func globalOptionsMayComeBeforeTheSubcommand() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let r = try CLIRunner.run(["--dir", t.directory, "--name", t.name, "--json", "info"])
        #expect(r.status == 0, "\(r)")
        #expect(try JSONCodec.decode(r.stdout)["name"] == .string(t.name))
    }

    @Test func sessionMayComeBeforeTheSubcommandAndIsRefusedWhereItDoesNotApply() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "session.create",
            [
                "session": "extra",
                "tree": ["id": "app", "kind": "application", "children": [["id": "W", "kind": "window"]]]
            ])
        let r = try CLIRunner.run(["--session", "extra", "--dir", t.directory, "--name", t.name, "tree"])
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == ["app  application  UIApplication", "└─ W  window  UIWindow  (0, 0, 0, 0)"])
        let refused = try t.run(["info", "--session", "extra"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--session does not apply to info"), "\(refused)")
    }

    @Test func treeDrawsEveryNodeInOrderWithGuides() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let r = try t.run(["tree"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.lines == [
                "app  application  UIApplication",
                "├─ AD  appDelegate  AppDelegate",
                "└─ W  window  UIWindow  (0, 0, 400, 800)  [key]",
                "   └─ RVC  viewController  UIViewController",
                "      └─ R  view  UIView  (0, 0, 400, 800)",
                "         ├─ A  view  UIView  (0, 0, 300, 300)",
                "         └─ B  control  UIButton  (10, 400, 100, 44)"
            ])
        let sub = try t.run(["tree", "--id", "R"])
        #expect(
            sub.lines == [
                "R  view  UIView  (0, 0, 400, 800)", "├─ A  view  UIView  (0, 0, 300, 300)",
                "└─ B  control  UIButton  (10, 400, 100, 44)"
            ])
    }

    @Test func treeShowsFlagsDetachedSubtreesAndTheFirstResponder() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let c = try t.engine.connect()
        _ = try c.call(
            "tree.apply",
            [
                "ops": [
                    ["op": "update", "id": "A", "set": ["hidden": true, "alpha": 0.5, "userInteractionEnabled": false]],
                    ["op": "update", "id": "B", "set": ["enabled": false]],
                    [
                        "op": "insert", "parent": "R",
                        "node": ["id": "T", "kind": "textField", "frame": [0, 300, 100, 30]]
                    ],
                    [
                        "op": "insert", "parent": nil,
                        "node": ["id": "D", "kind": "view", "children": [["id": "D1", "kind": "view"]]]
                    ]
                ]
            ])
        _ = try c.call("responder.become", ["id": "T"])
        let r = try t.run(["tree"])
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.contains("         ├─ A  view  UIView  (0, 0, 300, 300)  [hidden, alpha 0.5, interaction off]"))
        #expect(r.lines.contains("         ├─ B  control  UIButton  (10, 400, 100, 44)  [disabled]"))
        #expect(
            r.lines.contains("         └─ T  textField  UITextField  (0, 300, 100, 30)  [★ first responder, editing]"))
        #expect(
            Array(r.lines.suffix(3)) == [
                "detached:", "D  view  UIView  (0, 0, 0, 0)", "└─ D1  view  UIView  (0, 0, 0, 0)"
            ])
    }

    @Test func aDeepTreePrintsWithShortLines() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let depth = 3_000
        var ops: [JSON] = [["op": "insert", "parent": "B", "node": ["id": "v0", "kind": "view"]]]
        for i in 1..<depth {
            ops.append([
                "op": "insert", "parent": .string("v\(i - 1)"), "node": ["id": .string("v\(i)"), "kind": "view"]
            ])
        }
        _ = try t.engine.connect().call("tree.apply", ["ops": .array(ops)])
        let r = try t.run(["tree"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 7 + depth)
        // Under B (depth 4): v0 is at depth 5, the last at depth + 4.
        #expect(r.lines.last == "┆ [depth \(depth + 4)] └─ v\(depth - 1)  view  UIView  (0, 0, 0, 0)")
        #expect(r.lines.allSatisfy { $0.count < 200 })
    }

    @Test func applyWithATypoFailsNamingTheErrorAndTheField() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let file = try t.write(
            "typo.json",
            #"{"ops": [{"op": "insert", "parent": "R", "node": {"id": "X", "kind": "view", "hiden": true}}]}"#)
        let r = try t.run(["apply", file])
        #expect(r.status != 0)
        #expect(r.stderr.contains("error: INVALID_NODE (-32006)"), "\(r)")
        #expect(r.stderr.contains("field: ops[0].node.hiden") || r.stderr.contains("field: node.hiden"), "\(r)")
        #expect(r.stderr.contains("opIndex: 0"))
        // Nothing changed.
        #expect(try t.run(["tree", "--id", "R"]).lines.count == 3)
        // The same batch without the typo applies, read from stdin as a bare array.
        let ok = try t.run(
            ["apply", "-"],
            stdin: #"[{"op": "insert", "parent": "R", "node": {"id": "X", "kind": "view", "hidden": true}}]"#)
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.contains("applied 1 op to default: revision"))
        #expect(try t.run(["tree", "--id", "R"]).lines.last == "└─ X  view  UIView  (0, 0, 0, 0)  [hidden]")
    }

    @Test func loadReplacesTheWorld() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let file = try t.write(
            "world.json", #"{"id": "app", "kind": "application", "children": [{"id": "W2", "kind": "window"}]}"#)
        let r = try t.run(["load", file])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("loaded 2 nodes into default"))
        #expect(
            try t.run(["tree"]).lines == ["app  application  UIApplication", "└─ W2  window  UIWindow  (0, 0, 0, 0)"])
        let stale = try t.run(["load", file, "--if-revision", "1"])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("REVISION_CONFLICT"))
    }

    @Test func sessionsCanBeCreatedListedAndDeleted() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let world = try t.write(
            "w.json", #"{"tree": {"id": "app", "kind": "application", "children": [{"id": "W", "kind": "window"}]}}"#)
        let created = try t.run(["session", "create", "extra", "--tree", world])
        #expect(created.status == 0, "\(created)")
        #expect(created.stdout.contains("created session extra"))
        let list = try t.run(["session", "list"])
        #expect(list.lines.first?.hasPrefix("SESSION") == true)
        #expect(list.lines.contains { $0.hasPrefix("extra ") && $0.hasSuffix(" 2") }, "\(list.lines)")
        #expect(
            try t.run(["tree", "--session", "extra"]).lines == [
                "app  application  UIApplication", "└─ W  window  UIWindow  (0, 0, 0, 0)"
            ])
        let again = try t.run(["session", "create", "extra"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("SESSION_EXISTS"))
        #expect(try t.run(["session", "delete", "extra"]).stdout.contains("deleted session extra"))
        #expect(!(try t.run(["session", "list"]).lines.contains { $0.hasPrefix("extra ") }))
        let gone = try t.run(["session", "delete", "extra"])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("error: SESSION_NOT_FOUND (-32001)"))
        #expect(gone.stderr.contains("field: session"))
    }

    @Test func callPrintsTheWholeResponse() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let r = try t.run(["call", "tree.get", #"{"id": "B"}"#])
        #expect(r.status == 0, "\(r)")
        let response = try JSONCodec.decode(r.stdout)
        #expect(response["jsonrpc"] == "2.0")
        #expect(response["result"]?["tree"]?["id"] == "B")
        #expect(r.stdout.contains("\n  \"result\": {"))  // pretty-printed
    }

    @Test func callOfAnUnknownMethodFails() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let r = try t.run(["call", "no.such.method"])
        #expect(r.status == 1)
        #expect(try JSONCodec.decode(r.stdout)["error"]?["data"]?["name"] == "METHOD_NOT_FOUND")
        #expect(r.stderr.contains("error: METHOD_NOT_FOUND (-32601)"))
        #expect(r.stderr.contains("method: no.such.method"))
        let bad = try t.run(["call", "engine.info", "{not json"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("params is not valid JSON"))
    }

    @Test func noEngineIsAClearErrorWithStatus1() throws {
        let dir = "/tmp/r-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLIRunner.run(["tree", "--dir", dir, "--name", "nobody"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("error: no engine named \"nobody\" is running"), "\(r)")
        // A discovery file left by a crashed engine (its pid is gone) is reported as such, without waiting.
        try #"{"name": "ghost", "pid": 2147483000, "rpc": "ipc:///nowhere.rpc", "events": "ipc:///nowhere.events"}"#
            .write(toFile: dir + "/ghost.json", atomically: true, encoding: .utf8)
        let ghost = try CLIRunner.run(["info", "--dir", dir, "--name", "ghost"])
        #expect(ghost.status == 1)
        #expect(ghost.stderr.contains("is not running"), "\(ghost)")
    }

    @Test func clientsListsNamedClients() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let c = try t.engine.connect()
        _ = try c.call("client.hello", ["name": "inspector"])
        _ = try c.call("tree.get")
        let r = try t.run(["clients"])
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.first?.hasPrefix("NAME") == true)
        #expect(r.lines.contains { $0.hasPrefix("inspector ") })
    }

    // MARK: watch

    @Test func watchPrintsATreeChangeMadeByAnotherClient() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let watch = try t.start(["watch"])
        defer { watch.stop() }
        // The snapshot line comes after the subscription is live: from then on nothing is missed.
        try watch.waitFor { $0.contains("following default from seq 0") }
        let c = try t.engine.connect()
        _ = try c.call("client.hello", ["name": "other-tool"])
        _ = try c.call(
            "tree.apply",
            [
                "ops": [
                    ["op": "insert", "parent": "R", "index": 0, "node": ["id": "N", "kind": "view"]],
                    ["op": "update", "id": "A", "set": ["hidden": true]]
                ]
            ])
        let line = try watch.waitFor { $0.hasPrefix("#1 tree") }
        #expect(line == "#1 tree (other-tool) apply (2 ops): insert N (view) into R @0; update A hidden → revision 3")
    }

    @Test func watchPrintsTracesAndFocusChanges() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let watch = try t.start(["watch", "--stream", "trace", "focus"])
        defer { watch.stop() }
        try watch.waitFor { $0.hasPrefix("following default") }
        let c = try t.engine.connect()
        _ = try c.call("client.hello", ["name": "tapper"])
        _ = try c.call(
            "tree.apply", ["ops": [["op": "update", "id": "RVC", "set": ["handles": ["touchesBegan": "handle"]]]]])
        _ = try c.call("event.tap", ["point": [50, 50]])
        let tap = try watch.waitFor { $0.contains(" trace ") }
        #expect(
            tap.hasPrefix(
                "#2 trace (tapper) touch: touch tap-1 began on A: touchesBegan: A → R → RVC, handled by RVC; touch tap-1 ended on A: touchesEnded: A → R → RVC → W → app → AD, discarded (no responder handled it)"
            ), "\(tap)")
        _ = try c.call(
            "tree.apply", ["ops": [["op": "insert", "parent": "R", "node": ["id": "T", "kind": "textField"]]]])
        _ = try c.call("responder.become", ["id": "T"])
        let focus = try watch.waitFor { $0.contains(" focus ") }
        #expect(focus == "#5 focus (tapper) focus window W: - → T (become)")
        #expect(watch.lines.contains("#4 trace (tapper) become: T became first responder (became)"))
        // The tree stream was not asked for, and skipping it is not a gap to recover.
        #expect(!watch.output.contains(" tree "))
        #expect(!watch.output.contains("recovered"))
    }

    @Test func watchSinceReplaysHistoryFirst() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let c = try t.engine.connect()
        for i in 0..<3 {
            _ = try c.call(
                "tree.apply",
                ["ops": [["op": "insert", "parent": "R", "node": ["id": .string("n\(i)"), "kind": "view"]]]])
        }
        let watch = try t.start(["watch", "--since", "1"])
        defer { watch.stop() }
        // The fill is announced before the events it brings back: wait for the last of them.
        try watch.waitFor { $0.hasPrefix("#3 tree (") }
        let lines = watch.lines
        #expect(lines.first == "replaying default after seq 1")
        #expect(lines.contains { $0.hasPrefix("#2 tree (") && $0.contains("insert n1 (view) into R") })
        #expect(lines.contains { $0.hasPrefix("#3 tree (") && $0.contains("insert n2 (view) into R") })
        #expect(!lines.contains { $0.hasPrefix("#1 ") })
        #expect(lines.contains("recovered 2 events (2…3)"))
    }

    @Test(.tags(.slow)) func slowWatchStopsWhenItsSessionIsDeletedOrTheEngineGoesAway() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let c = try t.engine.connect()
        _ = try c.call("session.create", ["session": "brief"])
        let brief = try t.start(["watch", "--session", "brief"])
        defer { brief.stop() }
        let other = try t.start(["watch"])
        defer { other.stop() }
        try brief.waitFor { $0.hasPrefix("following brief") }
        try other.waitFor { $0.hasPrefix("following default") }
        _ = try c.call("session.delete", ["session": "brief"])
        #expect(brief.waitForExit() == 0)
        #expect(brief.lines.last == "session brief was deleted")
        t.stop()
        #expect(other.waitForExit() == 1)
        #expect(other.output.contains("error: no engine named \"\(t.name)\" is running"), "\(other.output)")
    }

    // MARK: Help

    static let commands: [[String]] = [
        ["info"], ["engines"], ["session", "list"], ["session", "create"], ["session", "delete"], ["load"], ["apply"],
        ["tree"],
        ["watch"], ["call"], ["clients"], ["hit"], ["tap"], ["touch"], ["chain"], ["become"], ["resign"], ["first"],
        ["action"], ["menu-item"], ["can-perform"], ["why"], ["shake"], ["press"], ["remote"], ["make-key"], ["drag"],
        ["press-hold"],
        ["clock"],
        ["mcp"], ["bridge"], ["import"], ["find"], ["record"], ["replay"], ["draw"], ["web"], ["keygen"],
        ["compare"]
    ]

    @Test(.tags(.slow), arguments: commands)
    func slowEverySubcommandHasHelp(_ path: [String]) throws {
        let r = try CLIRunner.run(path + ["--help"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("USAGE: responder \(path.joined(separator: " "))"))
        #expect(r.stdout.contains("--name <name>"))
        #expect(r.stdout.contains("--json"))
        let viaHelp = try CLIRunner.run(["help"] + path)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout.contains("OPTIONS:"))
    }

    @Test func everyCommandAndOptionHasHelpText() throws {
        let r = try CLIRunner.run(["--experimental-dump-help"])
        #expect(r.status == 0)
        var missing: [String] = []
        var stack: [(JSON, String)] = [(try JSONCodec.decode(r.stdout)["command"] ?? .null, "responder")]
        var seen = 0
        while let (command, path) = stack.popLast() {
            seen += 1
            if (command["abstract"]?.stringValue ?? "").isEmpty { missing.append(path) }
            for argument in command["arguments"]?.arrayValue ?? []
            where (argument["abstract"]?.stringValue ?? "").isEmpty {
                missing.append("\(path) \(argument["valueName"]?.stringValue ?? "?")")
            }
            for sub in command["subcommands"]?.arrayValue ?? [] where sub["commandName"] != "help" {
                stack.append((sub, "\(path) \(sub["commandName"]?.stringValue ?? "?")"))
            }
        }
        #expect(seen == 1 + 1 + Self.commands.count)  // the root, the session group, the leaves
        #expect(missing.isEmpty, "\(missing)")
    }

    // MARK: Dispatch

    @Test func hitNamesTheViewAndExplainsEveryStep() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let r = try t.run(["hit", "50", "60", "--explain"])
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.first == "hit A in window W at local (50, 60)")
        #expect(r.lines.dropFirst().first?.hasPrefix("NODE") == true)
        // Front-most first: B is asked (and missed) before A.
        // The rows, then what each rule cited means.
        let legend = r.lines.firstIndex(of: "rules:") ?? r.lines.endIndex
        let rows = r.lines[..<legend].dropFirst(2).map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        #expect(rows.map { $0.first ?? "" } == ["W", "R", "B", "A"])
        #expect(rows[2].starts(with: ["B", "miss", "H3"]) && rows[2].last == "outside-bounds")
        #expect(
            Array(r.lines[legend...]) == [
                "rules:", "  H2  hitTest: exclusions, then the front-most subview, then the view itself",
                "  H3  point(inside:) is the bounds rectangle"
            ], "\(r)")
        let nothing = try t.run(["hit", "500", "900"])
        #expect(nothing.lines == ["no view at (500, 900)"])
    }

    @Test func tapPrintsEachDeliveryAsAPath() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let c = try t.engine.connect()
        _ = try c.call(
            "tree.apply",
            [
                "ops": [
                    ["op": "update", "id": "RVC", "set": ["handles": ["touchesBegan": "handle", "save:": "handle"]]],
                    [
                        "op": "update", "id": "B",
                        "set": ["targets": [["event": "touchUpInside", "action": "save:", "target": nil]]]
                    ]
                ]
            ])
        let a = try t.run(["tap", "50", "50"])
        #expect(a.status == 0, "\(a)")
        #expect(
            a.lines == [
                "touch tap-1 began on A: touchesBegan: A → R → RVC, handled by RVC",
                "touch tap-1 ended on A: touchesEnded: A → R → RVC → W → app → AD, discarded (no responder handled it)"
            ])
        let b = try t.run(["tap", "20", "410"])
        #expect(
            b.lines == [
                "touch tap-2 began on B: touchesBegan: B, handled by B [control events: touchDown]",
                "touch tap-2 ended on B: touchesEnded: B, handled by B [control events: touchUpInside, primaryActionTriggered] [actions: save: → RVC]"  // K2: a UIButton
            ])
        let json = try t.run(["tap", "50", "50", "--json"])
        let reply = try JSONCodec.decode(json.stdout)
        #expect(reply["trace"]?["kind"] == "touch")
        #expect(reply["deliveries"]?.arrayValue?.count == 2)
    }

    @Test func touchPhasesCanSpanInvocations() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let began = try t.run(["touch", "1:began:50,50", "2:began:20,410"])
        #expect(began.status == 0, "\(began)")
        #expect(began.lines.count == 2)
        #expect(began.lines[0].hasPrefix("touch 1 began on A: touchesBegan: A → R"))
        #expect(began.lines[1].hasPrefix("touch 2 began on B: touchesBegan: B"))
        let moved = try t.run([
            "touch", "--touch", "1", "--phase", "moved", "--at", "60,60", "--touch", "2", "--phase", "ended", "--at",
            "20,410"
        ])
        #expect(moved.status == 0, "\(moved)")
        #expect(moved.lines.first?.hasPrefix("touch 1 moved on A: touchesMoved: A") == true)
        #expect(try t.run(["touch", "1:ended"]).status == 0)
        let over = try t.run(["touch", "1:ended"])
        #expect(over.status == 1)
        #expect(over.stderr.contains("TOUCH_NOT_FOUND"))
        let malformed = try t.run(["touch", "1:began"])  // began needs a point
        #expect(malformed.status != 0)
    }

    @Test func chainAndFirstResponderCommands() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "tree.apply", ["ops": [["op": "insert", "parent": "R", "node": ["id": "T", "kind": "textField"]]]])
        #expect(try t.run(["chain", "A"]).lines == ["A → R → RVC → W → app → AD"])
        #expect(try t.run(["first"]).lines == ["no first responder"])
        let refused = try t.run(["become", "A"])
        #expect(refused.status == 0)
        #expect(refused.lines == ["A did not become first responder (cannot-become)"])
        let became = try t.run(["become", "T"])
        #expect(became.lines == ["T became first responder (became)", "focus window W: - → T (become)"])
        #expect(try t.run(["first", "--window", "W"]).lines == ["first responder in window W: T"])
        #expect(
            try t.run(["resign", "T"]).lines == [
                "T resigned first responder (resigned)", "focus window W: T → - (resign)"
            ])
        #expect(try t.run(["resign", "T"]).lines == ["T was not first responder (not-first-responder)"])
        let missing = try t.run(["become", "nope"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: NODE_NOT_FOUND"))
        #expect(missing.stderr.contains("id: nope"))
    }

    @Test func actionsEventsAndKeyWindow() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "tree.apply",
            [
                "ops": [
                    [
                        "op": "update", "id": "RVC",
                        "set": ["handles": ["save:": "handle", "motionBegan": "handle", "pressesBegan": "handle+super"]]
                    ],
                    ["op": "update", "id": "app", "set": ["receivesRemoteControlEvents": true]]
                ]
            ])
        #expect(try t.run(["action", "save:", "--sender", "A"]).lines == ["save: A → R → RVC, performed by RVC"])
        // No first responder and no sender: the walk starts at the application (A3).
        #expect(try t.run(["action", "nothing:"]).lines == ["nothing: app → AD, not performed (end-of-chain)"])
        // event.menuItem under uikit: the menu command's nil-target action, the context menu's view as sender.
        #expect(try t.run(["menu-item", "save:", "--context", "A"]).lines == ["save: A → R → RVC, performed by RVC"])
        #expect(try t.run(["menu-item", "nothing:"]).lines == ["nothing: app → AD, not performed (end-of-chain)"])
        // A5: who would perform it, from the application as sender, without performing anything.
        // Nothing is performed: it says who would perform it.
        #expect(
            try t.run(["can-perform", "save:", "--sender", "A"]).lines == [
                "save: A → R → RVC: available: RVC would perform it"
            ])
        #expect(try t.run(["can-perform", "nothing:"]).lines == ["nothing: app → AD: not available"])
        // whyNot (A4): A is asked first and does not implement it; RVC does.
        let why = try t.run(["why", "R", "--action", "save:", "--sender", "A"]).lines
        #expect(why.first == "R: not ok (A4, not-implemented): R does not implement save:; RVC performs it.")
        #expect(try t.run(["why", "RVC", "--action", "save:", "--sender", "A"]).lines.first == "RVC: ok")
        let shake = try t.run(["shake"])
        #expect(
            shake.lines == [
                "motionBegan: W → app → AD, discarded (no responder handled it)",
                "motionEnded: W → app → AD, discarded (no responder handled it)"
            ])
        let press = try t.run(["press", "a"])
        #expect(press.status == 0, "\(press)")
        #expect(press.lines.count == 2)
        #expect(press.lines[0].hasPrefix("press 1 (a): pressesBegan: W → app → AD"))
        #expect(
            try t.run(["remote", "play"]).lines == [
                "remoteControlReceived: W → app → AD, discarded (no responder handled it)"
            ])
        #expect(
            try t.run(["make-key", "W"]).lines.first?.hasPrefix("W is the key window (it already was): revision")
                == true)
        let wrong = try t.run(["make-key", "A"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("WRONG_KIND"))
    }

    // MARK: Gesture recognizers

    /// Fixtures plus a tap-to-dismiss recognizer on R that leaves views their touches, with RVC handling it.
    static let dismissTapOps: JSON = [
        "ops": [
            ["op": "update", "id": "RVC", "set": ["handles": ["dismissKeyboard:": "handle", "save:": "handle"]]],
            [
                "op": "update", "id": "B",
                "set": ["targets": [["event": "touchUpInside", "action": "save:", "target": nil]]]
            ],
            [
                "op": "update", "id": "R",
                "set": [
                    "gestureRecognizers": [
                        [
                            "id": "dismissTap", "kind": "tap", "cancelsTouchesInView": false,
                            "targets": [["target": "RVC", "action": "dismissKeyboard:"]]
                        ]
                    ]
                ]
            ]
        ]
    ]

    @Test func tapPrintsRecognizerTransitionsAndActionsUnderTheirDelivery() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let watch = try t.start(["watch", "--stream", "trace"])
        defer { watch.stop() }
        try watch.waitFor { $0.hasPrefix("following default") }
        _ = try t.engine.connect().call("tree.apply", Self.dismissTapOps)
        let a = try t.run(["tap", "50", "50"])
        #expect(a.status == 0, "\(a)")
        #expect(
            a.lines == [
                "touch tap-1 began on A: touchesBegan: A → R → RVC → W → app → AD, discarded (no responder handled it)",
                "touch tap-1 ended on A: touchesEnded: A → R → RVC → W → app → AD, discarded (no responder handled it)",
                "  gesture dismissTap: possible → recognized (G2, taps-completed)",
                "  action dismissKeyboard: dismissTap → RVC, performed (G3)",
                "  gesture dismissTap: recognized → possible (G2, reset)"
            ])
        // G10: the button keeps its single tap; the recognizer on its ancestor fails, the button's action is sent.
        let b = try t.run(["tap", "20", "410"])
        #expect(
            b.lines == [
                "touch tap-2 began on B: touchesBegan: B, handled by B [control events: touchDown]",
                "touch tap-2 ended on B: touchesEnded: B, handled by B [control events: touchUpInside, primaryActionTriggered] [actions: save: → RVC]",  // K2: a UIButton
                "  gesture dismissTap: possible → failed (G10, control-default-action by B)",
                "  gesture dismissTap: failed → possible (G2, reset)"
            ])
        // --explain lists every step, the recognizers' included.
        let explained = try t.run(["tap", "50", "50", "--explain"])
        #expect(explained.lines.contains("trace (22 steps):"), "\(explained)")
        #expect(explained.lines.contains("  5. observe dismissTap on R: observes touch tap-3 (G1)"), "\(explained)")
        #expect(
            explained.lines.contains("  13. gesture dismissTap: possible → recognized (G2, taps-completed)"),
            "\(explained)")
        #expect(
            explained.lines.contains("  14. action dismissKeyboard: dismissTap → RVC, performed (G3)"), "\(explained)")
        // The steps end with the last one; then what each rule they cite means, in the order of docs/rules.md.
        let legend = explained.lines.firstIndex(of: "rules:") ?? explained.lines.endIndex
        #expect(explained.lines[..<legend].last == "  22. gesture dismissTap: recognized → possible (G2, reset)")
        #expect(
            Array(explained.lines[legend...].prefix(3)) == [
                "rules:", "  H2  hitTest: exclusions, then the front-most subview, then the view itself",
                "  H3  point(inside:) is the bounds rectangle"
            ], "\(explained)")
        #expect(explained.lines.contains("  G3  A recognizer's actions go straight to their targets"), "\(explained)")
        // watch prints the same on one line, the recognizers' parts among the deliveries.
        let line = try watch.waitFor { $0.contains("touch tap-1 ended") }
        #expect(
            line.hasSuffix(
                "; gesture dismissTap: possible → recognized (G2, taps-completed); action dismissKeyboard: dismissTap → RVC, performed (G3); gesture dismissTap: recognized → possible (G2, reset)"
            ), "\(line)")
    }

    @Test func heldAndReleasedPhasesAndARecognizerWaitingOnAnother() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        // A single tap that waits for a double tap to fail (G5), leaving the view its touches (G9 releases).
        _ = try t.engine.connect().call(
            "tree.apply",
            [
                "ops": [
                    ["op": "update", "id": "RVC", "set": ["handles": ["single:": "handle", "double:": "handle"]]],
                    [
                        "op": "update", "id": "A",
                        "set": [
                            "gestureRecognizers": [
                                [
                                    "id": "singleTap", "kind": "tap", "cancelsTouchesInView": false,
                                    "requireToFail": ["doubleTap"],
                                    "targets": [["target": "RVC", "action": "single:"]]
                                ],
                                [
                                    "id": "doubleTap", "kind": "tap", "numberOfTapsRequired": 2,
                                    "targets": [["target": "RVC", "action": "double:"]]
                                ]
                            ]
                        ]
                    ]
                ]
            ])
        let tap = try t.run(["tap", "50", "50"])
        #expect(tap.status == 0, "\(tap)")
        #expect(
            tap.lines == [
                "touch tap-1 began on A: touchesBegan: A → R → RVC → W → app → AD, discarded (no responder handled it)",
                "touch tap-1 ended on A: touchesEnded held by singleTap, doubleTap (G9)",
                "gesture singleTap waits for doubleTap to fail (G5)"
            ])
        let waiting = try t.run(["clock"])
        // The touch whose ended is held stays live until its view gets it; the single tap waits.
        #expect(
            Array(waiting.lines.prefix(5)) == [
                "clock 0 s",
                "RECOGNIZER  KIND  VIEW  STATE     TOUCHES  WAITING FOR",
                "doubleTap   tap   A     possible",
                "singleTap   tap   A     possible           doubleTap",
                "TOUCH  PHASE  VIEW  CLIENT      HELD BY"
            ], "\(waiting)")
        #expect(
            waiting.lines.count == 6 && waiting.lines[5].hasPrefix("tap-1  ended  A ")
                && waiting.lines[5].hasSuffix("  singleTap, doubleTap"), "\(waiting)")
        // The tap interval passes: the double tap gives up, the single tap recognizes and the view gets its ended.
        let advanced = try t.run(["clock", "--by", "0.5"])
        #expect(advanced.status == 0, "\(advanced)")
        #expect(
            advanced.lines == [
                "clock 0 → 0.5 s",
                "  gesture doubleTap: possible → failed (G11, timed-out)",
                "  gesture singleTap: possible → recognized (G5, required-failed)",
                "  action single: singleTap → RVC, performed (G3)",
                "  touch tap-1 ended on A: touchesEnded: A → R → RVC → W → app → AD, discarded (no responder handled it) (released, G9)",
                "  gesture singleTap: recognized → possible (G2, reset)",
                "  gesture doubleTap: failed → possible (G2, reset)"
            ])
    }

    @Test func dragSendsOneTouchAlongTheLineOverTheDuration() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "tree.apply",
            [
                "ops": [
                    ["op": "update", "id": "RVC", "set": ["handles": ["panned:": "handle"]]],
                    [
                        "op": "update", "id": "R",
                        "set": [
                            "gestureRecognizers": [
                                ["id": "pan", "kind": "pan", "targets": [["target": "RVC", "action": "panned:"]]]
                            ]
                        ]
                    ]
                ]
            ])
        let r = try t.run(["drag", "50", "50", "150", "50", "--steps", "2", "--duration", "0.4"])
        #expect(r.status == 0, "\(r)")
        let chain = "A → R → RVC → W → app → AD, discarded (no responder handled it)"
        #expect(
            r.lines == [
                "touch drag-1 began on A: touchesBegan: \(chain)",
                // The move that makes the pan begin goes to the recognizer first (G1); the view gets touchesCancelled (G7).
                "touch drag-1 moved on A: touchesMoved not delivered (cancelled-by-gesture, G7)",
                "  gesture pan: possible → began (G2, threshold)",
                "  touch drag-1 cancelled on A: touchesCancelled: \(chain) (cancelled-by-gesture, G7)",
                "  action panned: pan → RVC, performed (G3)",
                "touch drag-1 moved on A: touchesMoved not delivered (cancelled-by-gesture, G7)",
                "  gesture pan: began → changed (G2, moved)",
                "  action panned: pan → RVC, performed (G3)",
                "touch drag-1 ended on A: touchesEnded not delivered (cancelled-by-gesture, G7)",
                "  gesture pan: changed → ended (G2, touches-ended)",
                "  action panned: pan → RVC, performed (G3)",
                "  gesture pan: ended → possible (G2, reset)"
            ], "\(r)")
        // The times were spread over the duration from the clock: the clock now reads its end.
        #expect(try t.run(["clock"]).lines.first == "clock 0.4 s")
        // The next drag starts at the clock and ends 0.25 s (the default) later.
        #expect(try t.run(["drag", "10", "10", "20", "10", "--steps", "1"]).status == 0)
        #expect(try t.run(["clock"]).lines.first == "clock 0.65 s")
        // Bad input is refused before anything is sent.
        let steps = try t.run(["drag", "1", "2", "3", "4", "--steps", "0"])
        #expect(steps.status == 64)
        #expect(steps.stderr.contains("--steps must be at least 1, got 0"), "\(steps)")
        let duration = try t.run(["drag", "1", "2", "3", "4", "--duration", "-1"])
        #expect(duration.status == 64)
        #expect(duration.stderr.contains("--duration must be 0 or more seconds, got -1"), "\(duration)")
        #expect(try t.run(["clock"]).lines.first == "clock 0.65 s")
    }

    @Test func pressHoldRecognizesALongPressThatCancelsTheViewsTouch() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "tree.apply",
            [
                "ops": [
                    ["op": "update", "id": "RVC", "set": ["handles": ["held:": "handle"]]],
                    [
                        "op": "update", "id": "A",
                        "set": [
                            "gestureRecognizers": [
                                ["id": "hold", "kind": "longPress", "targets": [["target": "RVC", "action": "held:"]]]
                            ]
                        ]
                    ]
                ]
            ])
        let chain = "A → R → RVC → W → app → AD, discarded (no responder handled it)"
        let r = try t.run(["press-hold", "50", "50", "--duration", "0.6"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.lines == [
                "touch hold-1 began on A: touchesBegan: \(chain)",
                "clock 0 → 0.6 s",
                "  gesture hold: possible → began (G11, duration-elapsed)",
                "  touch hold-1 cancelled on A: touchesCancelled: \(chain) (cancelled-by-gesture, G7)",
                "  action held: hold → RVC, performed (G3)",
                "touch hold-1 ended on A: touchesEnded not delivered (cancelled-by-gesture, G7)",
                "  gesture hold: began → ended (G2, touches-ended)",
                "  action held: hold → RVC, performed (G3)",
                "  gesture hold: ended → possible (G2, reset)"
            ], "\(r)")
        // Too short a hold: the long press fails when the finger lifts, and the view gets every phase.
        let short = try t.run(["press-hold", "50", "50", "--duration", "0.2"])
        #expect(
            short.lines == [
                "touch hold-1 began on A: touchesBegan: \(chain)",
                "clock 0.6 → 0.8 s",
                "touch hold-1 ended on A: touchesEnded: \(chain)",
                "  gesture hold: possible → failed (G2, released-early)",
                "  gesture hold: failed → possible (G2, reset)"
            ], "\(short)")
        let json = try t.run(["press-hold", "50", "50", "--duration", "1", "--json"])
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout.contains("\"duration-elapsed\""))
        let negative = try t.run(["press-hold", "50", "50", "--duration", "-0.5"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--duration must be 0 or more seconds, got -0.5"), "\(negative)")
    }

    @Test func clockShowsAndAdvancesTheSessionClock() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        #expect(try t.run(["clock"]).lines == ["clock 0 s", "no gesture recognizers"])
        let by = try t.run(["clock", "--by", "1.5"])
        #expect(by.status == 0, "\(by)")
        #expect(by.lines == ["clock 0 → 1.5 s"])
        #expect(try t.run(["clock", "--to", "2"]).lines == ["clock 1.5 → 2 s"])
        let explained = try t.run(["clock", "--by", "0", "--explain"])
        #expect(explained.lines == ["clock 2 → 2 s", "trace (0 steps):"], "\(explained)")
        let back = try t.run(["clock", "--to", "1"])
        #expect(back.status == 1)
        #expect(back.stderr.contains("error: INVALID_PARAMS (-32602)"), "\(back)")
        #expect(back.stderr.contains("field: to"), "\(back)")
        let both = try t.run(["clock", "--by", "1", "--to", "3"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("give --by or --to, not both"), "\(both)")
        let negative = try t.run(["clock", "--by", "-1"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--by must be 0 or more seconds, got -1"), "\(negative)")
        // A touch phase may carry its time (G11): ID:PHASE:X,Y@SECONDS.
        #expect(try t.run(["touch", "7:began:50,50@3"]).status == 0)
        #expect(try t.run(["clock"]).lines.first == "clock 3 s")
        let early = try t.run(["touch", "7:ended@2.5"])
        #expect(early.status == 1)
        #expect(early.stderr.contains("field: touches[0].time"), "\(early)")
        #expect(try t.run(["touch", "7:ended@3.25"]).status == 0)
        #expect(try t.run(["clock"]).lines.first == "clock 3.25 s")
    }

    @Test func treeShowsRecognizersOnTheirViewsWithTheirLiveState() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "tree.apply",
            [
                "ops": [
                    [
                        "op": "update", "id": "A",
                        "set": [
                            "gestureRecognizers": [
                                [
                                    "id": "hold", "kind": "longPress", "minimumPressDuration": 1,
                                    "targets": [["target": "RVC", "action": "held:"]]
                                ],
                                [
                                    "id": "swipe", "kind": "swipe", "direction": ["left", "up"],
                                    "delaysTouchesEnded": false, "simultaneousWith": ["hold"]
                                ]
                            ]
                        ]
                    ]
                ]
            ])
        let idle = try t.run(["tree"])
        #expect(idle.status == 0, "\(idle)")
        #expect(
            idle.lines.contains(
                "         ├─ A  view  UIView  (0, 0, 300, 300)  ⟨longPress hold, minimumPressDuration 1 → RVC.held:⟩  ⟨swipe swipe, direction left+up, delaysTouchesEnded false, simultaneousWith hold⟩"
            ), "\(idle)")
        // The rest of the world draws as before.
        #expect(idle.lines.last == "         └─ B  control  UIButton  (10, 400, 100, 44)")
        // With a finger down, the snapshot's states show.
        #expect(try t.run(["touch", "1:began:50,50"]).status == 0)
        let live = try t.run(["tree"])
        #expect(
            live.lines.contains(
                "         ├─ A  view  UIView  (0, 0, 300, 300)  ⟨longPress hold possible (touches 1), minimumPressDuration 1 → RVC.held:⟩  ⟨swipe swipe possible (touches 1), direction left+up, delaysTouchesEnded false, simultaneousWith hold⟩"
            ), "\(live)")
        // tree --id draws from tree.get: the recognizers without live state.
        #expect(
            try t.run(["tree", "--id", "A"]).lines == [
                "A  view  UIView  (0, 0, 300, 300)  ⟨longPress hold, minimumPressDuration 1 → RVC.held:⟩  ⟨swipe swipe, direction left+up, delaysTouchesEnded false, simultaneousWith hold⟩"
            ])
        #expect(try t.run(["touch", "1:ended"]).status == 0)
    }
}

// MARK: - The CLI's words, as a new user meets them

extension CLIBinaryTests {
    @Test func negativeCoordinatesAreAccepted() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let tap = try t.run(["tap", "-5", "10"])
        #expect(tap.status == 0, "\(tap)")
        #expect(
            tap.lines == [
                "touch tap-1 began: delivered to no one (no-hit, H1)",
                "touch tap-1 ended: delivered to no one (no-hit, H1)"
            ])
        let hit = try t.run(["hit", "10", "-0.5", "--explain"])
        #expect(hit.status == 0, "\(hit)")
        #expect(hit.lines.first == "no view at (10, -0.5)")
        #expect(try t.run(["hit", "-1e1", "-.5"]).lines == ["no view at (-10, -0.5)"])
        // A drag from outside the window into it, and press-hold, take them too.
        let drag = try t.run(["drag", "-50", "100", "50", "100", "--steps", "1"])
        #expect(drag.status == 0, "\(drag)")
        #expect(drag.lines.count == 3)
        #expect(try t.run(["press-hold", "-5", "-5", "--duration", "0"]).status == 0)
        // After a flag as well; after an option that takes a value, the number is that option's (and refused).
        #expect(try t.run(["tap", "--explain", "-5", "10"]).status == 0)
        #expect(try t.run(["hit", "--json", "-5", "10"]).status == 0)
        let duration = try t.run(["press-hold", "50", "50", "--duration", "-1"])
        #expect(duration.status == 64)
        #expect(duration.stderr.contains("--duration must be 0 or more seconds, got -1"), "\(duration)")
        // `--` as before.
        #expect(try CLIRunner.run(["hit"] + t.target + ["--", "-5", "10"]).lines == ["no view at (-5, 10)"])
        // A value that is no number is still named, with the minus as typed.
        let bad = try t.run(["tap", "-5", "abc"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("The value 'abc' is invalid for '<y>'"), "\(bad)")
        let missing = try t.run(["tap", "-5"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Missing expected argument '<y>'"), "\(missing)")
        #expect(!(bad.stderr + missing.stderr).contains("\u{2212}"))
        #expect(try CLIRunner.run(["tap", "--help"]).stdout.contains("may be negative (responder tap -5 10)"))
    }

    @Test func sessionCreateTakesTheWorldFileAsAnArgument() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let world = try t.write(
            "w.json", #"{"tree": {"id": "app", "kind": "application", "children": [{"id": "W", "kind": "window"}]}}"#)
        let created = try t.run(["session", "create", "extra", world])
        #expect(created.status == 0, "\(created)")
        #expect(created.stdout.contains("created session extra"))
        #expect(
            try t.run(["tree", "--session", "extra"]).lines == [
                "app  application  UIApplication", "└─ W  window  UIWindow  (0, 0, 0, 0)"
            ])
        // --tree still works; stdin too.
        #expect(try t.run(["session", "create", "viaOption", "--tree", world]).status == 0)
        let stdin = try t.run(["session", "create", "viaStdin", "-"], stdin: #"{"id": "app", "kind": "application"}"#)
        #expect(stdin.status == 0, "\(stdin)")
        let both = try t.run(["session", "create", "other", world, "--tree", world])
        #expect(both.status == 64)
        #expect(both.stderr.contains("give the world file once: as FILE or with --tree, not both"), "\(both)")
        #expect(try CLIRunner.run(["session", "create", "--help"]).stdout.contains("<name> [<file>]"))
    }

    @Test func watchNamesTheActionOfAnActionTrace() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "tree.apply", ["ops": [["op": "update", "id": "RVC", "set": ["handles": ["save:": "handle"]]]]])
        let watch = try t.start(["watch", "--stream", "trace"])
        defer { watch.stop() }
        try watch.waitFor { $0.hasPrefix("following default") }
        #expect(try t.run(["action", "save:", "--sender", "A"]).status == 0)
        let line = try watch.waitFor { $0.contains(" action: ") }
        #expect(line == "#2 trace (responder) action: save: A → R → RVC, performed by RVC")
    }

    @Test func infoListsTheSessionsWithTheirSizes() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        _ = try t.engine.connect().call(
            "session.create",
            [
                "session": "extra",
                "tree": ["id": "app", "kind": "application", "children": [["id": "W", "kind": "window"]]]
            ])
        let r = try t.run(["info"])
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.contains("sessions  default  7 nodes, revision 2, seq 0"), "\(r)")
        #expect(r.lines.contains("          extra    2 nodes, revision 2, seq 1"), "\(r)")
        #expect(r.lines.contains { $0.hasPrefix("limits    ") })
    }

    @Test func clientsListsWatchButNotOneShotCommands() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        for command in [["tap", "50", "50"], ["tree"], ["first"], ["chain", "A"]] {
            #expect(try t.run(command).status == 0)
        }
        let watch = try t.start(["watch"])
        defer { watch.stop() }
        try watch.waitFor { $0.hasPrefix("following default") }
        let r = try t.run(["clients"])
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.count == 2, "\(r)")
        #expect(r.lines.last?.hasPrefix("responder watch  cli-watch  ") == true, "\(r)")
        // --all shows the one-shot commands too (this one included), as the engine lists them.
        let all = try t.run(["clients", "--all"])
        #expect(all.lines.filter { $0.hasPrefix("responder ") && $0.contains(" cli-one-shot ") }.count == 6, "\(all)")
        let kinds =
            try t.engine.connect().call("session.clients")["clients"]?.arrayValue?.compactMap {
                $0["kind"]?.stringValue
            } ?? []
        #expect(Set(kinds) == ["cli-one-shot", "cli-watch"])
    }

    @Test func completionScriptsWorkAsTheReadmeInstallsThem() throws {
        let readme = try String(contentsOfFile: CLIRunner.repository + "/docs/cli.md", encoding: .utf8)
        #expect(
            readme.contains(
                "responder --generate-completion-script bash > ~/.local/share/bash-completion/completions/responder"))
        #expect(readme.contains("responder --generate-completion-script zsh > ~/.zfunc/_responder"))
        let zsh = try CLIRunner.run(["--generate-completion-script", "zsh"])
        #expect(zsh.status == 0)
        #expect(zsh.stdout.hasPrefix("#compdef responder"))
        let bash = try CLIRunner.run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        let dir = "/tmp/cmp-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try bash.stdout.write(toFile: dir + "/responder", atomically: true, encoding: .utf8)
        // What bash does on `responder ta<Tab>` once the script is loaded.
        let script = """
            source \(dir)/responder && complete -p responder && \
            COMP_LINE="responder ta" COMP_POINT=12 COMP_WORDS=(responder ta) COMP_CWORD=1 && \
            _responder responder ta responder && echo "completions: ${COMPREPLY[*]}"
            """
        let shell = try CLIRunner.runTool("/bin/bash", ["-c", script])
        #expect(shell.status == 0, "\(shell)")
        #expect(shell.stdout.contains("complete -o filenames -F _responder responder"), "\(shell)")
        #expect(shell.stdout.contains("completions: tap"), "\(shell)")
    }
}

// MARK: - Support

/// The result of one run of the binary.
struct CLIResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
    var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

enum CLIRunner {
    /// The built `responder`: next to the test bundle (the products directory), else .build/debug.
    static let binary: String? = {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["RESPONDER_CLI"] { candidates.append(explicit) }
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("responder").path)
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("responder").path)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/responder").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The repository's root directory.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs another program (a shell) to completion; its output through files as `run`.
    static func runTool(_ path: String, _ arguments: [String], timeout: Double = patienceSeconds) throws -> CLIResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.environment = environment
        return try run(p, stdin: nil, timeout: timeout, what: ([path] + arguments).joined(separator: " "))
    }

    /// The child's environment: no RESPONDER_RPC/EVENTS, so only --dir/--name decide.
    static var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["RESPONDER_RPC"] = nil
        env["RESPONDER_EVENTS"] = nil
        return env
    }

    static func process(_ arguments: [String]) throws -> Process {
        guard let binary else {
            throw CLITestError("the responder binary was not found; build it with `swift build --product responder`")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        p.environment = environment
        return p
    }

    /// Runs to completion (killed after `timeout` seconds); output goes through files, so any size is fine.
    static func run(_ arguments: [String], stdin: String? = nil, timeout: Double = patienceSeconds) throws -> CLIResult
    {
        try run(
            try process(arguments), stdin: stdin, timeout: timeout,
            what: "responder " + arguments.joined(separator: " "))
    }

    static func run(_ p: Process, stdin: String?, timeout: Double, what: String) throws -> CLIResult {
        let dir = NSTemporaryDirectory() + "cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outPath = dir + "/out", errPath = dir + "/err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning, Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            throw CLITestError("\(what) did not finish within \(timeout) s")
        }
        p.waitUntilExit()
        try out.close()
        try err.close()
        let stdout = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        return CLIResult(status: p.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

/// A long-running `responder` (watch) whose output is read as it comes.
final class RunningCLI: @unchecked Sendable {
    private let process: Process
    private let lock = NSLock()
    private var buffer = Data()
    /// Reads the process's output as it comes; its end means everything the process wrote has been read.
    private var reader: PipeReader?

    init(_ arguments: [String]) throws {
        process = try CLIRunner.process(arguments)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        reader = PipeReader(pipe) { [weak self] data in
            guard let self else { return }
            self.lock.withLock { self.buffer.append(data) }
        }
    }

    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self)
    }

    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// Waits for a printed line matching `match` and returns it.
    @discardableResult
    func waitFor(timeout: Double = patienceSeconds, _ match: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.first(where: match) { return line }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        if let line = lines.first(where: match) { return line }
        throw CLITestError("no matching line within \(timeout) s; output so far:\n\(output)")
    }

    /// Its exit status once it exits by itself within `timeout` seconds, else nil.
    func waitForExit(timeout: Double = patienceSeconds) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { return nil }
        process.waitUntilExit()
        // The output is read on another thread: wait for its end so the last lines are in `output`.
        reader?.waitForEnd(timeout: patienceSeconds)
        return process.terminationStatus
    }

    /// Stops it the way Ctrl-C would (SIGINT), then makes sure.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(patienceSeconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// An in-process engine (TestEngine: own name, own short /tmp directory) with the Fixtures world, and
/// helpers to run the binary against it.
final class CLIEngine {
    let engine: LiveEngine
    var name: String { engine.name }
    var directory: String { engine.directory }

    init(world: JSON = Fixtures.world) throws {
        engine = try LiveEngine(world: world, tickMilliseconds: 1000)
    }

    var target: [String] { ["--dir", directory, "--name", name, "--timeout", "\(Int(patienceSeconds))"] }

    func run(_ arguments: [String], stdin: String? = nil) throws -> CLIResult {
        try CLIRunner.run(arguments + target, stdin: stdin)
    }

    func start(_ arguments: [String]) throws -> RunningCLI { try RunningCLI(arguments + target) }

    /// Writes a file into the engine's directory and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func stop() { engine.stop() }
}

struct CLITestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
