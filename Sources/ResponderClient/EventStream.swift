/// The streams of a session's events (Protocol/README.md 13.1): the topics `<session>/tree`, `/trace`, `/focus`.
public enum EventStream: String, CaseIterable, Sendable {
    case tree, trace, focus
}

extension EngineEvent {
    /// The event's stream, when it is one of a session's.
    public var eventStream: EventStream? { stream.flatMap(EventStream.init(rawValue:)) }
}
