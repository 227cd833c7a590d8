import ResponderJSON

/// Encodes the protocol's `Encodable` types to a `JSON` value. Members keep their declaration order; an optional
/// member that is nil is written as `null` (the wire says `"by": null`), unless it is `@OmitNil`, which leaves
/// it out (`reason?` members).
public enum WireEncoder {
    public static func encode<T: Encodable>(_ value: T) -> JSON {
        let encoder = WireEncoderImpl(path: [])
        do { try value.encode(to: encoder) } catch {
            // Our types encode without failing; a failure is a programming error worth seeing on the wire.
            return ["encodingError": .string("\(error)")]
        }
        return encoder.storage.json
    }

    public static func encodeBytes<T: Encodable>(_ value: T) -> [UInt8] { JSONCodec.encode(encode(value)) }
}

/// An optional member that is left out when nil instead of being written as null.
@propertyWrapper
public struct OmitNil<Value: Codable & Sendable>: Codable, Sendable {
    public var wrappedValue: Value?
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension OmitNil: Equatable where Value: Equatable {}

protocol OmittableMember { var isOmitted: Bool { get } }
extension OmitNil: OmittableMember { var isOmitted: Bool { wrappedValue == nil } }

extension KeyedDecodingContainer {
    /// An `@OmitNil` member may be absent.
    public func decode<V>(_ type: OmitNil<V>.Type, forKey key: Key) throws -> OmitNil<V> {
        try decodeIfPresent(type, forKey: key) ?? OmitNil(wrappedValue: nil)
    }
}

/// A value being built: a finished value, or an object/array whose members are still being written. Members
/// are appended in place (never copied out of an enum payload and back), so a long array costs linear time.
final class EncodingStorage {
    private enum Shape { case value, object, array }
    private var shape = Shape.value
    private var scalar: JSON = .null
    private var members: [(key: String, value: EncodingStorage)] = []
    private var elements: [EncodingStorage] = []

    var value: JSON {
        get { json }
        set {
            shape = .value
            scalar = newValue
        }
    }

    var count: Int { elements.count }

    var json: JSON {
        switch shape {
        case .value: return scalar
        case .object: return .object(members.map { ($0.key, $0.value.json) })
        case .array: return .array(elements.map(\.json))
        }
    }

    func member(_ key: String) -> EncodingStorage {
        makeObject()
        let child = EncodingStorage()
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = child
        } else {
            members.append((key, child))
        }
        return child
    }

    func append() -> EncodingStorage {
        makeArray()
        let child = EncodingStorage()
        elements.append(child)
        return child
    }

    func makeObject() { if shape != .object { shape = .object; members = [] } }
    func makeArray() { if shape != .array { shape = .array; elements = [] } }
}

final class WireEncoderImpl: Encoder {
    let storage: EncodingStorage
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(path: [any CodingKey], storage: EncodingStorage = EncodingStorage()) {
        self.codingPath = path
        self.storage = storage
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        storage.makeObject()
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        storage.makeArray()
        return Unkeyed(encoder: self)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    static func encode<T: Encodable>(_ value: T, into storage: EncodingStorage, path: [any CodingKey]) throws {
        if let v = value as? JSON {
            storage.value = v
            return
        }
        try value.encode(to: WireEncoderImpl(path: path, storage: storage))
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: WireEncoderImpl
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil(forKey key: Key) throws { encoder.storage.member(key.stringValue).value = .null }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if let omittable = value as? any OmittableMember, omittable.isOmitted { return }
            try WireEncoderImpl.encode(value, into: encoder.storage.member(key.stringValue), path: codingPath + [key])
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            try encodeIfPresent(value.map(Wrapped.init), forKey: key)
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            try encodeIfPresent(value.map(Wrapped.init), forKey: key)
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            try encodeIfPresent(value.map(Wrapped.init), forKey: key)
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            try encodeIfPresent(value.map(Wrapped.init), forKey: key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            WireEncoderImpl(path: codingPath + [key], storage: encoder.storage.member(key.stringValue)).container(
                keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            WireEncoderImpl(path: codingPath + [key], storage: encoder.storage.member(key.stringValue))
                .unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            WireEncoderImpl(path: codingPath + [key], storage: encoder.storage.member(key.stringValue))
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: WireEncoderImpl
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { encoder.storage.count }
        mutating func encodeNil() throws { encoder.storage.append().value = .null }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let path = codingPath + [WirePathKey(intValue: count)]
            try WireEncoderImpl.encode(value, into: encoder.storage.append(), path: path)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            WireEncoderImpl(path: codingPath, storage: encoder.storage.append()).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            WireEncoderImpl(path: codingPath, storage: encoder.storage.append()).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            WireEncoderImpl(path: codingPath, storage: encoder.storage.append())
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: WireEncoderImpl
        var codingPath: [any CodingKey] { encoder.codingPath }
        mutating func encodeNil() throws { encoder.storage.value = .null }
        mutating func encode(_ value: Bool) throws { encoder.storage.value = .bool(value) }
        mutating func encode(_ value: String) throws { encoder.storage.value = .string(value) }
        mutating func encode(_ value: Double) throws { encoder.storage.value = .number(value) }
        mutating func encode(_ value: Int) throws { encoder.storage.value = JSON(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try WireEncoderImpl.encode(value, into: encoder.storage, path: codingPath)
        }
    }
}

/// Lets the scalar `encodeIfPresent` overloads share the generic path (nil → null).
struct Wrapped<V: Encodable>: Encodable {
    var value: V
    init(_ value: V) { self.value = value }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(value)
    }
}

extension JSON: WireValue {
    public init(wire value: JSON, path: String) throws(RPCError) { self = value }
    public var wire: JSON { self }
}

/// A member that may hold a deep document (a world, a replayed event): kept in a `JSONHolder` so the reply
/// that carries it is freed without recursion, however deep the document.
@propertyWrapper
public struct Held: Codable, Sendable, Equatable {
    private var holder: JSONHolder
    public init(wrappedValue: JSON) { holder = JSONHolder(wrappedValue) }
    public var wrappedValue: JSON {
        get { holder.value }
        set { holder = JSONHolder(newValue) }
    }
    public init(from decoder: any Decoder) throws {
        holder = JSONHolder(try decoder.singleValueContainer().decode(JSON.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(wrappedValue)
    }
}
