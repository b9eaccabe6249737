import BinaryReading

/// CARHEADER: who wrote the catalog and with which CoreUI.
public struct CatalogHeader: Sendable, Equatable {
    public var coreUIVersion: Int
    public var storageVersion: Int
    public var storageTimestamp: Int
    public var renditionCount: Int
    /// As written, its trailing line break kept (assetutil prints it so).
    public var mainVersionString: String
    public var versionString: String
    public var uuid: String
    public var associatedChecksum: UInt32
    public var schemaVersion: Int
    public var colorSpaceID: Int
    public var keySemantics: Int

    init(_ block: ByteSpan) throws {
        guard block.has("RATC") else { throw block.error(at: 0, "expected the CARHEADER tag RATC, found \(try block.fourCC(0))") }
        try block.require(0, 436, "CARHEADER")
        coreUIVersion = try block.int32le(4)
        storageVersion = try block.int32le(8)
        storageTimestamp = try block.int32le(12)
        renditionCount = try block.int32le(16)
        mainVersionString = try block.cString(20, length: 128)
        versionString = try block.paddedString(148, length: 256)
        let uuidBytes = try block.slice(404, 16).bytes.map { String(format2: $0) }
        uuid = [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { uuidBytes[$0].joined() }.joined(separator: "-").uppercased()
        associatedChecksum = try block.u32le(420)
        schemaVersion = try block.int32le(424)
        colorSpaceID = try block.int32le(428)
        keySemantics = try block.int32le(432)
    }
}

/// EXTENDED_METADATA: deployment platform and thinning (absent before CoreUI 426).
public struct ExtendedMetadata: Sendable, Equatable {
    public var thinningArguments: String
    public var deploymentPlatformVersion: String
    public var deploymentPlatform: String
    /// As written, its trailing line break kept (assetutil prints it so).
    public var authoringTool: String

    init(_ block: ByteSpan) throws {
        guard block.has("META") else { throw block.error(at: 0, "expected the META tag, found \(try block.fourCC(0))") }
        thinningArguments = try block.paddedString(4, length: 256)
        deploymentPlatformVersion = try block.paddedString(260, length: 256)
        deploymentPlatform = try block.paddedString(516, length: 256)
        authoringTool = try block.cString(772, length: 256)
    }
}

extension String {
    /// Two lower-case hex digits.
    init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
