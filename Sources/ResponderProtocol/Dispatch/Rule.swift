/// The dispatch rules, by the ids docs/rules.md defines (what each rule says and what it rests on) and
/// Protocol/README 12.1 summarizes. Every trace step and every undelivered touch names one; tests check this
/// list against both.
public enum Rule: String, WireEnum, Comparable {
    // H: hit-testing
    case h1 = "H1", h2 = "H2", h3 = "H3", h4 = "H4", h5 = "H5", h6 = "H6", h7 = "H7", h8 = "H8"
    // N: next responder
    case n1 = "N1", n2 = "N2", n3 = "N3", n4 = "N4"
    // T: touches
    case t1 = "T1", t2 = "T2", t3 = "T3", t4 = "T4", t5 = "T5", t6 = "T6"
    // G: gesture recognizers
    case g1 = "G1", g2 = "G2", g3 = "G3", g4 = "G4", g5 = "G5", g6 = "G6", g7 = "G7", g8 = "G8", g9 = "G9", g10 = "G10",
        g11 = "G11"
    // G12: a scroll view's built-in pan among the other recognizers
    case g12 = "G12"
    // E: events that go to the first responder
    case e1 = "E1", e2 = "E2", e3 = "E3", e4 = "E4", e5 = "E5"
    // F: first responder
    case f1 = "F1", f2 = "F2", f3 = "F3", f4 = "F4", f5 = "F5", f6 = "F6", f7 = "F7", f8 = "F8", f9 = "F9"
    // A: actions
    case a1 = "A1", a2 = "A2", a3 = "A3", a4 = "A4", a5 = "A5"
    // K: UIKit's own classes (1.6)
    case k1 = "K1", k2 = "K2", k3 = "K3", k4 = "K4", k5 = "K5", k6 = "K6", k7 = "K7", k8 = "K8", k9 = "K9", k10 = "K10"
    // K11–K13: text-field editing
    case k11 = "K11", k12 = "K12", k13 = "K13"
    // K14–K16: table and collection view cells
    case k14 = "K14", k15 = "K15", k16 = "K16"
    // K17, K18: sheets and popovers
    case k17 = "K17", k18 = "K18"
    // K19–K21: scroll directions, a scroll view's own touches, paging
    case k19 = "K19", k20 = "K20", k21 = "K21"

    public static func < (a: Rule, b: Rule) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
