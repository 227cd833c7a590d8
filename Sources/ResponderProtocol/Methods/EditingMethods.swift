/// `responder.endEditing` (F8): UIView.endEditing(_ force:) on a view or window.
public struct EndEditingRequest: SessionRequest, DryRunnable, TraceSelecting {
    public static let method = "responder.endEditing"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var id: String
    /// true: the first responder is not asked (canResignFirstResponder, shouldEndEditing); default false.
    public var force: Bool?
    public init(session: String?, id: String, force: Bool? = nil, trace: TraceDetail? = nil) {
        self.session = session
        self.id = id
        self.force = force
        self.trace = trace
    }
    public typealias Response = Published<Traced<FocusOutcome>>
}
