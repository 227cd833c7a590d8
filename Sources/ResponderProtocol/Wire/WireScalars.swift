// The integer widths and Float that Codable's containers require; the protocol itself uses Int and Double.

extension WireDecoderImpl.KeyedContainer {
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { Int8(try decode(Int.self, forKey: key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { Int16(try decode(Int.self, forKey: key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { Int32(try decode(Int.self, forKey: key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { Int64(try decode(Int.self, forKey: key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { UInt(try decode(Int.self, forKey: key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { UInt8(try decode(Int.self, forKey: key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { UInt16(try decode(Int.self, forKey: key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { UInt32(try decode(Int.self, forKey: key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { UInt64(try decode(Int.self, forKey: key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decode(Double.self, forKey: key)) }
}
extension WireDecoderImpl.UnkeyedContainer {
    mutating func decode(_ type: Int8.Type) throws -> Int8 { Int8(try decode(Int.self)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { Int16(try decode(Int.self)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { Int32(try decode(Int.self)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { Int64(try decode(Int.self)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { UInt(try decode(Int.self)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { UInt8(try decode(Int.self)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { UInt16(try decode(Int.self)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { UInt32(try decode(Int.self)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { UInt64(try decode(Int.self)) }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
}
extension WireDecoderImpl.SingleContainer {
    func decode(_ type: Int8.Type) throws -> Int8 { Int8(try decoder.int()) }
    func decode(_ type: Int16.Type) throws -> Int16 { Int16(try decoder.int()) }
    func decode(_ type: Int32.Type) throws -> Int32 { Int32(try decoder.int()) }
    func decode(_ type: Int64.Type) throws -> Int64 { Int64(try decoder.int()) }
    func decode(_ type: UInt.Type) throws -> UInt { UInt(try decoder.int()) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { UInt8(try decoder.int()) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { UInt16(try decoder.int()) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { UInt32(try decoder.int()) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { UInt64(try decoder.int()) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.double()) }
}
/// Both encoders (tree and byte) write the other integer widths as Int and Float as Double.
protocol WideningKeyedEncoding: KeyedEncodingContainerProtocol {}
extension WideningKeyedEncoding {
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
}
protocol WideningUnkeyedEncoding: UnkeyedEncodingContainer {}
extension WideningUnkeyedEncoding {
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { try encode(Int(value)) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
}
protocol WideningSingleEncoding: SingleValueEncodingContainer {}
extension WideningSingleEncoding {
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { try encode(Int(value)) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
}
extension WireEncoderImpl.Keyed: WideningKeyedEncoding {
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encode(Wrapped(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encode(Wrapped(value), forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encode(Wrapped(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encode(Wrapped(value), forKey: key) }
}
extension WireEncoderImpl.Unkeyed: WideningUnkeyedEncoding {
    mutating func encode(_ value: Bool) throws { try encode(Wrapped(value)) }
    mutating func encode(_ value: String) throws { try encode(Wrapped(value)) }
    mutating func encode(_ value: Double) throws { try encode(Wrapped(value)) }
    mutating func encode(_ value: Int) throws { try encode(Wrapped(value)) }
}
extension WireEncoderImpl.Single: WideningSingleEncoding {}
extension StreamEncoder.Keyed: WideningKeyedEncoding {}
extension StreamEncoder.Unkeyed: WideningUnkeyedEncoding {}
extension StreamEncoder.Single: WideningSingleEncoding {}
