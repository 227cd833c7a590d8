import Foundation
import ResponderJSON
import ResponderProtocol

/// The peer figure: Chromium's `DOM.getNodeForLocation` over the DevTools protocol on the 1,110-view layout
/// as a page, headless, on loopback. nil (with the reason) when chromium is not installed.
enum CDPPeer {
    static func executable() -> String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Nanoseconds of `count` round trips.
    static func measure(count: Int) throws -> (samples: [Double], elements: Int)? {
        guard let chromium = executable() else { return nil }
        let profile = Scratch.file("chromium")
        let page = Scratch.file("grid.html")
        try Worlds.grid1110HTML().write(toFile: page, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0", "--user-data-dir=\(profile)",
            "--window-size=1000,1000", "file://\(page)"
        ]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // Chromium writes its port to DevToolsActivePort once it listens.
        let portFile = "\(profile)/DevToolsActivePort"
        try waitFor("chromium's DevTools port", seconds: 60) {
            (try? String(contentsOfFile: portFile, encoding: .utf8))?.split(separator: "\n").count ?? 0 >= 2
        }
        let port = UInt16(try String(contentsOfFile: portFile, encoding: .utf8).split(separator: "\n")[0])!
        var target: String?
        try waitFor("the page target", seconds: 60) {
            let list = (try? JSONCodec.decode(try httpGet(port: port, path: "/json/list")))?.arrayValue ?? []
            target = list.first { $0["type"]?.stringValue == "page" }?["webSocketDebuggerUrl"]?.stringValue
            return target != nil
        }
        let path = "/" + target!.split(separator: "/", maxSplits: 3).dropFirst(2).joined(separator: "/")
        let cdp = CDPClient(try WebSocket(port: port, path: path))
        var elements = 0
        try waitFor("the page to load", seconds: 60) {
            let result = try? cdp.call(
                "Runtime.evaluate",
                [
                    "expression": "document.readyState === 'complete' ? document.getElementsByTagName('*').length : 0",
                    "returnByValue": true
                ])
            elements = result?["result"]?["value"]?.intValue ?? 0
            return elements > 1000
        }
        _ = try cdp.call("DOM.getDocument", ["depth": 0])
        let x = Int(Worlds.hitPoint.x), y = Int(Worlds.hitPoint.y)
        let check = try cdp.call("DOM.getNodeForLocation", ["x": JSON(x), "y": JSON(y)])
        guard check["backendNodeId"] != nil else { throw BenchError("DOM.getNodeForLocation answered \(check)") }
        for _ in 0..<100 { _ = try cdp.call("DOM.getNodeForLocation", ["x": JSON(x), "y": JSON(y)]) }
        var samples = [Double]()
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try cdp.call("DOM.getNodeForLocation", ["x": JSON(x), "y": JSON(y)])
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return (samples, elements)
    }
}

/// CDP commands: `{id, method, params}` out, the message with that id back (events in between are skipped).
final class CDPClient {
    let socket: WebSocket
    private var nextID = 0
    init(_ socket: WebSocket) { self.socket = socket }

    func call(_ method: String, _ params: JSON) throws -> JSON {
        nextID += 1
        try socket.send(JSONCodec.encodeString(["id": JSON(nextID), "method": .string(method), "params": params]))
        while true {
            let message = try JSONCodec.decode(try socket.receive())
            guard message["id"]?.intValue == nextID else { continue }
            if let error = message["error"] { throw BenchError("\(method): \(error)") }
            return message["result"] ?? .null
        }
    }
}
