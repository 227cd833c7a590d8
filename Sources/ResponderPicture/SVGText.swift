/// Text for SVG and HTML: escaping and short numbers.
public enum SVGText {
    /// Escapes text for an attribute value or element content.
    public static func escape(_ s: String) -> String {
        guard s.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" || $0 == "'" }) else { return s }
        var out = ""
        out.reserveCapacity(s.count + 8)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// At most two decimals, no needless zeros: 12, 12.5, 0.33.
    public static func number(_ n: Double) -> String {
        guard n.isFinite else { return "0" }
        let r = (n * 100).rounded() / 100
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return String(r)
    }

    /// `(x, y)`.
    public static func point(_ x: Double, _ y: Double) -> String { "(\(number(x)), \(number(y)))" }

    /// The rough width of text in the picture's 11-point sans-serif, for fitting labels.
    static func width(_ s: String, size: Double = 11) -> Double { Double(s.count) * size * charWidth }

    /// DejaVu Sans, the font Debian's chromium falls back to, averages about 0.62 em per character.
    static let charWidth = 0.62
}

/// Boxes already taken on the picture (labels, badges), bucketed on a grid so that 10,000 checks stay cheap.
struct Occupancy {
    private var cells: [Int: [(Double, Double, Double, Double)]] = [:]
    private let cell = 64.0

    private func keys(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [Int] {
        let x0 = Int((x / cell).rounded(.down)), x1 = Int(((x + w) / cell).rounded(.down))
        let y0 = Int((y / cell).rounded(.down)), y1 = Int(((y + h) / cell).rounded(.down))
        guard x1 - x0 < 64, y1 - y0 < 64 else { return [] }
        var out: [Int] = []
        for gx in x0...x1 { for gy in y0...y1 { out.append(gx &* 100_003 &+ gy) } }
        return out
    }

    func isFree(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Bool {
        for k in keys(x, y, w, h) {
            for r in cells[k] ?? [] where x < r.0 + r.2 && r.0 < x + w && y < r.1 + r.3 && r.1 < y + h { return false }
        }
        return true
    }

    mutating func take(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        for k in keys(x, y, w, h) { cells[k, default: []].append((x, y, w, h)) }
    }

    /// Takes the first free spot of `w`×`h` starting at (x, y) and stepping by (dx, dy), at most `tries` times.
    mutating func place(_ x: Double, _ y: Double, _ w: Double, _ h: Double, dx: Double, dy: Double, tries: Int) -> (
        Double, Double
    )? {
        for t in 0..<tries {
            let px = x + dx * Double(t), py = y + dy * Double(t)
            if isFree(px, py, w, h) {
                take(px, py, w, h)
                return (px, py)
            }
        }
        return nil
    }
}
