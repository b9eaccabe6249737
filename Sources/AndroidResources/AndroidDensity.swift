/// Android's screen-density buckets and the pixels a dp each has: a drawable is made once per bucket.
public enum AndroidDensity: String, Sendable, CaseIterable {
    case mdpi, hdpi, xhdpi, xxhdpi, xxxhdpi

    public var scale: Double {
        switch self {
        case .mdpi: 1
        case .hdpi: 1.5
        case .xhdpi: 2
        case .xxhdpi: 3
        case .xxxhdpi: 4
        }
    }
}
