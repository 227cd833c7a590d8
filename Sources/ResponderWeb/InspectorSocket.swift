import FlyingFox
import Foundation
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderPicture
import ResponderProtocol

/// One page's WebSocket: the inspector's messages out; the page's requests in — `hit` and `tap` at a screen
/// point, `select` a node (its fields, chain and why-not), `scrub` to an event (or back to live),
/// `openProfile` (the session's tree copied into a new session under the other profile, then followed) — each
/// answered on this socket alone. A `hit` with `follow` asks again at the point of an overlay the page drew
/// before the tree changed; the reply carries `follow` back so the page can drop an answer it no longer needs.
package struct InspectorSocket: WSMessageHandler {
    package let inspector: Inspector
    package let requests: EngineThread

    /// `requests` carries the page's hit tests, taps and chains (a thread of its own, not the feed's).
    package init(inspector: Inspector, requests: EngineThread) {
        self.inspector = inspector
        self.requests = requests
    }

    package func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (out, continuation) = AsyncStream<WSMessage>.makeStream()
        let id = inspector.attach(continuation)
        Task {
            for await message in client {
                guard case .text(let text) = message, let request = try? JSONCodec.decode(Array(text.utf8)) else {
                    continue
                }
                for reply in await handle(request) { continuation.yield(.text(JSONCodec.encodeString(reply))) }
            }
            inspector.detach(id)
            continuation.finish()
        }
        return out
    }

    private func handle(_ request: JSON) async -> [JSON] {
        let session = inspector.session
        do throws(ClientError) {
            switch request["type"]?.stringValue {
            case "hit", "tap":
                guard let x = request["x"]?.doubleValue, let y = request["y"]?.doubleValue, x.isFinite, y.isFinite
                else {
                    return [failure("\(request["type"]!.stringValue!) needs x and y")]
                }
                let tap = request["type"]?.stringValue == "tap"
                // Android has no hit test: a click draws its search for the DOWN's consumer, a dry run of the tap.
                let android = inspector.profile == "android"
                var overlay = try await requests.perform { connection throws(ClientError) in
                    if android {
                        return try AndroidOverlay.tap(connection, session: session, point: Point(x, y), dryRun: !tap)
                    }
                    return tap
                        ? try OverlayReplies.tap(connection, session: session, point: Point(x, y), dryRun: false)
                        : try OverlayReplies.hit(connection, session: session, point: Point(x, y))
                }
                if android && !tap { overlay.title = "Android's search at \(SVGText.point(x, y)) (event.tap, dry run)" }
                if !tap, let follow = request["follow"]?.intValue {
                    overlay.title =
                        (android ? "Android's search" : "hitTest")
                        + " at \(SVGText.point(x, y)), asked again: the tree changed"
                    overlay.notes.append(
                        Self.followNote(was: request["was"]?.stringValue, seq: request["seq"]?.intValue))
                    return [inspector.overlayMessage(overlay, source: "follow").setting("follow", JSON(follow))]
                }
                return [inspector.overlayMessage(overlay, source: tap ? "tap" : "hit")]
            case "select":
                guard let id = request["id"]?.stringValue else { return [failure("select needs id")] }
                let chain =
                    inspector.profile == "android"
                    ? []
                    : try? await requests.perform { connection throws(ClientError) in
                        try OverlayReplies.chain(connection, session: session, id: id)
                    }
                return [
                    [
                        "type": "node", "id": .string(id), "fields": inspector.node(id) ?? .null,
                        "chain": JSON((chain ?? [])), "why": await why(id)
                    ]
                ]
            case "scrub":
                return inspector.scrub(to: request["seq"]?.intValue)
            case "openProfile":
                // The same tree under the other dispatch model: a new session, which the page then follows.
                guard let profile = request["profile"]?.stringValue, ["uikit", "android"].contains(profile) else {
                    return [failure("openProfile needs profile: uikit or android")]
                }
                let copy = try await requests.perform { connection throws(ClientError) in
                    let state = try WorldState.fetch(connection, session: session)
                    return try OverlayReplies.copy(connection, state: state, profile: profile, base: session)
                }
                inspector.follow(copy)
                return [
                    ["type": "opened", "session": .string(copy), "profile": .string(profile), "from": .string(session)]
                ]
            default:
                return [failure("unknown request type")]
            }
        } catch {
            if case .rpc(let e) = error { return [failure(Output.describe(e))] }
            return [failure(error.description)]
        }
    }

    /// `whyNot` about the view anywhere on it (a touch question), with the area where a tap is its own, as the why
    /// panel shows it; `{error}` when
    /// the engine refuses the question.
    private func why(_ id: String) async -> JSON {
        let session = inspector.session
        do throws(ClientError) {
            let raw = try await requests.perform { connection throws(ClientError) in
                try connection.call(
                    WhyNotRequest.method, ["session": .string(session), "view": .string(id), "area": true])
            }
            guard let answer = try? WireDecoder.decode(WhyNotAnswer.self, from: raw, strict: false) else {
                return ["error": "the engine's whyNot answer does not read as one"]
            }
            return inspector.whyMessage(answer, raw: raw, view: id)
        } catch {
            if case .rpc(let e) = error {
                // Under android the engine refuses the question (12.10): a note about the model, not a failure.
                if e.detail("profile")?.stringValue == "android", e.detail("field")?.stringValue == "method" {
                    return [
                        "note": "why-not answers UIKit's rules; this session runs android",
                        "refusal": .string(e.message)
                    ]
                }
                return ["error": .string(Output.describe(e))]
            }
            return ["error": .string(error.description)]
        }
    }

    /// What a followed overlay says of the one it replaces.
    static func followNote(was: String?, seq: Int?) -> String {
        let what = was ?? "the last overlay"
        if let seq {
            return "\(what) was drawn on the world before the tree changed: this is a hit test at the same point "
                + "on the world as it is now (scrub to #\(seq) to see it as it happened)."
        }
        return "\(what) was drawn on the world before the tree changed: this is a hit test at the same point on "
            + "the world as it is now."
    }

    private func failure(_ message: String) -> JSON { ["type": "error", "message": .string(message)] }
}
