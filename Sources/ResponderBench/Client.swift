import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// One DEALER connection to the engine or the echo: blocking round trips, or a window of requests in flight.
final class Connection {
    let socket: ZMQSocket

    init(_ context: ZMQContext, _ endpoint: String) throws {
        socket = try ZMQSocket(context: context, type: .dealer)
        try socket.setLinger(0)
        try socket.connect(endpoint)
    }

    deinit { socket.close() }

    func call(_ body: [UInt8]) throws -> [UInt8] {
        _ = try socket.send([body])
        guard let frames = try socket.receiveMultipart(), let reply = frames.last else { throw BenchError("no reply") }
        return reply
    }

    /// A JSON-RPC request; throws when the reply is an error.
    @discardableResult
    func request(_ method: String, _ params: JSON) throws -> JSON {
        let reply = try JSONCodec.decode(try call(Requests.body(method, params)))
        if let error = reply["error"] { throw BenchError("\(method) failed: \(error)") }
        return reply["result"] ?? .null
    }

    /// Makes the echo answer with `reply` from now on.
    func setEchoReply(_ reply: [UInt8]) throws { _ = try call([0] + reply) }

    /// Nanoseconds of each of `count` round trips of `body`.
    func roundTrips(_ body: [UInt8], count: Int) throws -> [Double] {
        var times = [Double]()
        times.reserveCapacity(count)
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try call(body)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return times
    }

    /// Requests per second with `window` requests in flight, over `total` requests.
    func pipelined(_ body: [UInt8], window: Int, total: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var sent = 0
        var received = 0
        while sent < min(window, total) {
            _ = try socket.send([body])
            sent += 1
        }
        while received < total {
            guard try socket.receiveMultipart() != nil else { throw BenchError("no reply") }
            received += 1
            if sent < total {
                _ = try socket.send([body])
                sent += 1
            }
        }
        return Double(total) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

enum Requests {
    /// Ids only need to be distinct per connection; the suite sends from one thread.
    nonisolated(unsafe) private static var nextID = 0

    static func body(_ method: String, _ params: JSON) -> [UInt8] {
        nextID += 1
        return JSONCodec.encode(["jsonrpc": "2.0", "id": JSON(nextID), "method": .string(method), "params": params])
    }
}

/// Median and 99th percentile of samples.
struct Percentiles {
    let median: Double
    let p99: Double
    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    }
}

extension Requests {
    /// A request whose params are already encoded (a world of a million nodes).
    static func body(_ method: String, rawParams: [UInt8]) -> [UInt8] {
        nextID += 1
        return Array("{\"jsonrpc\":\"2.0\",\"id\":\(nextID),\"method\":\"\(method)\",\"params\":".utf8) + rawParams + [
            UInt8(ascii: "}")
        ]
    }
}
