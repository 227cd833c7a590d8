import ResponderJSON

/// T1: the phases of a touch, and the message each one delivers.
public enum TouchPhase: String, WireEnum {
    case began, moved, stationary, ended, cancelled

    /// The UIResponder message of the phase; nil for `stationary`, which delivers nothing.
    public var message: String? {
        switch self {
        case .began: return "touchesBegan"
        case .moved: return "touchesMoved"
        case .stationary: return nil
        case .ended: return "touchesEnded"
        case .cancelled: return "touchesCancelled"
        }
    }

    /// Whether the touch ends with this phase.
    public var isFinal: Bool { self == .ended || self == .cancelled }
}

/// E2: the phases of a key press.
public enum PressPhase: String, WireEnum {
    case began, changed, ended, cancelled

    public var message: String {
        switch self {
        case .began: return "pressesBegan"
        case .changed: return "pressesChanged"
        case .ended: return "pressesEnded"
        case .cancelled: return "pressesCancelled"
        }
    }

    public var isFinal: Bool { self == .ended || self == .cancelled }
}

/// E1: the phases of a motion event.
public enum MotionPhase: String, WireEnum {
    case began, ended, cancelled

    public var message: String {
        switch self {
        case .began: return "motionBegan"
        case .ended: return "motionEnded"
        case .cancelled: return "motionCancelled"
        }
    }
}

public enum MotionSubtype: String, WireEnum { case shake }

/// UIEvent.EventSubtype's remote-control values.
public enum RemoteControlSubtype: String, WireEnum {
    case play, pause, togglePlayPause, stop, nextTrack, previousTrack
    case beginSeekingBackward, endSeekingBackward, beginSeekingForward, endSeekingForward
}

/// A touch or press id: a non-empty string or an integer chosen by the client, echoed exactly as sent
/// (`1` and `"1"` are different ids).
public enum EventID: Sendable, Hashable, WireValue, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral
{
    case string(String)
    case integer(Int)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }

    public init(wire value: JSON, path: String) throws(RPCError) {
        switch value {
        case .string(let s) where !s.isEmpty: self = .string(s)
        case .number where value.intValue != nil: self = .integer(value.intValue!)
        default:
            throw RPCError(
                .invalidParams, "\(path): expected a non-empty string or an integer, got \(value.typeName)",
                [("field", .string(path))])
        }
    }

    public var wire: JSON {
        switch self {
        case .string(let s): return .string(s)
        case .integer(let i): return JSON(i)
        }
    }

    /// The id as JSON text (`"t"` or `7`): how errors and traces show it.
    public var description: String { JSONCodec.encodeString(wire) }
}
