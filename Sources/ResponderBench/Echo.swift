import CZMQ
import Foundation

/// The baseline every round trip is measured against: a ROUTER on raw libzmq (no wrapper, no parsing) that
/// answers each request with a fixed reply. A request whose body starts with a zero byte sets that reply (the
/// rest of the body), so the echo moves exactly the bytes the engine's reply would, in both directions.
///
/// With a `publish` endpoint it is also the fanout's baseline: an XPUB (the engine's welcome message and
/// high-water mark) on which every answered request publishes one event: a head, its own seq's digits and a tail,
/// set by a request starting with byte 2 (`topic`, a zero byte, the head up to `"seq":`, a zero byte, the tail) —
/// the engine's event for a tap byte for byte, but for the seq's digits.
/// A request starting with byte 3 and a number of nanoseconds in ASCII makes it spend that much of its thread's CPU
/// on every later request before answering (the fanout asks what the raw publisher would move if it worked as long
/// as the engine does per tap).
enum Echo {
    static func run(endpoint: String, publish: String? = nil) -> Never {
        let context = zmq_ctx_new()
        let socket = zmq_socket(context, ZMQ_ROUTER)
        guard zmq_bind(socket, endpoint) == 0 else {
            FileHandle.standardError.write(
                Data("echo: cannot bind \(endpoint): \(String(cString: zmq_strerror(zmq_errno())))\n".utf8))
            exit(1)
        }
        var bound = [CChar](repeating: 0, count: 256)
        var size = bound.count
        zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, &bound, &size)
        // The parent reads this line to learn the port of a tcp://…:* bind.
        let endpoint = String(decoding: bound.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        FileHandle.standardOutput.write(Data("ready \(endpoint)\n".utf8))

        var publisher: UnsafeMutableRawPointer?
        if let publish {
            publisher = zmq_socket(context, ZMQ_XPUB)
            var hwm: Int32 = 100_000
            zmq_setsockopt(publisher, ZMQ_SNDHWM, &hwm, MemoryLayout<Int32>.size)
            let welcome = Array("$sys/welcome".utf8)
            zmq_setsockopt(publisher, ZMQ_XPUB_WELCOME_MSG, welcome, welcome.count)
            guard zmq_bind(publisher, publish) == 0 else {
                FileHandle.standardError.write(
                    Data("echo: cannot bind \(publish): \(String(cString: zmq_strerror(zmq_errno())))\n".utf8))
                exit(1)
            }
        }
        var topic: [UInt8] = []
        var head: [UInt8] = Array(#"{"seq":"#.utf8)
        var tail: [UInt8] = Array("}".utf8)
        var seq = 0
        var workNanoseconds = 0

        // zmq_msg_t must not move while libzmq uses it.
        let frames = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 4)
        let reply = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
        var stored: [UInt8] = Array("{}".utf8)
        while true {
            // [routing id][delimiter]?[body]: keep up to four frames, the last is the body.
            if let publisher {
                // The XPUB takes in subscribers (and sends their welcome) only when used: wait on both sockets.
                var items = [
                    zmq_pollitem_t(socket: socket, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
                    zmq_pollitem_t(socket: publisher, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
                ]
                _ = zmq_poll(&items, 2, -1)
                if items[1].revents != 0 {
                    zmq_msg_init(frames)
                    while zmq_msg_recv(frames, publisher, ZMQ_DONTWAIT) >= 0 {}
                    zmq_msg_close(frames)
                }
                if items[0].revents == 0 { continue }
            }
            var count = 0
            var more: Int32 = 1
            while more != 0 {
                let slot = frames + min(count, 3)
                if count >= 3 { zmq_msg_close(slot) }
                zmq_msg_init(slot)
                guard zmq_msg_recv(slot, socket, 0) >= 0 else { exit(0) }
                more = zmq_msg_more(slot)
                count += 1
            }
            let body = frames + (min(count, 4) - 1)
            let length = zmq_msg_size(body)
            let data = zmq_msg_data(body)!.assumingMemoryBound(to: UInt8.self)
            // A body starting with byte 1 stops the echo (so that valgrind writes its counts at a normal exit).
            if length > 0 && data[0] == 1 { exit(0) }
            var publishing = publisher != nil
            if length > 0 && data[0] == 0 {
                stored = Array(UnsafeBufferPointer(start: data + 1, count: length - 1))
                publishing = false
            }
            if length > 0 && data[0] == 2 {
                let setting = Array(UnsafeBufferPointer(start: data + 1, count: length - 1))
                let parts = setting.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                topic = Array(parts[0])
                head = parts.count > 1 ? Array(parts[1]) : []
                tail = parts.count > 2 ? Array(parts[2]) : []
                publishing = false
            }
            if length > 0 && data[0] == 3 {
                workNanoseconds =
                    Int(String(decoding: UnsafeBufferPointer(start: data + 1, count: length - 1), as: UTF8.self)) ?? 0
                publishing = false
            }
            // Only a request is worked on; a setting is answered at once.
            if publishing && workNanoseconds > 0 { spin(workNanoseconds) }
            // Route back every frame before the body, then the stored reply.
            for i in 0..<(min(count, 4) - 1) { zmq_msg_send(frames + i, socket, ZMQ_SNDMORE) }
            zmq_msg_close(body)
            stored.withUnsafeBytes { raw in
                zmq_msg_init_size(reply, raw.count)
                memcpy(zmq_msg_data(reply), raw.baseAddress!, raw.count)
            }
            zmq_msg_send(reply, socket, 0)
            if publishing {
                seq += 1
                // Written per event, as the engine writes each event's head.
                let event = head + Array("\(seq)".utf8) + tail
                topic.withUnsafeBytes { _ = zmq_send(publisher, $0.baseAddress, $0.count, ZMQ_SNDMORE | ZMQ_DONTWAIT) }
                event.withUnsafeBytes { _ = zmq_send(publisher, $0.baseAddress, $0.count, ZMQ_DONTWAIT) }
            }
        }
    }

    /// Spends `nanoseconds` of this thread's CPU time (not wall time: a thread preempted meanwhile still does the
    /// whole amount of work).
    private static func spin(_ nanoseconds: Int) {
        func now() -> Int {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return t.tv_sec * 1_000_000_000 + t.tv_nsec
        }
        let end = now() + nanoseconds
        while now() < end {}
    }
}
