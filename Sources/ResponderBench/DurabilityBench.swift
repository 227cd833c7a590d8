import Foundation
import ResponderProtocol
import ResponderServer
import ZMQ

/// What durability costs: acknowledged `tree.apply` batches per second through a real engine (in this process,
/// over ipc) with `--durability none`, `normal` and `full`, one request at a time and 32 in flight (where
/// group commit shares one commit, and with `full` one fsync, among the requests that arrive together).
func durabilityCost(seconds: Double = 2) {
    print("== tree.apply through the engine: --durability none | normal | full (ratios against none, same run)")
    var rates: [String: Double] = [:]
    for inFlight in [1, 32] {
        for mode in Durability.allCases {
            let label = "\(mode.rawValue), \(inFlight) in flight"
            rates[label] = try! appliesPerSecond(mode, inFlight: inFlight, seconds: seconds)
            print("  \(label): \(Int(rates[label]!)) /s")
        }
        for mode in [Durability.normal, .full] {
            ratio(
                "\(mode.rawValue)/none, \(inFlight) in flight", rates["\(mode.rawValue), \(inFlight) in flight"]!,
                rates["none, \(inFlight) in flight"]!, "1.0 means durability costs nothing")
        }
    }
}

private func appliesPerSecond(_ mode: Durability, inFlight: Int, seconds: Double) throws -> Double {
    let dir = NSTemporaryDirectory() + "rb-" + String(UInt32.random(in: 0 ... .max), radix: 36)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var config = EngineConfig(name: "bench", directory: dir)
    config.stateDirectory = dir + "/state"
    config.durability = mode
    let engine = Engine(config: config)
    try engine.start()
    defer {
        engine.stop()
        engine.wait()
    }
    let context = try ZMQContext()
    defer { context.terminate() }
    let socket = try ZMQSocket(context: context, type: .dealer)
    defer { socket.close() }
    try socket.connect(config.rpcEndpoint)
    var n = 0
    func send() throws {
        n += 1
        let body =
            #"{"jsonrpc":"2.0","id":\#(n),"method":"tree.apply","params":{"session":"default","ops":[{"op":"insert","parent":"app","node":{"id":"w\#(n)","kind":"window","frame":[0,0,10,10]}},{"op":"remove","id":"w\#(n)"}]}}"#
        _ = try socket.send([Array(body.utf8)])
    }
    for _ in 0..<inFlight { try send() }
    let start = Date()
    var answered = 0
    while Date().timeIntervalSince(start) < seconds {
        guard let reply = try socket.receiveMultipart(),
            String(decoding: reply.last ?? [], as: UTF8.self).contains("\"result\"")
        else {
            fatalError("tree.apply failed in the benchmark")
        }
        answered += 1
        try send()
    }
    return Double(answered) / Date().timeIntervalSince(start)
}
