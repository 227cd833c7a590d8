import ResponderJSON

/// Decodes the protocol's `Decodable` types from a `JSON` value with the engine's rules: a wrong type or a
/// missing member is an error naming the field by its path from the top of the params (`touches[2].phase`),
/// `null` counts as absent for optional members, and — when strict — a member nobody read (a typo such as
/// "hiden") is an error too. Types that read themselves (`WireValue`: points, ids, node trees) get their raw
/// value, so deep documents are never walked recursively here.
public enum WireDecoder {
    /// Strict for requests (unknown members are errors); lenient for replies (newer engines may add members).
    public static func decode<T: Decodable>(
        _ type: T.Type, from value: JSON, strict: Bool = true,
        errorName: ErrorName = .invalidParams
    ) throws(RPCError) -> T {
        let state = DecodingState(strict: strict, errorName: errorName)
        let decoded: T
        do {
            decoded = try WireDecoderImpl(value: value, path: [], state: state).decode(T.self)
        } catch let error as RPCError {
            throw error
        } catch {
            throw RPCError(errorName, "\(error)")
        }
        if strict {
            // A type with no members (engine.info's params) never opens the object: every member is unknown.
            if let members = value.objectMembers, !state.objects.contains(where: { $0.path.isEmpty }) {
                state.objects.append(("", members, []))
            }
            try state.checkUnread()
        }
        if let validating = decoded as? any ValidatedParams { try validating.validate() }
        return decoded
    }
}

/// Requests whose members must satisfy more than their types (`tapCount` ≥ 1, a non-empty `action`).
public protocol ValidatedParams {
    func validate() throws(RPCError)
}

/// A value that reads and writes its own JSON: shapes Codable cannot say (`[x, y]` points, string-or-integer
/// ids) and documents that must not be walked recursively (node trees).
public protocol WireValue: Codable {
    /// `path` is the field path for errors ("touches[0].point").
    init(wire value: JSON, path: String) throws(RPCError)
    var wire: JSON { get }
}

extension WireValue {
    public init(from decoder: any Decoder) throws {
        guard let wire = decoder as? WireDecoderImpl else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(Self.self) decodes only with WireDecoder"))
        }
        self = try Self(wire: wire.value, path: wire.pathText)
    }

    public func encode(to encoder: any Encoder) throws {
        guard let wire = encoder as? WireEncoderImpl else {
            throw EncodingError.invalidValue(
                self,
                .init(codingPath: encoder.codingPath, debugDescription: "\(Self.self) encodes only with WireEncoder"))
        }
        wire.storage.value = self.wire
    }
}

/// A `WireValue` that reads replies leniently (members it does not know are ignored, for newer engines).
public protocol LenientWireValue: WireValue {
    init(lenientWire value: JSON, path: String) throws(RPCError)
}

/// Enums on the wire: a string that must be one of the cases; the error lists them.
public protocol WireEnum: RawRepresentable, CaseIterable, Codable, Sendable where RawValue == String {}

extension WireEnum {
    public init(wire text: String, path: String, errorName: ErrorName = .invalidParams) throws(RPCError) {
        guard let value = Self(rawValue: text) else {
            let all = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw RPCError(errorName, "\(path): expected one of \(all), got \"\(text)\"", [("field", .string(path))])
        }
        self = value
    }
}

final class DecodingState {
    let strict: Bool
    let errorName: ErrorName
    /// Every object read, in the order it was opened, with the members that were asked for.
    var objects: [(path: String, members: [(key: String, value: JSON)], read: Set<String>)] = []

    init(strict: Bool, errorName: ErrorName) {
        self.strict = strict
        self.errorName = errorName
    }

    func checkUnread() throws(RPCError) {
        for object in objects {
            if let unknown = object.members.first(where: { !object.read.contains($0.key) }) {
                let field = object.path.isEmpty ? unknown.key : "\(object.path).\(unknown.key)"
                throw RPCError(errorName, "unknown field \(field)", [("field", .string(field))])
            }
        }
    }
}

struct WirePathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

func pathText(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
        if let i = key.intValue {
            text += "[\(i)]"
        } else {
            text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
    }
    return text
}

final class WireDecoderImpl: Decoder {
    let value: JSON
    let codingPath: [any CodingKey]
    let state: DecodingState
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSON, path: [any CodingKey], state: DecodingState) {
        self.value = value
        self.codingPath = path
        self.state = state
    }

    var pathText: String { ResponderProtocol.pathText(codingPath) }

    func error(_ message: String) -> RPCError {
        let field = pathText.isEmpty ? "params" : pathText
        return RPCError(state.errorName, "\(field): \(message)", [("field", .string(field))])
    }

    func typeError(_ expected: String) -> RPCError { error("expected \(expected), got \(value.typeName)") }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSON.self { return value as! T }
        let traits = WireTraits.of(T.self)
        if !state.strict, traits.contains(.lenient), let lenient = T.self as? any LenientWireValue.Type {
            return try lenient.init(lenientWire: value, path: pathText) as! T
        }
        if traits.contains(.wireValue), let wire = T.self as? any WireValue.Type {
            return try wire.init(wire: value, path: pathText) as! T
        }
        if traits.contains(.wireEnum), let e = T.self as? any WireEnum.Type {
            guard let text = value.stringValue else { throw typeError("a string") }
            return try e.init(wire: text, path: pathText, errorName: state.errorName) as! T
        }
        if value.isNull, !traits.contains(.optional) { throw error("is required") }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let members = value.objectMembers else { throw typeError("an object") }
        state.objects.append((pathText, members, []))
        return KeyedDecodingContainer(
            KeyedContainer<Key>(decoder: self, members: members, index: state.objects.count - 1))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = value.arrayValue else { throw typeError("an array") }
        return UnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoder: self) }

    // MARK: scalars

    func bool() throws -> Bool {
        guard let b = value.boolValue else { throw typeError("a boolean") }
        return b
    }
    func string() throws -> String {
        guard let s = value.stringValue else { throw typeError("a string") }
        return s
    }
    func double() throws -> Double {
        guard let n = value.doubleValue else { throw typeError("a number") }
        guard n.isFinite else { throw error("must be finite") }
        return n
    }
    func int() throws -> Int {
        guard let n = value.intValue else { throw typeError("an integer") }
        return n
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: WireDecoderImpl
        let members: [(key: String, value: JSON)]
        let index: Int
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        private func markRead(_ key: Key) { decoder.state.objects[index].read.insert(key.stringValue) }

        private func raw(_ key: Key) -> JSON? {
            markRead(key)
            return members.last(where: { $0.key == key.stringValue })?.value
        }

        private func child(_ key: Key, _ value: JSON) -> WireDecoderImpl {
            WireDecoderImpl(value: value, path: codingPath + [key], state: decoder.state)
        }

        func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

        func decodeNil(forKey key: Key) throws -> Bool { raw(key)?.isNull ?? true }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = raw(key) else {
                if T.self == JSON.self { return JSON.null as! T }
                throw child(key, .null).error("is required")
            }
            return try child(key, value).decode(T.self)
        }

        // Absent and null are the same for an optional member.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let value = raw(key), !value.isNull else { return nil }
            return try child(key, value).decode(T.self)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try decode(Scalar<Bool>.self, forKey: key).value
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try decode(Scalar<String>.self, forKey: key).value
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try decode(Scalar<Double>.self, forKey: key).value
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Scalar<Int>.self, forKey: key).value }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try decodeIfPresent(Scalar<Bool>.self, forKey: key)?.value
        }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try decodeIfPresent(Scalar<String>.self, forKey: key)?.value
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try decodeIfPresent(Scalar<Double>.self, forKey: key)?.value
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try decodeIfPresent(Scalar<Int>.self, forKey: key)?.value
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child(key, raw(key) ?? .null).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key, raw(key) ?? .null).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { child(key, raw(key) ?? .null) }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: WireDecoderImpl
        let elements: [JSON]
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next() throws -> WireDecoderImpl {
            guard !isAtEnd else { throw decoder.error("has too few elements") }
            let d = WireDecoderImpl(
                value: elements[currentIndex], path: codingPath + [WirePathKey(intValue: currentIndex)],
                state: decoder.state)
            currentIndex += 1
            return d
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex].isNull else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(T.self) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
        mutating func decode(_ type: String.Type) throws -> String { try next().string() }
        mutating func decode(_ type: Double.Type) throws -> Double { try next().double() }
        mutating func decode(_ type: Int.Type) throws -> Int { try next().int() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next().container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct SingleContainer: SingleValueDecodingContainer {
        let decoder: WireDecoderImpl
        var codingPath: [any CodingKey] { decoder.codingPath }
        func decodeNil() -> Bool { decoder.value.isNull }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
        func decode(_ type: String.Type) throws -> String { try decoder.string() }
        func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
        func decode(_ type: Int.Type) throws -> Int { try decoder.int() }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self) }
    }
}

/// Routes scalars through the decoder so their type errors name the field.
struct Scalar<V>: Decodable {
    var value: V
    init(from decoder: any Decoder) throws {
        let d = decoder as! WireDecoderImpl
        switch V.self {
        case is Bool.Type: value = try d.bool() as! V
        case is String.Type: value = try d.string() as! V
        case is Double.Type: value = try d.double() as! V
        case is Int.Type: value = try d.int() as! V
        default: fatalError("unsupported scalar \(V.self)")
        }
    }
}

protocol OptionalProtocol {}
extension Optional: OptionalProtocol {}
