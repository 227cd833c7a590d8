import ResponderJSON

/// The queries' replies under `trace: "none"` (12.2, 1.8): the answer without the members that only restate
/// the trace's steps, written straight to bytes so that nothing dropped is encoded. Byte for byte the full
/// reply's members of the same names (the tests compare the two).
extension HitTestOutcome {
    /// `{window, view, localPoint}`: `visited` is the trace's `hitTest` steps (H8) again.
    public var untracedReply: [UInt8] {
        var w = JSONWriter(reservingCapacity: 96)
        writeUntracedReply(to: &w)
        return w.takeBytes()
    }

    /// `untracedReply`'s text, written into `w` (a reply's envelope, as its result).
    public func writeUntracedReply(to w: inout JSONWriter) {
        w.beginObject()
        writeAnswer(to: &w)
        w.endObject()
    }
}

extension CanPerformOutcome {
    /// `{available, by, editingCommand}`: `visited` is the A3/A4 walk the trace's `deliver` steps show.
    public var untracedReply: [UInt8] {
        var w = JSONWriter(reservingCapacity: 96)
        w.beginObject()
        w.key(static: "available"); w.bool(available)
        w.key(static: "by"); w.string(orNull: by)
        w.key(static: "editingCommand"); w.bool(editingCommand)
        w.endObject()
        return w.takeBytes()
    }
}
