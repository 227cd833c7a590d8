import Foundation
import MCP
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderPicture
import ResponderProtocol

/// `draw` → `session.snapshot` (and `whyNot` or `hitTest`): the screen picture `responder draw` makes, as SVG
/// text and as a PNG image, so that a model that reads images sees the screen. The structured content is the
/// picture's size and, with `why`, whyNot's answer — not the world, which get_world gives.
package enum DrawTool: MCPTool {
    package static let name = "draw"
    package static let title = "Draw the screen"
    package static let description = """
        Draw the screen as the user sees it: every window a panel, every view its frame labelled with its id and \
        class, first responders outlined. With why (a view id): why_not's answer drawn over it — the view outlined \
        blue, the node to blame (the culprit: the ancestor with interaction off, the view in front, the \
        recognizer's view…) red, where a tap is the view's own filled green with one such point — and the answer in \
        words. With x and y: the hit test at that screen point (the views asked, the view hit, why the others were \
        passed over, H rules) and the responder chain of the view hit. Returns the picture as SVG text and as a \
        PNG image (rendered by headless Chromium; without it, the SVG alone and a line saying so). Changes nothing.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("why", ToolSchema.nodeID("Draw why this view does or does not get a tap (why_not's answer).")),
        ("x", ToolSchema.number("Draw the hit test at this screen x (with y).")),
        ("y", ToolSchema.number("Screen y, with x."))
    ]
    package static let required: [String] = []
    package static let readOnly = true

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        var params: JSON = ["session": .string(session)]
        let why = try arguments.optionalString("why")
        if let (x, y) = try arguments.optionalPoint("x", "y") {
            if why != nil { throw ToolArguments.invalid("why", "cannot be given with x and y: give one") }
            params = params.setting("point", [.number(x), .number(y)])
        }
        if let why { params = params.setting("view", .string(why)) }
        return EngineRequest(method: "session.snapshot", params: params, subject: why)
    }

    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        let session = request.params["session"] ?? "default"
        var overlay = Overlay()
        var answer: JSON?
        let snapshot = await engine.call("session.snapshot", ["session": session])
        guard case .success(let state) = snapshot else { return ToolCall(reply: snapshot, request: request) }
        let tree = state["tree"] ?? .null
        let scene = Scene(tree: tree)
        if let view = request.params["view"]?.stringValue {
            let asked = await engine.call(
                WhyNotRequest.method, ["session": session, "view": .string(view), "area": true])
            guard case .success(let reply) = asked, let typed = typed(WhyNotAnswer.self, reply) else {
                return ToolCall(reply: asked, request: EngineRequest(method: WhyNotRequest.method, params: [:]))
            }
            answer = reply
            overlay = OverlayReplies.why(typed, view: view, name: scene.label(view))
        } else if let point = request.params["point"], let xy = point.arrayValue, xy.count == 2,
            let x = xy[0].doubleValue, let y = xy[1].doubleValue
        {
            let hit = await engine.call("hitTest", ["session": session, "point": point])
            guard case .success(let result) = hit else { return ToolCall(reply: hit, request: request) }
            let path = HitPath(point: Point(x, y), result: result)
            overlay = Overlay(title: "hitTest at \(SVGText.point(x, y))", hit: path)
            if let view = path.view {
                let asked = await engine.call("responderChain", ["session": session, "id": .string(view)])
                if case .success(let reply) = asked {
                    let ids: [JSON] = reply["chain"]?.arrayValue ?? []
                    overlay.chain = ids.compactMap(\.stringValue)
                    overlay.chainTitle = "Responder chain of \(view)"
                }
            }
        }
        let svg: String
        do throws(PictureError) {
            svg = try Picture.svg(
                scene: scene, options: PictureOptions(), overlay: overlay,
                firstResponders: WorldState.firstResponders(state["firstResponders"]))
        } catch {
            return ToolCall(
                reply: .failure(.rpc(ToolArguments.invalid("session", error.description))), request: request)
        }
        let png = await rasterise(svg)
        var summary: [String] = overlay.why?.lines ?? []
        if let hit = overlay.hit {
            summary.append(
                "hit \(hit.view.map(scene.label) ?? "nothing") at \(SVGText.point(hit.point.x, hit.point.y))")
        }
        let size = PNGRaster.size(svg)
        switch png {
        case .success:
            summary.append("the picture: \(size.map { "\($0.0) × \($0.1) px" } ?? "") PNG and SVG below")
        case .failure(let failure):
            summary.append("the picture as SVG below; no PNG: \(failure.description)")
        }
        var reply: JSON = [
            "width": .number(Double(size?.0 ?? 0)), "height": .number(Double(size?.1 ?? 0)),
            "svgBytes": .number(Double(svg.utf8.count)), "png": .bool((try? png.get()) != nil)
        ]
        if let answer { reply = reply.setting("whyNot", answer) }
        var call = ToolCall(reply: .success(reply), request: request)
        var content: [Tool.Content] = [.text(text: summary.joined(separator: "\n"), annotations: nil, _meta: nil)]
        if case .success(let bytes) = png {
            content.append(
                .image(data: Data(bytes).base64EncodedString(), mimeType: "image/png", annotations: nil, _meta: nil))
        }
        content.append(.text(text: svg, annotations: nil, _meta: nil))
        call.content = content
        return call
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        "drew the screen of \(request.params["session"]?.stringValue ?? "the session")"
    }

    /// Chromium runs for a second or more: on a thread of its own, not on the concurrency pool.
    private static func rasterise(_ svg: String) async -> Result<[UInt8], PNGRaster.Failure> {
        await withCheckedContinuation { continuation in
            Thread {
                do throws(PNGRaster.Failure) {
                    continuation.resume(returning: .success(try PNGRaster.png(svg: svg)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }.start()
        }
    }
}
