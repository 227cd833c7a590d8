import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// What the input tools (drag, long_press, touch, advance_clock) share: the session's clock, fresh touch ids, and a dispatch reply read as a few lines, the outcome first.
package enum InputText {
    /// The session's clock: a dry `clock.advance` by 0 answers it without reading the whole world.
    package static func clock(_ engine: EngineThread, session: String) async -> Result<Double, ClientError> {
        let params: JSON = ["session": .string(session), "by": 0, "dryRun": true, "trace": "none"]
        return await engine.call(ClockAdvanceRequest.method, params).map { $0["from"]?.doubleValue ?? 0 }
    }

    /// Sends an `event.touch` under the first of `prefix-1`, `prefix-2`, … that is not live (TOUCH_IN_USE
    /// names one that is).
    package static func touch(
        _ engine: EngineThread, _ request: EngineRequest, prefix: String, entries: (JSON) -> JSON
    ) async -> ToolCall {
        var sent = request
        var reply: Result<JSON, ClientError> = .failure(.badReply("no touch id was free"))
        for n in 1...16 {
            sent.params = request.params.setting("touches", entries(.string("\(prefix)-\(n)")))
            reply = await engine.call(sent.method, sent.sentParams)
            guard case .failure(.rpc(let e)) = reply, e.name == .touchInUse else { break }
        }
        return ToolCall(reply: reply, request: sent)
    }

    package static func session(of request: EngineRequest) -> String {
        request.params["session"]?.stringValue ?? "default"
    }

    /// The outcome of a dispatch reply, a line per delivery, with the focus changes and the rules; then where
    /// the full trace is.
    package static func lines(_ reply: JSON, request: EngineRequest) -> [String] {
        var lines: [String] = []
        if let value = reply["trace"], let trace = try? WireDecoder.decode(Trace.self, from: value, strict: false),
            let outcome = TraceFormatter.outcome(of: trace.kind, from: value["outcome"] ?? .null)
        {
            lines += collapsed(outcome.lines(message: nil, trace: trace, names: ToolNames.current))
            lines += DispatchReply.focusLines(trace, names: ToolNames.current)
        }
        if reply["dryRun"]?.boolValue != true {
            lines.append("full trace: responder://\(session(of: request))/traces")
        }
        return lines
    }

    /// Runs of the same line (a drag's moves that each went the same way) as one line with their count.
    package static func collapsed(_ lines: [String]) -> [String] {
        var out: [(line: String, count: Int)] = []
        for line in lines {
            if out.last?.line == line { out[out.count - 1].count += 1 } else { out.append((line, 1)) }
        }
        return out.map { $0.count == 1 ? $0.line : "\($0.line) (×\($0.count))" }
    }

    /// `(12, 340.5)`.
    package static func point(_ x: Double, _ y: Double) -> String {
        "(\(Output.number(x)), \(Output.number(y)))"
    }
}
