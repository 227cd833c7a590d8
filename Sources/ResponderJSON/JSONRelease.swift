/// Freeing a JSON value without recursion.
///
/// When the last reference to an array or object buffer goes away, the runtime destroys its elements, each of
/// which may be the last reference to another buffer: freeing a value nested N deep recurses N times (about
/// 170 bytes of stack per level), so a value nested 100,000 deep needs some 16 MiB of stack just to be freed.
/// `JSON.release` takes the value apart with an explicit stack instead; call it wherever a value that may nest
/// deeply ends its life. `JSONHolder` does the same for a value stored where its end cannot be marked.
extension JSON {
    /// Frees `value` iteratively and leaves `.null` in its place.
    ///
    /// Each container whose buffer `value` holds alone is emptied onto a stack before its buffer is freed, so no
    /// buffer dies with children in it. A buffer shared with another value (a copy kept elsewhere) is only let
    /// go of (after a one-level copy that tells it is shared): it stays whole for its other holders, and its
    /// final release happens there, where it must be released with this function too.
    public static func release(_ value: inout JSON) {
        guard value.isNonEmptyContainer else {
            value = .null
            return
        }
        var pending: [JSON] = [value]
        value = .null  // `pending` now holds the only reference this caller had
        while var next = pending.popLast() {
            var elements: [JSON] = []
            var members: [(key: String, value: JSON)] = []
            switch next {
            case .array(let a): elements = a
            case .object(let m): members = m
            default: continue
            }
            // Drop the enum's reference (after the switch, which may hold its own copy while it runs), so that
            // `elements` or `members` is the only holder of the buffer unless someone else shares it.
            next = .null
            if !elements.isEmpty, holdsOnlyReference(&elements) {
                while let child = elements.popLast() {
                    if child.isNonEmptyContainer { pending.append(child) }
                }
            }
            if !members.isEmpty, holdsOnlyReference(&members) {
                while let member = members.popLast() {
                    if member.value.isNonEmptyContainer { pending.append(member.value) }
                }
            }
            // The emptied buffers (or the copy of a shared one) die here, with nothing left to recurse into.
        }
    }

    /// Frees an object's members (params being built, say) iteratively and leaves them empty.
    public static func release(_ members: inout [(key: String, value: JSON)]) {
        var object = JSON.object(members)
        members = []
        release(&object)
    }

    /// Frees an array's elements iteratively and leaves it empty.
    public static func release(_ elements: inout [JSON]) {
        var array = JSON.array(elements)
        elements = []
        release(&array)
    }

    /// An array or object with at least one element: the only values whose death can recurse.
    private var isNonEmptyContainer: Bool {
        switch self {
        case .array(let a): return !a.isEmpty
        case .object(let m): return !m.isEmpty
        default: return false
        }
    }
}

/// Whether `array` held the only reference to its buffer (so emptying it moves the elements out, and freeing it
/// frees the buffer), asked through copy-on-write, which the standard library defines: mutable access to the
/// elements keeps a buffer this array holds alone and copies a shared one, so the elements' address changes
/// exactly when the buffer was shared. (The addresses are compared as numbers, never dereferenced; the old
/// buffer is still alive in its other holders while the copy is made, so the copy cannot reuse its address.)
///
/// A shared buffer leaves `array` holding a one-level copy, whose elements are all shared with the original's:
/// the caller drops it, which frees no element and so cannot recurse.
func holdsOnlyReference<Element>(_ array: inout [Element]) -> Bool {
    let before = array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    let after = array.withUnsafeMutableBufferPointer { UInt(bitPattern: $0.baseAddress) }
    return before == after
}

/// Keeps a JSON value that may nest deeply where its end cannot be marked with `JSON.release` — in a node of a
/// world that a session drops, in a configuration — and releases it iteratively when the last copy of the
/// holder goes away. A value type: setting `value` stores a new box, never changes the one other copies share.
public struct JSONHolder: Sendable, Equatable {
    private final class Box: @unchecked Sendable {
        // Written only by init and deinit, so the box may be shared between threads.
        var value: JSON
        init(_ value: JSON) { self.value = value }
        deinit { JSON.release(&value) }
    }

    private var box: Box

    public init(_ value: JSON) { box = Box(value) }

    public var value: JSON {
        get { box.value }
        set { box = Box(newValue) }
    }

    public static func == (lhs: JSONHolder, rhs: JSONHolder) -> Bool { lhs.box === rhs.box || lhs.value == rhs.value }
}
