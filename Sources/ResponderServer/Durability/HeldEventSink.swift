/// Holds a group's events until its changes are committed: no subscriber ever sees an event for a change
/// that a crash could still undo. Outside a group events go straight through (ticks).
final class HeldEventSink: EventSink {
    private let next: EventSink
    private var held: [(topic: [UInt8], body: [UInt8])] = []
    var holding = false

    init(_ next: EventSink) { self.next = next }

    func mayDeliver(topic: [UInt8]) -> Bool { next.mayDeliver(topic: topic) }
    func drainSubscriptions() { next.drainSubscriptions() }

    func send(topic: [UInt8], body: [UInt8]) {
        if holding { held.append((topic, body)) } else { next.send(topic: topic, body: body) }
    }

    /// Sends what was held (after the commit) and stops holding.
    func release() {
        holding = false
        for e in held { next.send(topic: e.topic, body: e.body) }
        held.removeAll()
    }

    /// Drops what was held (the commit failed: those changes were never acknowledged).
    func discard() {
        holding = false
        held.removeAll()
    }
}
