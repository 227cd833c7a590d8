import Glibc

/// Reads SQLite's write-ahead log the way SQLite does when it opens the database, to say what SQLite would
/// silently drop. SQLite replays the frames from the start while each one carries the header's salts and a
/// running checksum that matches, and stops at the first that does not: everything after it is ignored without a
/// word. Ignoring is right for the torn end of a write that was never acknowledged; it loses acknowledged changes
/// when the damage is in the middle (frames of the same log follow the bad one) or in the header (every frame is
/// ignored). Format: sqlite.org/fileformat2.html, "The Write-Ahead Log".
enum LogCheck {
    /// Why SQLite would drop frames of the log at `path` that it should not; nil when the log is whole or absent.
    static func damage(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? nil : "the write-ahead log \(path) cannot be read" }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "the write-ahead log \(path) cannot be read" }
        let size = Int(st.st_size)
        if size == 0 { return nil }
        var header = [UInt8](repeating: 0, count: 32)
        guard size >= 32, readFully(fd, &header, at: 0) else {
            return "the write-ahead log \(path) is shorter than its header (\(size) bytes)"
        }
        let magic = word(header, 0, bigEndian: true)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else {
            return "the write-ahead log \(path) has a damaged header: every change in it would be ignored"
        }
        let bigEndian = magic & 1 == 1
        let pageSize = Int(word(header, 8, bigEndian: true))
        let salts = (word(header, 16, bigEndian: true), word(header, 20, bigEndian: true))
        var sum = checksum(header[0..<24], (0, 0), bigEndian: bigEndian)
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0,
            sum == (word(header, 24, bigEndian: true), word(header, 28, bigEndian: true))
        else {
            return "the write-ahead log \(path) has a damaged header: every change in it would be ignored"
        }
        let frameSize = 24 + pageSize
        let frames = (size - 32) / frameSize
        var frame = [UInt8](repeating: 0, count: frameSize)
        var index = 0
        while index < frames {
            guard readFully(fd, &frame, at: 32 + index * frameSize) else { break }
            guard (word(frame, 8, bigEndian: true), word(frame, 12, bigEndian: true)) == salts else { break }
            let next = checksum(frame[24...], checksum(frame[0..<8], sum, bigEndian: bigEndian), bigEndian: bigEndian)
            guard next == (word(frame, 16, bigEndian: true), word(frame, 20, bigEndian: true)) else { break }
            sum = next
            index += 1
        }
        guard index < frames else { return nil }
        // The first frame SQLite stops at. A torn last frame is the end of a write that was never acknowledged;
        // any later frame carrying this log's salts was written after it, so what SQLite drops there was.
        var later = index + 1
        while later < frames {
            var salt = [UInt8](repeating: 0, count: 16)
            if readFully(fd, &salt, at: 32 + later * frameSize),
                (word(salt, 8, bigEndian: true), word(salt, 12, bigEndian: true)) == salts
            {
                return
                    "the write-ahead log \(path) is damaged at frame \(index + 1) of \(frames): the \(frames - index) frame(s) from there on, written after it, would be ignored"
            }
            later += 1
        }
        return nil
    }

    private static func readFully(_ fd: Int32, _ buffer: inout [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    private static func word(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt32 {
        let b = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }

    /// SQLite's running checksum: over pairs of 32-bit words, in the byte order the log's magic names.
    private static func checksum(_ bytes: ArraySlice<UInt8>, _ start: (UInt32, UInt32), bigEndian: Bool) -> (
        UInt32, UInt32
    ) {
        var (s0, s1) = start
        bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i + 8 <= p.count {
                let x0 =
                    bigEndian
                    ? UInt32(p[i]) << 24 | UInt32(p[i + 1]) << 16 | UInt32(p[i + 2]) << 8 | UInt32(p[i + 3])
                    : UInt32(p[i + 3]) << 24 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i])
                let x1 =
                    bigEndian
                    ? UInt32(p[i + 4]) << 24 | UInt32(p[i + 5]) << 16 | UInt32(p[i + 6]) << 8 | UInt32(p[i + 7])
                    : UInt32(p[i + 7]) << 24 | UInt32(p[i + 6]) << 16 | UInt32(p[i + 5]) << 8 | UInt32(p[i + 4])
                s0 = s0 &+ x0 &+ s1
                s1 = s1 &+ x1 &+ s0
                i += 8
            }
        }
        return (s0, s1)
    }
}
