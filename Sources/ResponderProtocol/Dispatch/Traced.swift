/// An outcome with the trace that explains it. On the wire (12.2) the outcome's members come first, then
/// `trace: {kind, steps, outcome}` whose `outcome` repeats them.
public struct Traced<Outcome: Codable & Sendable>: Sendable, Codable {
    public var outcome: Outcome
    public var trace: Trace

    public init(_ outcome: Outcome, trace: Trace) {
        self.outcome = outcome
        self.trace = trace
    }

    private enum Key: String, CodingKey { case trace, kind, steps, outcome }

    public func encode(to encoder: any Encoder) throws {
        try outcome.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(TraceBody(self), forKey: .trace)
    }

    public init(from decoder: any Decoder) throws {
        outcome = try Outcome(from: decoder)
        let c = try decoder.container(keyedBy: Key.self)
        let body = try c.nestedContainer(keyedBy: Key.self, forKey: .trace)
        trace = Trace(
            kind: try body.decode(TraceKind.self, forKey: .kind),
            steps: try body.decode([TraceStep].self, forKey: .steps))
    }

    /// The trace as published on `<session>/trace`: `{kind, steps, outcome}`.
    public struct TraceBody: Codable {
        let traced: Traced
        init(_ traced: Traced) { self.traced = traced }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(traced.trace.kind, forKey: .kind)
            try c.encode(traced.trace.steps, forKey: .steps)
            try c.encode(traced.outcome, forKey: .outcome)
        }
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            traced = Traced(
                try c.decode(Outcome.self, forKey: .outcome),
                trace: Trace(
                    kind: try c.decode(TraceKind.self, forKey: .kind),
                    steps: try c.decode([TraceStep].self, forKey: .steps)))
        }
    }

    public var traceBody: TraceBody { TraceBody(self) }
}

extension Traced: Equatable where Outcome: Equatable {}

/// A reply to a request that published events: its members, then the session's `seq` after the request and
/// the range its events were published under (`null` when it published none). A dry run's reply (1.5) ends with
/// `dryRun: true`.
public struct Published<Base: Codable & Sendable>: Sendable, Codable {
    public var base: Base
    /// Tree changes and window.makeKey report the session's revision.
    @OmitNil public var revision: Int?
    public var seq: Int
    public var seqRange: [Int]?
    /// A dry tree.apply's `trace` (12.6): the treeChange trace its batch would publish, when it would have
    /// dispatch consequences. It follows `seqRange`, where a dispatch's own trace is among its base's members.
    public var consequences: Traced<TreeChangeOutcome>?
    /// Whether the request was a dry run: encoded only when true, as only a dry run's reply has the member.
    public var dryRun: Bool

    public init(
        _ base: Base, revision: Int? = nil, seq: Int, seqRange: [Int]?, consequences: Traced<TreeChangeOutcome>? = nil,
        dryRun: Bool = false
    ) {
        self.base = base
        self.revision = revision
        self.seq = seq
        self.seqRange = seqRange
        self.consequences = consequences
        self.dryRun = dryRun
    }

    private enum Key: String, CodingKey { case revision, seq, seqRange, trace, dryRun }

    public func encode(to encoder: any Encoder) throws {
        try base.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        if let revision { try c.encode(revision, forKey: .revision) }
        try c.encode(seq, forKey: .seq)
        try c.encodeIfPresent(seqRange, forKey: .seqRange)
        if let consequences { try c.encode(consequences.traceBody, forKey: .trace) }
        if dryRun { try c.encode(true, forKey: .dryRun) }
    }

    public init(from decoder: any Decoder) throws {
        base = try Base(from: decoder)
        let c = try decoder.container(keyedBy: Key.self)
        revision = try c.decodeIfPresent(Int.self, forKey: .revision)
        seq = try c.decode(Int.self, forKey: .seq)
        seqRange = try c.decodeIfPresent([Int].self, forKey: .seqRange)
        // A traced base owns its `trace`; only a tree change's reply (no members of its own) has consequences.
        consequences =
            Base.self == Empty.self
            ? try c.decodeIfPresent(Traced<TreeChangeOutcome>.TraceBody.self, forKey: .trace)?.traced : nil
        dryRun = try c.decodeIfPresent(Bool.self, forKey: .dryRun) ?? false
    }
}

/// A reply with no members of its own (tree.load and tree.apply answer only revision and seq).
public struct Empty: Sendable, Codable, Equatable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws { _ = encoder.container(keyedBy: WirePathKey.self) }
}
