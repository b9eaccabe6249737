// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "themed",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "themed", targets: ["themed"]),
        .library(name: "AssetCatalog", targets: ["AssetCatalog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries, linked from Debian's -dev packages (see `make deps`).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),

        // Bounds-checked views over untrusted bytes; everything that parses builds on it.
        .target(name: "BinaryReading"),
        // The BOMStore container: blocks, vars and B+trees.
        .target(name: "BOM", dependencies: ["BinaryReading"]),
        // Pixel and byte codecs: LZFSE, LZVN, RLE, palette, deepmap, zlib, PNG.
        .target(name: "Codecs", dependencies: ["BinaryReading", "CZlib"]),
        // Ordered JSON values, shared by reports and the server.
        .target(name: "JSON"),
        // The CoreUI catalog layer on top of BOM: keys, facets, renditions, colours, images.
        .target(name: "AssetCatalog", dependencies: ["BOM", "Codecs", "BinaryReading", "JSON"]),
        .executableTarget(name: "themed", dependencies: [
            "AssetCatalog", "Codecs", "JSON",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Measurements for `make bench` (not part of the product).
        .executableTarget(name: "themed-bench", dependencies: ["AssetCatalog", "Codecs", "BinaryReading"]),

        // Helpers shared by the test targets: SHA-256 and the location of the shared corpus.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "BinaryReading", "TestSupport"],
                    resources: [.copy("Vectors")]),
        .testTarget(name: "BOMTests", dependencies: ["BOM", "BinaryReading"]),
        .testTarget(name: "AssetCatalogTests", dependencies: ["AssetCatalog", "Codecs", "BinaryReading", "JSON", "TestSupport"],
                    resources: [.copy("Fixtures")]),
    ]
)
