import ResponderJSON
import ResponderProtocol

/// The hit test's questions of one view that do not depend on the point, answered once when the node is
/// written and kept by the node table beside its slot (`NodeTable.hitRecord(atSlot:)`): one word of bits, no
/// reference. A view asked reads them as a C walk reads its flag arrays; the fields behind them live in the
/// node's spec, several in its boxed extras, and reading each there for every view asked would cost more than
/// the rest of asking the view.
///
/// The frame and bounds origin are not copied here: they are inline in the node, one load each through its
/// address, and 48 bytes more per slot would take a million-view world past its 250 bytes per view. A
/// transform or hit-area insets are rare: the record says a view has one, and the test reads it from the node.
struct HitRecord: Equatable {
    var bits: UInt32 = 0

    static let never: UInt32 = 1 << 0
    static let hidden: UInt32 = 1 << 1
    /// H2's alpha test under each profile's boundary (`Profile.isHittable(alpha:)`).
    static let hittableInclusive: UInt32 = 1 << 2
    static let hittableExclusive: UInt32 = 1 << 3
    static let interactionDisabled: UInt32 = 1 << 4
    /// K1: the node does not set `userInteractionEnabled` (its class decides).
    static let interactionUnset: UInt32 = 1 << 5
    /// K10: `animatingAllowsInteraction` is false.
    static let animatingRefuses: UInt32 = 1 << 6
    /// H7: a control that is not enabled.
    static let disabledControl: UInt32 = 1 << 7
    static let hasInsets: UInt32 = 1 << 8
    /// A transform other than the identity: H4 converts through it (read from the node).
    static let hasTransform: UInt32 = 1 << 9
    static let redirectWhenNil: UInt32 = 1 << 10
    static let redirectWhenSelf: UInt32 = 1 << 11
    static let passThroughSelf: UInt32 = 1 << 12
    static let viewController: UInt32 = 1 << 13
    /// A view that a superview asks (`NodeKind.isSubviewKind`).
    static let subviewKind: UInt32 = 1 << 14
    /// The node's id needs no escape in JSON text (`JSONWriter.needsNoEscape`): a hit test's reply copies it
    /// between its quotes with no check of its bytes, for each visit of the node.
    static let plainID: UInt32 = 1 << 15

    /// The bits `exclusion` reads before the point test: when none is set, a view goes on to its point test.
    static let excluding: UInt32 =
        never | hidden | interactionDisabled | animatingRefuses | disabledControl

    init() {}

    init(_ spec: borrowing NodeSpec) {
        var b: UInt32 = 0
        let hitTest = spec.hitTest
        if hitTest.mode == .never { b |= Self.never }
        if hitTest.mode == .passThroughSelf { b |= Self.passThroughSelf }
        if hitTest.insets != .zero { b |= Self.hasInsets }
        switch hitTest.redirect?.when {
        case .nil?: b |= Self.redirectWhenNil
        case .self?: b |= Self.redirectWhenSelf
        case nil: break
        }
        if spec.hidden { b |= Self.hidden }
        if spec.alpha >= 0.01 { b |= Self.hittableInclusive }
        if spec.alpha > 0.01 { b |= Self.hittableExclusive }
        if !spec.userInteractionEnabled { b |= Self.interactionDisabled }
        if spec.interactionSetting == nil { b |= Self.interactionUnset }
        if spec.animatingAllowsInteraction == false { b |= Self.animatingRefuses }
        if spec.kind.isControl && !spec.enabled { b |= Self.disabledControl }
        if let t = spec.transform, t != .identity { b |= Self.hasTransform }
        if spec.kind == .viewController { b |= Self.viewController }
        if spec.kind.isSubviewKind { b |= Self.subviewKind }
        if JSONWriter.needsNoEscape(spec.id) { b |= Self.plainID }
        bits = b
    }

    @inline(__always) func has(_ bit: UInt32) -> Bool { bits & bit != 0 }

    /// `Profile.isHittable(alpha:)` for this view's alpha.
    @inline(__always) func hittable(_ boundary: Profile.AlphaBoundary) -> Bool {
        has(boundary == .inclusive ? Self.hittableInclusive : Self.hittableExclusive)
    }
}
