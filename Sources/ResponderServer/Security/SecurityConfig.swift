/// Who may talk to the engine (Protocol/README.md §2.1).
public struct SecurityConfig: Sendable {
    /// Users besides the engine's own whose ipc connections are accepted (`--allow-uid`).
    public var allowedUIDs: Set<UInt32> = []
    /// Plain tcp on a loopback address instead of CURVE (`--insecure-tcp`).
    public var insecureTCP = false
    /// Overrides the state directory (tests); nil: `StateDirectory.path`.
    public var stateDirectory: String?

    public init(allowedUIDs: Set<UInt32> = [], insecureTCP: Bool = false, stateDirectory: String? = nil) {
        self.allowedUIDs = allowedUIDs
        self.insecureTCP = insecureTCP
        self.stateDirectory = stateDirectory
    }
}
