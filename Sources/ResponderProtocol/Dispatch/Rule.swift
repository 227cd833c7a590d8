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
    // Android's View system (docs/rules-android.md): the `android` profile's rules
    // AR: from the input system to the view tree
    case ar1 = "AR1", ar2 = "AR2", ar3 = "AR3", ar4 = "AR4", ar5 = "AR5", ar6 = "AR6", ar7 = "AR7"
    // AD: ViewGroup dispatch
    case ad1 = "AD1", ad2 = "AD2", ad3 = "AD3", ad4 = "AD4", ad5 = "AD5", ad6 = "AD6", ad7 = "AD7", ad8 = "AD8", ad9 =
        "AD9", ad10 = "AD10", ad11 = "AD11", ad12 = "AD12", ad13 = "AD13"
    // AI: interception
    case ai1 = "AI1", ai2 = "AI2", ai3 = "AI3", ai4 = "AI4", ai5 = "AI5", ai6 = "AI6", ai7 = "AI7"
    // AM: several pointers
    case am1 = "AM1", am2 = "AM2", am3 = "AM3", am4 = "AM4"
    // AV: View.dispatchTouchEvent
    case av1 = "AV1", av2 = "AV2", av3 = "AV3", av4 = "AV4", av5 = "AV5"
    // AC: press, click, long click
    case ac1 = "AC1", ac2 = "AC2", ac3 = "AC3", ac4 = "AC4", ac5 = "AC5", ac6 = "AC6", ac7 = "AC7", ac8 = "AC8", ac9 =
        "AC9", ac10 = "AC10", ac11 = "AC11", ac12 = "AC12", ac13 = "AC13", ac14 = "AC14"
    // AS: scrolling containers
    case as1 = "AS1", as2 = "AS2", as3 = "AS3", as4 = "AS4", as5 = "AS5", as6 = "AS6", as7 = "AS7", as8 = "AS8"
    // AL: tree changes during a gesture
    case al1 = "AL1", al2 = "AL2", al3 = "AL3", al4 = "AL4"
    // AK: keys and focus
    case ak1 = "AK1", ak2 = "AK2", ak3 = "AK3", ak4 = "AK4", ak5 = "AK5", ak6 = "AK6", ak7 = "AK7", ak8 = "AK8", ak9 =
        "AK9", ak10 = "AK10", ak11 = "AK11", ak12 = "AK12"
    // AX: instead of actions and the responder chain
    case ax1 = "AX1", ax2 = "AX2", ax3 = "AX3", ax4 = "AX4", ax5 = "AX5", ax6 = "AX6"

    public static func < (a: Rule, b: Rule) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
