/// The attributes a rendition key can hold (CoreUI's `kCRTheme*Name` tokens in KEYFORMAT).
public enum RenditionAttribute: Int, Sendable, CaseIterable {
    case look = 0, element, part, size, direction, placeholder, value, appearance, dimension1, dimension2
    case state, layer, scale, localization, presentationState, idiom, subtype, identifier
    case previousValue, previousState, sizeClassHorizontal, sizeClassVertical, memoryClass, graphicsClass
    case displayGamut, deploymentTarget, glyphWeight, glyphSize

    /// The name assetutil prints in "Key Format" (car-format.md 10: ids 20 and 21 are
    /// `kCRThemeSizeClassHorizontalName` and `kCRThemeSizeClassVerticalName`).
    public var coreUIName: String {
        let base: String = switch self {
        case .look: "Look"
        case .element: "Element"
        case .part: "Part"
        case .size: "Size"
        case .direction: "Direction"
        case .placeholder: "Placeholder"
        case .value: "Value"
        case .appearance: "Appearance"
        case .dimension1: "Dimension1"
        case .dimension2: "Dimension2"
        case .state: "State"
        case .layer: "Layer"
        case .scale: "Scale"
        case .localization: "Localization"
        case .presentationState: "PresentationState"
        case .idiom: "Idiom"
        case .subtype: "Subtype"
        case .identifier: "Identifier"
        case .previousValue: "PreviousValue"
        case .previousState: "PreviousState"
        case .sizeClassHorizontal: "SizeClassHorizontal"
        case .sizeClassVertical: "SizeClassVertical"
        case .memoryClass: "MemoryClass"
        case .graphicsClass: "GraphicsClass"
        case .displayGamut: "DisplayGamut"
        case .deploymentTarget: "DeploymentTarget"
        case .glyphWeight: "GlyphWeight"
        case .glyphSize: "GlyphSize"
        }
        return "kCRTheme\(base)Name"
    }
}
