import ResponderJSON

/// Plain geometry in points, independent of any platform framework.
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(0, 0)
}

public struct Rect: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public static let zero = Rect(0, 0, 0, 0)
    public var origin: Point { Point(x, y) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// H3: half-open containment; an empty rect contains nothing.
    public func contains(_ p: Point) -> Bool {
        !isEmpty && p.x >= x && p.x < x + width && p.y >= y && p.y < y + height
    }

    /// The rect grown (negative insets) or shrunk (positive insets) on each edge.
    public func inset(by e: EdgeInsets) -> Rect {
        Rect(x + e.left, y + e.top, width - e.left - e.right, height - e.top - e.bottom)
    }
}

public struct EdgeInsets: Sendable, Equatable, Hashable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// [a, b, c, d, tx, ty] as in CGAffineTransform: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct AffineTransform: Sendable, Equatable, Hashable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ tx: Double, _ ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }
    public static let identity = AffineTransform(1, 0, 0, 1, 0, 0)
    public var determinant: Double { a * d - b * c }
    public var isInvertible: Bool { determinant != 0 && determinant.isFinite }

    public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// The inverse, or nil when the transform is singular (such a view can be hit nowhere).
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(ia, ib, ic, id, -(ia * tx + ic * ty), -(ib * tx + id * ty))
    }
}

extension Point: WireValue {
    /// `[x, y]`, two finite numbers.
    public init(wire value: JSON, path: String) throws(RPCError) {
        guard let a = value.arrayValue, a.count == 2, let x = a[0].doubleValue, let y = a[1].doubleValue, x.isFinite,
            y.isFinite
        else {
            throw RPCError(
                .invalidParams, "\(path): expected [x, y] with two finite numbers", [("field", .string(path))])
        }
        self.init(x, y)
    }
    public var wire: JSON { [.number(x), .number(y)] }
}

extension JSONCursor {
    /// `[x,y]` or null.
    @inline(__always)
    public mutating func point(_ p: Point?) {
        guard let p else { return raw("null") }
        raw("[")
        number(p.x)
        raw(",")
        number(p.y)
        raw("]")
    }

    /// The most a point takes.
    public static var pointRoom: Int { 2 * numberRoom + 3 }
}
