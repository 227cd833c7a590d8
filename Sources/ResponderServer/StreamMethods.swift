import ResponderJSON
import ResponderProtocol

/// trace.replay: the events of a session after a seq, point to point, from the replay ring.
enum StreamMethods {
    static let maxPerReply = 10_000

    static func register(_ table: inout MethodTable) {
        table.add(TraceReplayRequest.self, replay)
    }

    static func replay(_ r: TraceReplayRequest, _ host: SessionHost, _ ctx: inout RequestContext) throws(RPCError)
        -> any ResponseBody<TraceReplayRequest.Response>
    {
        let after = r.after
        // Section 14.1: the world the session started with is in no event, so the events after 0 are not its
        // history from the bare application; the client must start from a snapshot. Said even before any event.
        if after == 0, host.worldBeforeFirstEvent {
            throw RPCError(
                .replayExpired,
                "the session started with a world that is in no event (responderd --world): replaying from seq 0 cannot rebuild it; take a new session.snapshot",
                [("oldest", JSON(1)), ("seq", JSON(host.seq)), ("session", .string(host.name))])
        }
        guard after < host.seq else {
            return EncodedResponse(
                JSONCodec.encode(["session": .string(host.name), "seq": JSON(host.seq), "events": [], "complete": true])
            )
        }
        let oldest = host.log.oldestSeq ?? host.seq + 1
        guard after + 1 >= oldest else {
            throw RPCError(
                .replayExpired,
                "events after \(after) are no longer held (the oldest is \(oldest)); take a new session.snapshot",
                [("oldest", JSON(oldest)), ("seq", JSON(host.seq)), ("session", .string(host.name))])
        }
        let entries = host.log.entries(after: after, limit: min(r.limit ?? maxPerReply, maxPerReply))
        // Events are kept encoded: the reply embeds them as they were published.
        var w = JSONWriter(reservingCapacity: entries.reduce(64) { $0 + $1.body.count + 32 })
        w.beginObject()
        w.key("session"); w.string(host.name)
        w.key("seq"); w.number(Double(host.seq))
        w.key("events")
        w.beginArray()
        for e in entries {
            w.beginObject()
            w.key("topic"); w.string(String(decoding: e.topic, as: UTF8.self))
            w.key("event"); w.raw(e.body)
            w.endObject()
        }
        w.endArray()
        // More remain when the reply was capped: the client asks again after the last seq it got.
        w.key("complete"); w.bool((entries.last?.seq ?? after) >= host.seq)
        w.endObject()
        return EncodedResponse(w.takeBytes())
    }
}
