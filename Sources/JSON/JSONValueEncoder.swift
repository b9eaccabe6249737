/// Encodes an `Encodable` value as a `JSONValue`, so that typed response bodies are written by the
/// one `JSONWriter` every other answer goes through (its number formatting, its escaping).
///
/// Object members keep the order they are encoded in (declaration order, for a synthesized
/// conformance); an optional that is nil is left out, as `encodeIfPresent` does; whole numbers
/// stay integers. A `JSONValue` inside a value is taken as it is.
public struct JSONValueEncoder {
    /// Why a value has no JSON form: a number JSON cannot write (NaN, an infinity, an integer
    /// past Int's range), or a value that encoded nothing.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = Node()
        try root.take(value, at: [])
        return try root.value(at: [])
    }
}

extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in members { try container.encode(value, forKey: MemberKey(stringValue: key)) }
        }
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// A value being encoded: nothing yet, a scalar, or an object or array of nodes filled in place.
private final class Node {
    enum Shape { case empty, scalar(JSONValue), object, array }
    var shape = Shape.empty
    var members: [(key: String, node: Node)] = []
    var items: [Node] = []

    func take<T: Encodable>(_ value: T, at path: [any CodingKey]) throws {
        if let json = value as? JSONValue {
            shape = .scalar(json)
        } else {
            try value.encode(to: NodeEncoder(node: self, codingPath: path))
        }
    }

    func value(at path: [any CodingKey]) throws -> JSONValue {
        switch shape {
        case .empty:
            throw JSONValueEncoder.Failure(description: "nothing was encoded at \(Self.describe(path))")
        case .scalar(let value):
            return value
        case .object:
            return .object(try members.map { member in (member.key, try member.node.value(at: path + [AnyKey(member.key)])) })
        case .array:
            return .array(try items.enumerated().map { index, node in try node.value(at: path + [AnyKey(index)]) })
        }
    }

    /// The member `key` of this object, made or replaced.
    func member(_ key: String) -> Node {
        if case .object = shape {} else { (shape, members) = (.object, []) }
        let node = Node()
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].node = node
        } else {
            members.append((key, node))
        }
        return node
    }

    /// A new last item of this array.
    func item() -> Node {
        if case .array = shape {} else { (shape, items) = (.array, []) }
        let node = Node()
        items.append(node)
        return node
    }

    static func describe(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the top" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    static func number(_ value: Double, at path: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else { throw JSONValueEncoder.Failure(description: "\(value) at \(describe(path)) has no JSON form") }
        return .double(value)
    }

    static func integer<T: BinaryInteger>(_ value: T, at path: [any CodingKey]) throws -> JSONValue {
        guard let whole = Int(exactly: value) else { throw JSONValueEncoder.Failure(description: "\(value) at \(describe(path)) is past Int's range") }
        return .int(whole)
    }
}

private struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ string: String) { (stringValue, intValue) = (string, nil) }
    init(_ index: Int) { (stringValue, intValue) = ("\(index)", index) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.shape {} else { (node.shape, node.members) = (.object, []) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.shape {} else { (node.shape, node.items) = (.array, []) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node, codingPath: codingPath) }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) { node.member(key.stringValue).shape = .scalar(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try Node.number(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try Node.number(Double(value), at: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(try Node.integer(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try Node.integer(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try Node.integer(value, at: codingPath + [key]), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).take(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.member("super"), codingPath: codingPath + [AnyKey("super")]) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]) }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.items.count }

    private var nextPath: [any CodingKey] { codingPath + [AnyKey(count)] }
    private func append(_ value: JSONValue) { node.item().shape = .scalar(value) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try Node.number(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try Node.number(Double(value), at: nextPath)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { append(try Node.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt) throws { append(try Node.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { append(try Node.integer(value, at: nextPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try node.item().take(value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return NodeEncoder(node: node.item(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return NodeEncoder(node: node.item(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return NodeEncoder(node: node.item(), codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue) { node.shape = .scalar(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try Node.number(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try Node.number(Double(value), at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(try Node.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt) throws { set(try Node.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(try Node.integer(value, at: codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.take(value, at: codingPath) }
}

/// A member an answer always has, written `null` when there is no value (a plain optional is left
/// out when nil).
@propertyWrapper
public struct Nullable<Wrapped: Encodable>: Encodable {
    public var wrappedValue: Wrapped?

    public init(wrappedValue: Wrapped?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Sendable where Wrapped: Sendable {}
extension Nullable: Equatable where Wrapped: Equatable {}

/// An object whose member names are data (a strings table's keys, a format's name), written in
/// the order given; a Swift dictionary has none.
public struct OrderedMembers<Value: Encodable>: Encodable {
    public var members: [(name: String, value: Value)]

    public init(_ members: [(name: String, value: Value)]) { self.members = members }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Name.self)
        for (name, value) in members { try container.encode(value, forKey: Name(stringValue: name)) }
    }

    private struct Name: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// Two objects written as one: the members of `first`, then those of `second` (a body with a
/// value's own members beside it, as `{"theme": ..., "from": 3, ...the review's members}`).
public struct Joined<First: Encodable, Second: Encodable>: Encodable {
    public var first: First
    public var second: Second

    public init(_ first: First, _ second: Second) { (self.first, self.second) = (first, second) }

    public func encode(to encoder: any Encoder) throws {
        try first.encode(to: encoder)
        try second.encode(to: encoder)
    }
}
