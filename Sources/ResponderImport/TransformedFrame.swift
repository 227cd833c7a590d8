import Foundation

/// The untransformed frame of a view whose dump line shows a `transform`.
///
/// `-[UIView frame]` of a transformed view is the bounding box of its bounds after the transform, which UIKit
/// applies about the view's center (its layer's anchor point); that box is what `recursiveDescription` prints. A
/// world's `frame` is the untransformed one (bounds size, placed by the center; `transform` about that center),
/// so both are derived from the printed box: with `[a, b, c, d, tx, ty]`, the box's center is the view's center
/// moved by (tx, ty), and the box's size is (|a|·w + |c|·h, |b|·w + |d|·h) for a bounds size w × h.
package enum TransformedFrame {
    package struct Derived {
        package var frame: [Double]
        /// Set when the box alone does not fix the bounds size (a rotation by an odd multiple of 45°, where only
        /// w + h is known): the note says what was assumed.
        package var assumption: String?
    }

    /// The frame to load for a printed `box` (x, y, w, h) and transform `t`; nil when `t` cannot be inverted (the
    /// view is degenerate and is never hit; the box is kept as it is).
    package static func derive(box: [Double], transform t: [Double]) -> Derived? {
        guard box.count == 4, t.count == 6, abs(t[0] * t[3] - t[1] * t[2]) > 1e-12 else { return nil }
        let (a, b, c, d) = (abs(t[0]), abs(t[1]), abs(t[2]), abs(t[3]))
        let (bw, bh) = (box[2], box[3])
        let det = a * d - c * b
        var w = 0.0
        var h = 0.0
        var assumption: String?
        if abs(det) > 1e-9 {
            w = (d * bw - c * bh) / det
            h = (a * bh - b * bw) / det
        }
        if abs(det) <= 1e-9 || w < -1e-6 || h < -1e-6 {
            // The box fixes only a combination of width and height: a square bounds is the one guess that fits it.
            let side = max(a + c > 0 ? bw / (a + c) : 0, b + d > 0 ? bh / (b + d) : 0)
            w = side
            h = side
            assumption = "bounds assumed square: the printed frame of this rotation does not fix its width and height"
        }
        w = max(0, w)
        h = max(0, h)
        let cx = box[0] + bw / 2 - t[4]
        let cy = box[1] + bh / 2 - t[5]
        return Derived(frame: [cx - w / 2, cy - h / 2, w, h].map(rounded), assumption: assumption)
    }

    /// Rounds away the float noise of the division (1e-9), so a clean dump gives clean numbers.
    private static func rounded(_ v: Double) -> Double {
        let r = (v * 1e6).rounded() / 1e6
        return r == 0 ? 0 : r
    }
}
