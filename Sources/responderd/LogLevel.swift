import ArgumentParser
import Logging

/// `--log-level`: swift-log's levels by their names, so that --help lists them and a wrong one is refused
/// while parsing.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level {
        switch self {
        case .trace: return .trace
        case .debug: return .debug
        case .info: return .info
        case .notice: return .notice
        case .warning: return .warning
        case .error: return .error
        case .critical: return .critical
        }
    }
}
