import ResponderProtocol

extension AffineTransform {
    /// `self ∘ other`: `other` applied first, then `self`.
    static func * (l: AffineTransform, r: AffineTransform) -> AffineTransform {
        AffineTransform(
            l.a * r.a + l.c * r.b, l.b * r.a + l.d * r.b,
            l.a * r.c + l.c * r.d, l.b * r.c + l.d * r.d,
            l.a * r.tx + l.c * r.ty + l.tx, l.b * r.tx + l.d * r.ty + l.ty)
    }

    static func translation(_ x: Double, _ y: Double) -> AffineTransform { AffineTransform(1, 0, 0, 1, x, y) }

    /// H4 forward: a view's bounds coordinates into its superview's — frame origin, bounds origin and the
    /// transform about the view's center (the inverse of what hit-testing applies to the point).
    static func placing(frame: Rect, boundsOrigin: Point, transform: AffineTransform?) -> AffineTransform {
        let halfW = frame.width / 2, halfH = frame.height / 2
        guard let t = transform, t != .identity else {
            return translation(frame.x - boundsOrigin.x, frame.y - boundsOrigin.y)
        }
        return translation(frame.x + halfW, frame.y + halfH) * t
            * translation(-boundsOrigin.x - halfW, -boundsOrigin.y - halfH)
    }

    /// Only a translation (and positive scale): rects stay rects, drawn without a `transform` attribute.
    var isAxisAligned: Bool { b == 0 && c == 0 && a > 0 && d > 0 }

    /// The axis-aligned box around `rect` once transformed.
    func box(_ rect: Rect) -> Rect {
        let corners = [
            Point(rect.x, rect.y), Point(rect.x + rect.width, rect.y),
            Point(rect.x, rect.y + rect.height), Point(rect.x + rect.width, rect.y + rect.height)
        ].map(apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return Rect(minX, minY, xs.max()! - minX, ys.max()! - minY)
    }
}

extension Rect {
    var maxX: Double { x + width }
    var maxY: Double { y + height }
    var center: Point { Point(x + width / 2, y + height / 2) }

    func intersects(_ o: Rect) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }

    func union(_ o: Rect) -> Rect {
        let nx = min(x, o.x), ny = min(y, o.y)
        return Rect(nx, ny, max(maxX, o.maxX) - nx, max(maxY, o.maxY) - ny)
    }
}
