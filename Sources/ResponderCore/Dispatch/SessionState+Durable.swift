import ResponderProtocol

/// What of a session outlives the engine process besides its world: first responders, the
/// session clock (G11) and the source of tap ids. Live touches, presses, control tracking and recognizer runs
/// are not kept: after a restart none is live, as after a real app's relaunch.
public struct DurableSessionParts: Sendable, Equatable {
    public var firstResponders: [String: String]
    public var clock: Double
    public var tapCounter: Int

    public init(firstResponders: [String: String], clock: Double, tapCounter: Int) {
        self.firstResponders = firstResponders
        self.clock = clock
        self.tapCounter = tapCounter
    }
}

extension SessionState {
    public var durableParts: DurableSessionParts {
        DurableSessionParts(firstResponders: firstResponderByWindow, clock: clock, tapCounter: tapCounter)
    }

    /// A session as it was saved: its world and durable parts, nothing live. A first responder that is no
    /// longer in its window is dropped (F6 would have resigned it).
    public init(restoring world: World, profile: Profile, parts: DurableSessionParts) {
        self.init(world: world, profile: profile)
        firstResponderByWindow = parts.firstResponders.filter {
            world[$0.value] != nil && world.window(of: $0.value) == $0.key
        }
        clock = parts.clock
        tapCounter = parts.tapCounter
    }
}
