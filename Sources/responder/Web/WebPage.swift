import FlyingFox
import Foundation
import ResponderPicture

/// The page's routes: three static files compiled into this binary, and the WebSocket.
enum WebPage {
    static func routes(_ server: HTTPServer, inspector: Inspector, requests: EngineRequests) async {
        let html = PageAssets.html.replacingOccurrences(of: "/*PICTURE-STYLE*/", with: Picture.style)
            .replacingOccurrences(of: "<!--PICTURE-DEFS-->", with: Picture.defs)
        await server.appendRoute("GET /", to: file(html, "text/html; charset=utf-8"))
        await server.appendRoute("GET /index.html", to: file(html, "text/html; charset=utf-8"))
        await server.appendRoute("GET /app.js", to: file(PageAssets.script, "text/javascript; charset=utf-8"))
        await server.appendRoute("GET /app.css", to: file(PageAssets.css, "text/css; charset=utf-8"))
        await server.appendRoute("GET /socket", to: .webSocket(InspectorSocket(inspector: inspector, requests: requests)))
    }

    private static func file(_ text: String, _ type: String) -> some HTTPHandler {
        let body = Data(text.utf8)
        return ClosureHTTPHandler { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: type, HTTPHeader("Cache-Control"): "no-store"], body: body)
        }
    }
}
