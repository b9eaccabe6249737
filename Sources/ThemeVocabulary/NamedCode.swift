/// A number from a file or a request that has a name: an idiom, a gamut, a layout, a TLV type.
///
/// Catalogs hold values nobody documented, so a code keeps whatever number it was given and
/// prints its name when it has one, the number when it has none (blacktop/ipsw's typed ids work
/// the same way). Each conforming type owns the one table of its names.
public protocol NamedCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible where RawValue == Int {
    init(rawValue: Int)
    /// The value's name, or its number when it has none.
    var name: String { get }
    /// Every named value with its name, in the order a listing shows them.
    static var names: KeyValuePairs<Self, String> { get }
}

extension NamedCode {
    public init(_ rawValue: Int) { self.init(rawValue: rawValue) }

    /// The value's name, or its number when it has none. (Inlinable: specialised where it is
    /// used, a palette asks it of every colour's traits.)
    @inlinable public var name: String {
        for (key, value) in Self.names where key == self { return value }
        return String(rawValue)
    }

    public var description: String { name }

    /// The value a name stands for.
    public init?(name: String) {
        guard let match = Self.names.first(where: { $0.value == name }) else { return nil }
        self = match.key
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
