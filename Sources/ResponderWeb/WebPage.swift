import FlyingFox
import Foundation
import ResponderClient
import ResponderLocal
import ResponderPicture
import ResponderProtocol

/// The page's routes: three static files compiled into this binary, and the WebSocket.
package enum WebPage {
    package static func routes(_ server: HTTPServer, inspector: Inspector, requests: EngineThread, token: String) async
    {
        let html = PageAssets.html.replacingOccurrences(of: "/*PICTURE-STYLE*/", with: Picture.style)
            .replacingOccurrences(of: "<!--PICTURE-DEFS-->", with: Picture.defs)
        await server.appendRoute("GET /", to: file(html, "text/html; charset=utf-8"))
        await server.appendRoute("GET /index.html", to: file(html, "text/html; charset=utf-8"))
        await server.appendRoute("GET /app.js", to: file(PageAssets.script, "text/javascript; charset=utf-8"))
        await server.appendRoute("GET /app.css", to: file(PageAssets.css, "text/css; charset=utf-8"))
        let socket = WebSocketHTTPHandler.webSocket(InspectorSocket(inspector: inspector, requests: requests))
        await server.appendRoute("GET /socket", to: GuardedSocket(token: token, socket: socket))
    }

    private static func file(_ text: String, _ type: String) -> some HTTPHandler {
        let body = Data(text.utf8)
        return ClosureHTTPHandler { _ in
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: type, HTTPHeader("Cache-Control"): "no-store"], body: body)
        }
    }
}

/// The WebSocket carries the session and taps in it, so it takes only the page this process printed: the request
/// must carry the run's secret token (from the printed address; other local users and other sites never see it),
/// and a browser's `Origin` must be this server itself, so a page from another site cannot open it even on
/// a machine where the token leaked into its history.
package struct GuardedSocket: HTTPHandler {
    package let token: String
    package let socket: WebSocketHTTPHandler

    package func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let given = request.query["token"], Secrets.equal(given, token) else {
            return Self.forbidden("the inspector's socket needs the token of the address responder web printed")
        }
        if let origin = request.headers[HTTPHeader("Origin")] {
            guard let host = request.headers[.host], origin == "http://\(host)" else {
                return Self.forbidden("the inspector's socket is for its own page, not for \(origin)")
            }
        }
        return try await socket.handleRequest(request)
    }

    package static func forbidden(_ reason: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(reason.utf8))
    }

    /// 128 random bits, hex: the run's token.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
