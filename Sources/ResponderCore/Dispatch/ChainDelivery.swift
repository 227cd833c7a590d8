import ResponderProtocol

/// What a message did on its way up the responder chain.
struct ChainWalk {
    var visited: [String] = []
    var handledBy: [String] = []
    /// The control that took the message over (T3), if one did.
    var consumedBy: String?
    /// True when the message fell off the end of the chain (N3).
    var discarded = false
    /// The responder whose UIKit class's own implementation handled the message (K14: a cell), if one did.
    var classHandledBy: String?
}

/// Delivers `message` from `start` up the responder chain (T2, E1): a responder that does not handle it
/// passes it on; "handle+super" handles and passes it on; "handle" stops it there. `consumes` names
/// responders that take the message over instead (controls and touches, T3). Each hop's next responder
/// is computed when it is reached (N4). `classHandles` names responders whose UIKit class implements the message
/// and stops it (K14: a cell), with the rule: reached without an override of their own, or through one that
/// calls super, they handle it and the walk ends there; an override that does not call super keeps them out. It is
/// given the walk's world: a caller's closure that read its own would hold a copy of it for the walk.
func walkChain(
    _ message: String, from start: String?, world: World, responders: Responders, rule: Rule, tag: EventTag?,
    trace: inout Trace, consumes: (UnsafePointer<Node>) -> Bool = { _ in false },
    classHandles: (_ node: UnsafePointer<Node>, _ world: World) -> Rule? = { _, _ in nil }
) -> ChainWalk {
    var walk = ChainWalk()
    var seen = HopGuard()
    func step(_ to: String, _ disposition: Disposition, _ rule: Rule) -> TraceStep {
        .deliver(to: to, message: message, disposition: disposition, rule: rule, reason: nil, tag: tag)
    }
    // N4: a repeated responder ends the walk; so does a start that names none.
    func cut() -> ChainWalk {
        trace.discard(message, reason: .cycle, rule: .n4, tag: tag)
        walk.discarded = true
        return walk
    }
    // The responder that ends the walk handled the message. The first one asked, the usual (a touch's control),
    // makes both lists that one id: they share one buffer rather than allocate two.
    func handledLast(_ id: String) {
        if walk.handledBy.isEmpty && walk.visited.count == 1 {
            walk.handledBy = walk.visited
        } else {
            walk.handledBy.append(id)
        }
    }
    var current: Responders.Hop?
    if let start {
        guard let first = responders.hop(start, in: world) else { return cut() }
        current = first
    }
    while let hop = current {
        guard seen.firstPass(hop) else { return cut() }
        let id = hop.id
        // A responder that consumes the message is not asked whether its class handles it.
        let (consumed, handling, classRule) = responders.read(hop, in: world) { node -> (Bool, HandleMode?, Rule?) in
            let handling = node.pointee.spec.handling(message)
            if consumes(node) { return (true, handling, nil) }
            return (false, handling, handling == .handle ? nil : classHandles(node, world))
        }
        walk.visited.append(id)
        if consumed {
            handledLast(id)
            walk.consumedBy = id
            trace.add(step(id, .consumedByControl, .t3))
            return walk
        }
        if let classRule {
            handledLast(id)
            walk.classHandledBy = id
            trace.add(step(id, handling == .handleAndSuper ? .handledAndSuper : .handled, classRule))
            return walk
        }
        switch handling {
        case .handle?:
            handledLast(id)
            trace.add(step(id, .handled, rule))
            return walk
        case .handleAndSuper?:
            walk.handledBy.append(id)
            trace.add(step(id, .handledAndSuper, rule))
        case nil:
            trace.add(step(id, .notHandled, rule))
        }
        current = responders.next(of: hop, in: world)
    }
    // N3: the end of the chain; the event is discarded and the trace says so.
    trace.discard(message, reason: .endOfChain, rule: .n3, tag: tag)
    walk.discarded = true
    return walk
}
