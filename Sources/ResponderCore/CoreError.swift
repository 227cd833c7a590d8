import ResponderProtocol

/// What went wrong when a world or a session refused a change or a question: the rule broken, the node it
/// concerns and the field that named it. Field paths are those of the request's params as the core reads them
/// ("id", "set.alpha", "tree.children[0].id"); where the request nests them, the wrapping cases say so
/// (`inOp` puts them under "ops[i]."), so no caller rewrites another's path. The server turns these into
/// JSON-RPC errors in one place.
public indirect enum CoreError: Error, Sendable, Equatable {
    // MARK: Nodes

    /// `id`, read from `field`, names no node (or cannot be a node id at all).
    case noNode(String, field: String)
    /// `id` is a `kind` where the request needs a window.
    case notAWindow(String, kind: NodeKind, field: String?)
    /// A window that is not in the application's tree cannot be key.
    case detachedWindow(String)

    // MARK: Batches and loads

    /// `ifRevision` did not match the tree's revision.
    case revisionConflict(revision: Int, expected: Int)
    /// `ifNodeRevision` did not match node `id`'s revision.
    case nodeRevisionConflict(String, revision: Int, expected: Int)
    /// More ops than one batch may hold.
    case tooManyOps(max: Int)
    /// The session would hold more nodes than it may.
    case tooManyNodes(max: Int)
    /// Node `id` would sit deeper than the tree may go.
    case tooDeep(String, max: Int)
    /// A document's root is a `kind`, not the application.
    case rootNotApplication(String, kind: NodeKind, field: String)
    /// A document's application has an id other than "app".
    case applicationID(String, field: String)
    /// A node with `id` exists already (or twice in what is inserted).
    case duplicateID(String, field: String)
    /// `id` may not sit under `parent` (nil: detached).
    case misplaced(String, parent: String?, rule: KindRule)
    /// The application stays where it is.
    case applicationFixed(String, removal: Bool)
    /// `index` is outside the `count` places there are.
    case indexOutOfRange(Int, count: Int)
    /// Moving `id` under `parent`, one of its own descendants.
    case cycle(String, parent: String)
    /// An update sets `set.<field>`, which a `kind` does not have.
    case fieldNotApplicable(String, field: String, kind: NodeKind)
    /// After an update, `set.<field>` disagrees with the node's class (`reason` says how).
    case classMismatch(String, field: String, reason: String)
    /// A rule about siblings and counts that the finished batch breaks at node `id`.
    case brokenInvariant(String, rule: InvariantRule)
    /// More than one window is key; `id` is the second of `keys`.
    case severalKeyWindows(keys: [String])
    /// A gesture recognizer of node `id`, at `field`, is refused.
    case recognizer(String, field: String, problem: RecognizerProblem)

    // MARK: Events

    /// A touch's `began` comes without a point.
    case touchPointMissing
    /// A touch or tap's `time` is before the session clock; `touch` is its index in the request's touches
    /// (nil: the tap's own `time`).
    case timeBeforeClock(Double, clock: Double, touch: Int?)
    /// `clock.advance` would move the clock to `target`, before `clock`.
    case clockBackwards(Double, clock: Double)
    /// `touch` is held by `client` (`reason` says how).
    case touchInUse(EventID, client: String, reason: InUse)
    case touchNotFound(EventID)
    /// `press` is held by `client` (`reason` says how).
    case pressInUse(EventID, client: String, reason: InUse)
    case pressNotFound(EventID)
    /// The session's dispatch model does not carry out this input (`what` says which, with the rules' ids).
    case notModelled(String, model: DispatchModelName, field: String)
    /// AX4: `item` is not in the context menu the long press on `view` shows (`items`).
    case notInMenu(String, view: String, items: [String])

    // MARK: Where

    /// The error of op `index` of a batch: its field paths are under "ops[index]".
    case inOp(Int, CoreError)
    /// A rule the finished batch breaks, at a node op `index` was the last to touch.
    case afterOp(Int, CoreError)
    /// The error of entry `index` of a touch request's touches.
    case inTouch(Int, CoreError)

    /// Why a touch or press cannot be used.
    public enum InUse: Sendable, Equatable {
        /// It began and has not ended.
        case live
        /// It ended, but recognizers still hold back its view's phases (G9).
        case heldByRecognizers
        /// It belongs to another client.
        case otherClient
    }

    /// Why a gesture recognizer is refused.
    public enum RecognizerProblem: Sendable, Equatable {
        /// `recognizer` is the id of scroll view `scrollView`'s built-in pan (K8).
        case builtInPan(recognizer: String, scrollView: String)
        /// `recognizer` is attached to `owner` already.
        case idInUse(recognizer: String, owner: String)
        /// A reference to a recognizer that does not exist.
        case unknownReference(recognizer: String)
    }

    /// Which kind may sit under which.
    public enum KindRule: Sendable, Equatable {
        case cannotBeDetached(NodeKind)
        case onlyOneApplication
        case applicationHolds
        case appDelegateHoldsNothing
        case windowHolds
        case viewControllerHolds
        case cannotHold(parent: NodeKind, child: NodeKind)

        public var message: String {
            switch self {
            case .cannotBeDetached(let kind): return "a \(kind.rawValue) cannot be detached"
            case .onlyOneApplication: return "there is exactly one application, the root"
            case .applicationHolds: return "the application holds only windows and one appDelegate"
            case .appDelegateHoldsNothing: return "an appDelegate has no children"
            case .windowHolds: return "a window holds a root viewController, presented viewControllers and views"
            case .viewControllerHolds: return "a viewController holds exactly its root view"
            case .cannotHold(let parent, let child): return "a \(parent.rawValue) cannot hold a \(child.rawValue)"
            }
        }
    }

    /// Rules that depend on siblings and fields, checked once a batch is complete.
    public enum InvariantRule: Sendable, Equatable {
        case severalAppDelegates
        case severalRootViewControllers(window: String, roots: [String])
        /// A view controller holds `count` children, not exactly its root view.
        case viewControllerChildren(String, count: Int)
        /// The view controller under `id` (its root view) has a sibling.
        case viewControllerSibling(String)
        case presentedOutsideWindow(String)
        /// `presentedBy` names itself or no view controller.
        case presenterNotViewController
    }
}

extension CoreError {
    /// The node the error is about, when it names one.
    public var node: String? {
        switch self {
        case .noNode(let id, _), .notAWindow(let id, _, _), .detachedWindow(let id),
            .nodeRevisionConflict(let id, _, _),
            .tooDeep(let id, _), .rootNotApplication(let id, _, _), .applicationID(let id, _), .duplicateID(let id, _),
            .misplaced(let id, _, _), .applicationFixed(let id, _), .cycle(let id, _),
            .fieldNotApplicable(let id, _, _),
            .classMismatch(let id, _, _), .brokenInvariant(let id, _), .recognizer(let id, _, _),
            .notInMenu(_, let id, _):
            return id
        case .severalKeyWindows(let keys): return keys.count > 1 ? keys[1] : nil
        case .inOp(_, let inner), .afterOp(_, let inner), .inTouch(_, let inner): return inner.node
        case .revisionConflict, .tooManyOps, .tooManyNodes, .indexOutOfRange, .touchPointMissing, .timeBeforeClock,
            .clockBackwards, .touchInUse, .touchNotFound, .pressInUse, .pressNotFound, .notModelled:
            return nil
        }
    }

    /// The error without the batch, op or touch it happened in.
    public var unlocated: CoreError {
        switch self {
        case .inOp(_, let inner), .afterOp(_, let inner), .inTouch(_, let inner): return inner.unlocated
        default: return self
        }
    }
}
