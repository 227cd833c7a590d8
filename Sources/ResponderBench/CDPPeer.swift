import Foundation
import ResponderJSON
import ResponderProtocol

/// The peer: Chromium's `DOM.getNodeForLocation` over the DevTools protocol on the 1,110-view layout as a page,
/// headless, on loopback, held open so that its rounds alternate with ours in one run.
final class CDPPeer {
    let process: Process
    let cdp: CDPClient
    /// Elements in the page (html, head, body and the divs).
    let elements: Int

    static func executable() -> String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// nil when chromium is not installed.
    static func start() throws -> CDPPeer? {
        guard let chromium = executable() else { return nil }
        return try CDPPeer(chromium)
    }

    private init(_ chromium: String) throws {
        let profile = Scratch.file("chromium")
        let page = Scratch.file("grid.html")
        try Worlds.grid1110HTML().write(toFile: page, atomically: true, encoding: .utf8)
        let process = Process()
        self.process = process
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0", "--user-data-dir=\(profile)",
            "--window-size=1000,1000", "file://\(page)"
        ]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        do {
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
                        "expression":
                            "document.readyState === 'complete' ? document.getElementsByTagName('*').length : 0",
                        "returnByValue": true
                    ])
                elements = result?["result"]?["value"]?.intValue ?? 0
                return elements > 1000
            }
            _ = try cdp.call("DOM.getDocument", ["depth": 0])
            self.cdp = cdp
            self.elements = elements
            let check = try cdp.call("DOM.getNodeForLocation", Self.point)
            guard check["backendNodeId"] != nil else { throw BenchError("DOM.getNodeForLocation answered \(check)") }
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
    }

    static var point: JSON { ["x": JSON(Int(Worlds.hitPoint.x)), "y": JSON(Int(Worlds.hitPoint.y))] }

    /// Nanoseconds of each of `count` round trips.
    func roundTrips(count: Int) throws -> [Double] {
        var samples = [Double]()
        samples.reserveCapacity(count)
        let point = Self.point
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try cdp.call("DOM.getNodeForLocation", point)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return samples
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
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
