/// A list in memory of its own, for the hit test's walk: appending is a store and a count, and an element is
/// read and changed where it is, with no uniqueness check (an array makes one per change, and a hit test changes
/// its lists a few dozen times). Its elements are plain values (slots, visits, frames): emptying it and freeing
/// it deinitialize them, which for those is nothing at all.
///
/// A value with no ownership of its memory: whoever holds it (`HitTestScratch`, which cannot be copied) frees
/// it once, with `deallocate()`. A copy of the list is the same memory, so only one copy is changed and kept:
/// the walk takes the lists for its run and hands them back.
struct HitBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int
    /// Whether `base` was allocated by the list (or room lent to it, which it never frees).
    private var owned: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
        owned = true
    }

    /// A list in room lent to it for as long as it is used (a hit test's own, on its stack: `HitTester.answer`),
    /// so that it allocates nothing unless it outgrows that room.
    init(in room: UnsafeMutableBufferPointer<Element>) {
        base = room.baseAddress!
        capacity = room.count
        owned = false
    }

    var isEmpty: Bool { count == 0 }

    /// The elements, valid until the list next grows or is freed.
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    mutating func removeLast() -> Element {
        count -= 1
        return (base + count).move()
    }

    mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Room for twice as many, the elements moved there: rare, since the room is kept between hit tests.
    @inline(never)
    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        if owned { base.deallocate() }
        base = larger
        owned = true
        capacity *= 2
    }

    /// Frees the memory it allocated; the list is not used again.
    func deallocate() {
        base.deinitialize(count: count)
        if owned { base.deallocate() }
    }
}
