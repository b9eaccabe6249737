import ThemeVocabulary

/// A rendition key: one 16-bit value per KEYFORMAT position, with named access to the traits.
public struct RenditionKey: Sendable, Hashable {
    /// Values in KEYFORMAT order; this is also the key's identity in RENDITIONS.
    public var values: [UInt16]
    /// Attribute ids by position (shared with the catalog's KeyFormat).
    public var attributeIDs: [Int]

    /// The value of `attribute`, 0 when the key format does not have it (which CoreUI reads as "any").
    public subscript(_ attribute: RenditionAttribute) -> Int {
        guard let position = attributeIDs.firstIndex(of: attribute.rawValue), position < values.count else { return 0 }
        return Int(values[position])
    }

    public var element: Int { self[.element] }
    public var part: Int { self[.part] }
    public var identifier: Int { self[.identifier] }
    public var scale: Int { self[.scale] }
    public var idiom: Idiom { Idiom(self[.idiom]) }
    public var subtype: Int { self[.subtype] }
    public var appearance: Int { self[.appearance] }
    public var displayGamut: Gamut { Gamut(self[.displayGamut]) }
    public var direction: LayoutDirection { LayoutDirection(self[.direction]) }
    public var sizeClassHorizontal: SizeClass { SizeClass(self[.sizeClassHorizontal]) }
    public var sizeClassVertical: SizeClass { SizeClass(self[.sizeClassVertical]) }
    public var memoryClass: MemoryClass { MemoryClass(self[.memoryClass]) }
    public var localization: Int { self[.localization] }
    public var deploymentTarget: Int { self[.deploymentTarget] }
    public var state: Int { self[.state] }
    public var dimension2: Int { self[.dimension2] }

    /// Every non-zero attribute with its CoreUI name, for reports.
    public var nonZeroAttributes: [(name: String, value: Int)] {
        zip(attributeIDs, values).compactMap { id, value in
            value == 0 ? nil : (RenditionAttribute(rawValue: id).map { "\($0)" } ?? "attribute\(id)", Int(value))
        }
    }
}
