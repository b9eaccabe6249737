/// The memory class of a variant (car-format.md 4.2, attribute 22): how much memory the device
/// must have.
public struct MemoryClass: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let names: KeyValuePairs<MemoryClass, String> = [
        MemoryClass(0): "any", MemoryClass(1): "1GB", MemoryClass(2): "2GB", MemoryClass(3): "4GB",
        MemoryClass(4): "3GB", MemoryClass(5): "6GB", MemoryClass(6): "8GB", MemoryClass(7): "16GB",
    ]

    /// Whole gigabytes (0 for any); an unknown class reads as its number.
    public var gigabytes: Int {
        let name = self.name
        return name.hasSuffix("GB") ? Int(name.dropLast(2)) ?? rawValue : name == "any" ? 0 : rawValue
    }

    /// `memory=4GB` or `memory=4` of a request and Contents.json's `memory`: gigabytes.
    public static func parseGigabytes(_ text: String) -> Int? {
        Int(text.hasSuffix("GB") ? text.dropLast(2) : Substring(text))
    }
}
