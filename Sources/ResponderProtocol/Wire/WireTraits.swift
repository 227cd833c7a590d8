import Synchronization

/// Which of the wire's protocols a type conforms to, asked once per type. The Swift runtime answers a
/// conformance query by scanning conformance records when its cache misses, and the coders ask for every
/// value they read or write.
struct WireTraits: OptionSet {
    let rawValue: UInt8
    static let wireValue = WireTraits(rawValue: 1)
    static let lenient = WireTraits(rawValue: 2)
    static let wireEnum = WireTraits(rawValue: 4)
    static let optional = WireTraits(rawValue: 8)
    static let omittable = WireTraits(rawValue: 16)

    private static let known = Mutex<[ObjectIdentifier: WireTraits]>([:])

    static func of<T>(_ type: T.Type) -> WireTraits {
        let key = ObjectIdentifier(type)
        if let traits = known.withLock({ $0[key] }) { return traits }
        var traits = WireTraits()
        if type is any WireValue.Type { traits.insert(.wireValue) }
        if type is any LenientWireValue.Type { traits.insert(.lenient) }
        if type is any WireEnum.Type { traits.insert(.wireEnum) }
        if type is any OptionalProtocol.Type { traits.insert(.optional) }
        if type is any OmittableMember.Type { traits.insert(.omittable) }
        known.withLock { $0[key] = traits }
        return traits
    }
}
