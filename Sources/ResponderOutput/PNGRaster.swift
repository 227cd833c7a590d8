import Foundation

/// The screen picture as a PNG, rendered by headless Chromium (`chromium --headless --screenshot`) from the SVG.
/// The picture is SVG with a stylesheet, text in a system font, transforms and clip paths; a browser renders it
/// exactly as `responder web` shows it, where a PNG writer of our own would need a font rasteriser and a CSS
/// reader. The engine runs no process: this is the CLI's and the MCP server's edge.
package enum PNGRaster {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The browser, found on the PATH.
    package static var browser: String? {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            if let path = executable(name) { return path }
        }
        return nil
    }

    /// The PNG of `svg`, at the size its root element declares (one pixel per point).
    package static func png(svg: String) throws(Failure) -> [UInt8] {
        guard let browser else {
            throw Failure(
                description:
                    "a PNG is rendered by headless Chromium, which is not installed (Debian: apt-get install chromium); --out x.svg writes the picture as SVG"
            )
        }
        guard let (width, height) = size(svg) else { throw Failure(description: "the picture has no size") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("responder-png-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(svg.utf8).write(to: dir.appendingPathComponent("picture.svg"))
        } catch {
            throw Failure(description: "cannot write the picture for the browser: \(error.localizedDescription)")
        }
        let output = dir.appendingPathComponent("picture.png")
        var arguments = [
            "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
            "--force-device-scale-factor=1", "--user-data-dir=\(dir.appendingPathComponent("profile").path)",
            "--window-size=\(width),\(height)", "--screenshot=\(output.path)",
            dir.appendingPathComponent("picture.svg").absoluteString
        ]
        // Chromium refuses to start as root with its sandbox.
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch {
            throw Failure(description: "cannot start \(browser): \(error.localizedDescription)")
        }
        // Read the browser's chatter while it runs (a full pipe would stop it), then wait for it.
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: output.path),
            data.starts(with: [0x89, 0x50, 0x4E, 0x47])
        else {
            let said = String(decoding: message, as: UTF8.self).split(separator: "\n").suffix(3).joined(separator: "\n")
            throw Failure(
                description: "\(browser) did not render the PNG (status \(process.terminationStatus)): \(said)")
        }
        return Array(data)
    }

    /// The root element's `width` and `height`, rounded up to whole pixels.
    package static func size(_ svg: String) -> (Int, Int)? {
        guard let end = svg.firstIndex(of: ">") else { return nil }
        let head = svg[..<end]
        func attribute(_ name: String) -> Double? {
            guard let r = head.range(of: " \(name)=\"") else { return nil }
            return Double(head[r.upperBound...].prefix { $0 != "\"" })
        }
        guard let w = attribute("width"), let h = attribute("height"), w > 0, h > 0 else { return nil }
        return (Int(w.rounded(.up)), Int(h.rounded(.up)))
    }

    package static func executable(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
