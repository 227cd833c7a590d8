/// An event's text as the replay ring keeps it: the bytes published, or what writes them (a load's event),
/// written again only if `trace.replay` asks for it.
///
/// The replay ring keeps the world a load event describes, not its text, whether or not the text was sent: the
/// text of a load is ≈ 444 bytes a view, more than the world itself, while a copy of a world shares its storage
/// chunk by chunk, so keeping it costs what later changes touch, not another copy.
enum EventText {
    case bytes([UInt8])
    case deferred(DeferredEvent)

    var bytes: [UInt8] {
        switch self {
        case .bytes(let b): return b
        case .deferred(let d): return d.write()
        }
    }

    var size: Int {
        switch self {
        case .bytes(let b): return b.count
        case .deferred(let d): return d.minimumSize
        }
    }

    /// An event object: `head` (the object's members so far, open) then `members`, already-encoded values, then
    /// the closing brace. Events written now and events written later both come from here, so their bytes are
    /// the same.
    static func compose(head: [UInt8], members: [(key: String, value: [UInt8])]) -> [UInt8] {
        // Each part copied in one piece into an array made at its final size: appended byte by byte through
        // `append(contentsOf:)`, the keys alone cost more than copying a trace.
        [UInt8](unsafeUninitializedCapacity: size(head: head, members: members)) { out, n in
            func put(_ bytes: UnsafeRawBufferPointer) {
                guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
                precondition(n + bytes.count <= out.count, "EventText.compose: more written than its size")
                UnsafeMutableRawPointer(out.baseAddress! + n).copyMemory(from: from, byteCount: bytes.count)
                n += bytes.count
            }
            head.withUnsafeBytes(put)
            for (key, value) in members {
                put(UnsafeRawBufferPointer(start: Self.keyOpen.utf8Start, count: 2))
                var key = key
                key.withUTF8 { put(UnsafeRawBufferPointer($0)) }
                put(UnsafeRawBufferPointer(start: Self.keyClose.utf8Start, count: 2))
                value.withUnsafeBytes(put)
            }
            out[n] = UInt8(ascii: "}")
            n += 1
        }
    }

    /// The length of `compose(head:members:)`'s text.
    static func size(head: [UInt8], members: [(key: String, value: [UInt8])]) -> Int {
        members.reduce(head.count + 1) { $0 + $1.key.utf8.count + 4 + $1.value.count }
    }

    private static let keyOpen: StaticString = ",\""
    private static let keyClose: StaticString = "\":"
}

/// What writes a kept-unwritten event: its head and members, each member's value written on demand.
final class DeferredEvent {
    let head: EventHead
    let members: [(key: String, write: () -> [UInt8])]
    /// What the event counts against the ring's byte budget while unwritten: at least a lower bound of its written
    /// size, or what the kept value holds where that is more (a trace's steps).
    let minimumSize: Int

    init(head: EventHead, members: [(key: String, write: () -> [UInt8])], minimumSize: Int) {
        self.head = head
        self.members = members
        self.minimumSize = minimumSize
    }

    func write() -> [UInt8] {
        EventText.compose(head: head.bytes, members: members.map { ($0.key, $0.write()) })
    }
}
