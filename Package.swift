// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "themed",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "themed", targets: ["themed"]),
        .library(name: "AssetCatalog", targets: ["AssetCatalog"]),
        // For apps and services: a theme's palette kept current from a themed server (Foundation only).
        .library(name: "ThemedClient", targets: ["ThemedClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // System libraries, linked from Debian's -dev packages (see `make deps`).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", providers: [.apt(["libssl-dev"])]),
        // libvips (Debian's libvips42), loaded when the first image is coded rather than linked:
        // every command then starts without its 103 libraries (Sources/CVips/vips_abi.h).
        .target(name: "CVips", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CBrotli", path: "Sources/CBrotli", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CArchive", path: "Sources/CArchive", providers: [.apt(["libarchive-dev"])]),
        // Linux epoll, eventfd, inotify and thread-priority calls (part of libc; no library to link).
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        // The one vocabulary of traits and formats: idiom, scale, appearance, gamut, direction,
        // size and memory classes, colour spaces, CSI layouts, TLV types, source kinds, image
        // formats. Enums and typed codes that own their names, numbers and parsing.
        .target(name: "ThemeVocabulary"),
        // Caches with byte budgets and the statistics /metrics reports of them.
        .target(name: "Caching"),
        // SHA-256 of content (libcrypto): ETags, blob names, catalog fingerprints.
        .target(name: "Hashing", dependencies: ["CCrypto"]),
        // Bytes stored once under their hash in append-only packs, with aliases for content before
        // it is encoded; checked on first use, collected and compacted.
        .target(name: "BlobStore", dependencies: ["Hashing"]),
        // Which replica group serves which theme: rendezvous hashing the VCL in front computes too.
        .target(name: "Sharding", dependencies: ["Hashing", "ThemeVocabulary"]),
        // Bounds-checked views over untrusted bytes; everything that parses builds on it.
        .target(name: "BinaryReading"),
        // The BOMStore container: blocks, vars and B+trees.
        .target(name: "BOM", dependencies: ["BinaryReading"]),
        // Pixel and byte codecs: LZFSE, LZVN, RLE, palette, deepmap, zlib, PNG.
        .target(name: "Codecs", dependencies: ["BinaryReading", "CZlib", "CBrotli", "ThemeVocabulary"]),
        // Ordered JSON values, shared by reports and the server, and a reader of JSON text.
        .target(name: "JSON"),
        // Design tokens (DTCG 2025.10: the Format, Color and Resolver modules) read from token files.
        .target(name: "DesignTokens", dependencies: ["JSON", "ThemeVocabulary"]),
        // `themed import figma`: a Figma file's variables (the REST API's answer) as DTCG token files and a resolver.
        .target(name: "FigmaVariables", dependencies: ["DesignTokens", "JSON", "ThemeVocabulary"]),
        .target(name: "MaterialColor", dependencies: ["ThemeVocabulary"]),
        // The CoreUI catalog layer on top of BOM: keys, facets, renditions, colours, images.
        .target(name: "AssetCatalog", dependencies: ["BOM", "Codecs", "BinaryReading", "Hashing", "JSON", "ThemeVocabulary", "Caching"]),
        // Writes .car catalogs from .xcassets folders (`themed compile`).
        .target(name: "CatalogWriter", dependencies: ["AssetCatalog", "BinaryReading", "BOM", "Codecs", "ThemeBundle", "ThemeVocabulary"]),
        // A thin wrapper of the system libsqlite3.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // Bundle layouts and .xcassets source folders.
        .target(name: "ThemeBundle", dependencies: ["CLinux", "ThemeVocabulary"]),
        // The SQLite index of themes, variants and strings: a writer that syncs it with the themes
        // folder (diff, parse, one transaction) and a reader whose lookups use a connection pool.
        .target(name: "ThemeIndex", dependencies: ["AssetCatalog", "CLinux", "Caching", "Codecs", "DesignTokens", "Hashing", "JSON", "MaterialColor", "Sharding", "BinaryReading", "SQLite", "ThemeBundle", "ThemeVocabulary"]),
        // What is served: the bytes behind variants (decoded once, cached within a budget), the
        // catalogs sync parsed, and the library that reloads the index and swaps snapshots.
        .target(name: "ThemeContent", dependencies: ["ThemeIndex", "ThemeBundle", "Sharding", "ImageCoders", "BlobStore", "Hashing", "AssetCatalog", "Codecs", "BinaryReading", "ThemeVocabulary", "Caching", "CLinux"]),
        // A theme's colours in other formats: CSS custom properties, W3C design tokens, Android
        // colour resources, a Swift file of dynamic colours; deterministic, from the index.
        .target(name: "ThemeExport", dependencies: ["ThemeIndex", "ThemeVocabulary", "DesignTokens", "JSON"]),
        // Review before release: a theme read whole in a scratch index (its images' bytes too), and
        // what a change does to it (colours, contrast, tokens, strings, images by pixels).
        .target(name: "Review", dependencies: ["ThemeExport", "ThemeIndex", "ThemeContent", "BlobStore", "Codecs", "BinaryReading", "ThemeBundle", "ThemeVocabulary", "JSON"]),
        .target(name: "AndroidResources", dependencies: ["ThemeExport", "ThemeContent", "ThemeIndex", "ThemeBundle", "ImageCoders", "ThemeVocabulary"]),
        // Image coders (seed 004): sniff, decode, resize, rasterize vectors and encode PNG, WebP,
        // AVIF and JPEG through libvips, with caps checked before any pixel is decoded.
        .target(name: "ImageCoders", dependencies: ["CVips", "ThemeVocabulary"]),
        // Several replicas: theme releases, blobs and the active theme in PostgreSQL (libpq), with
        // LISTEN/NOTIFY; releases materialized into the local themes folder atomically.
        .target(name: "Cluster", dependencies: ["CPostgres", "CLinux", "Audiences", "Hashing", "JSON", "Sharding", "ThemeVocabulary", .product(name: "Logging", package: "swift-log")]),
        // Changes posted to subscribers, signed as Standard Webhooks do (docs/REVIEW.md).
        .target(name: "Webhooks", dependencies: ["CLinux", "Hashing", "HTTPServer", "JSON", "Settings", "ThemeServer", .product(name: "Logging", package: "swift-log")]),
        // Releases for teams over HTTP: tokens checked, uploads (a .car, a tar of a folder) unpacked
        // with limits and checked as `themed publish` checks them, history, rollback, schedules.
        .target(name: "Releases", dependencies: ["Audiences", "Cluster", "AssetCatalog", "ThemeIndex", "ThemeExport", "Review", "ThemeVocabulary", "CArchive", "ThemeServer", "HTTPServer", "JSON",
                                                .product(name: "HTTPTypes", package: "swift-http-types")]),
        // The web gallery and themed.js: plain files in web/, carried in the binary (scripts/embed.py).
        .target(name: "Gallery"),
        // A small HTTP/1.1 server on sockets: epoll event loops, Dispatch for accept and signals.
        .target(name: "HTTPServer", dependencies: [
            "CLinux",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Log lines as text or JSON, to standard error, standard output or a file.
        .target(name: "Logs", dependencies: ["JSON", .product(name: "Logging", package: "swift-log")]),
        // Audiences: aliases with rules, rollouts by sticky buckets, a client's assignment (pure).
        .target(name: "Audiences", dependencies: ["Hashing", "JSON", "ThemeVocabulary"]),
        // The theme API: a route table behind metrics, 304 and response-cache middleware; events.
        .target(name: "ThemeServer", dependencies: [
            "Logs",
            "HTTPServer", "ThemeIndex", "ThemeContent", "ThemeExport", "ImageCoders", "Gallery", "Audiences", "DesignTokens", "ThemeVocabulary", "JSON", "Caching", "Hashing", "BlobStore", "Sharding",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // systemd's notify protocol (READY, RELOADING, STOPPING, WATCHDOG) over its datagram socket.
        .target(name: "Systemd"),
        // The client library for apps: palettes, strings and images with an on-disk ETag cache,
        // and /events followed with reconnects and Last-Event-ID. Foundation only.
        .target(name: "ThemedClient", dependencies: ["ThemeVocabulary"]),
        // The daemon's settings: one list of keys, read from JSON and flags, each value with its source.
        .target(name: "Settings", dependencies: ["Sharding", "ThemeVocabulary", "HTTPServer", "ImageCoders", .product(name: "Logging", package: "swift-log")]),
        // The daemon assembled from settings (`buildApplication`): the server, the index and content,
        // the cluster follower and desk, webhooks, and the services started and stopped in order.
        .target(name: "ThemedApp", dependencies: [
            "AssetCatalog", "BlobStore", "CLinux", "Cluster", "HTTPServer", "ImageCoders", "JSON", "Logs", "Releases", "Review", "Settings", "Systemd",
            "ThemeContent", "ThemeIndex", "ThemeServer", "ThemeVocabulary", "Webhooks",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "themed", dependencies: [
            "ThemedApp",
            "AndroidResources", "AssetCatalog", "BlobStore", "CLinux", "FigmaVariables", "Hashing", "Logs", "Settings", "ThemedClient", "Codecs", "JSON", "ThemeBundle", "ThemeIndex", "ThemeContent", "ThemeExport", "Review", "Cluster", "Releases", "ThemeServer", "HTTPServer", "CatalogWriter", "ThemeVocabulary",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // What the fuzzers and their regression tests feed untrusted bytes to.
        .target(name: "FuzzTargets", dependencies: ["AssetCatalog", "Audiences", "BinaryReading", "BOM", "CatalogWriter", "Codecs", "DesignTokens", "FigmaVariables", "HTTPServer", "JSON", "ThemeBundle", "ThemeVocabulary"]),
        // libFuzzer's driver (`make fuzz` builds it with -sanitize=fuzzer,address -DFUZZING).
        .executableTarget(name: "themed-fuzz", dependencies: ["FuzzTargets"]),
        // Measurements for `make bench` (not part of the product).
        .executableTarget(name: "themed-bench", dependencies: ["AssetCatalog", "CVips", "ImageCoders", "Codecs", "BinaryReading", "SQLite", "ThemeContent", "ThemeIndex", "ThemeVocabulary", "HTTPServer", "ThemeServer", "DesignTokens", "FigmaVariables", "JSON", "CatalogWriter", "ThemedClient"]),

        // Helpers shared by the test targets: SHA-256, fixtures, the shared corpus and oracle tools.
        .target(name: "TestSupport", dependencies: ["Codecs"], path: "Tests/TestSupport"),
        // A themed service for tests: in-process (`APIFixture`) and on a loopback port (`ServerFixture`).
        .target(name: "ServiceSupport", dependencies: ["HTTPServer", "Logs", "Settings", "Sharding", "TestSupport", "ThemeContent", "ThemedApp", "ThemeServer",
                                                       .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log")],
                path: "Tests/ServiceSupport"),
        .testTarget(name: "ThemeVocabularyTests", dependencies: ["ThemeVocabulary"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "DesignTokensTests", dependencies: ["DesignTokens", "JSON", "ThemeVocabulary", "TestSupport"]),
        .testTarget(name: "FigmaVariablesTests", dependencies: ["FigmaVariables", "DesignTokens", "JSON", "TestSupport"]),
        .testTarget(name: "MaterialColorTests", dependencies: ["MaterialColor", "ThemeVocabulary", "TestSupport"]),
        .testTarget(name: "CachingTests", dependencies: ["Caching", "TestSupport"]),
        .testTarget(name: "ShardingTests", dependencies: ["Sharding"]),
        .testTarget(name: "ReleasesTests", dependencies: ["Releases", "Audiences", "Cluster", "HTTPServer", "ServiceSupport", "ThemeServer", "TestSupport",
                                                         .product(name: "HTTPTypes", package: "swift-http-types")]),
        // The Swift client against a real server on loopback.
        .testTarget(name: "ThemedClientTests", dependencies: ["ThemedClient", "ThemeServer", "ThemeIndex", "ThemeVocabulary", "HTTPServer", "ServiceSupport", "TestSupport"]),
        // The cluster store in-process against a real PostgreSQL: releases, rollouts, the outbox.
        .testTarget(name: "ClusterTests", dependencies: ["Cluster", "Audiences", "Hashing", "JSON", "Sharding", "TestSupport", "ThemeVocabulary", .product(name: "Logging", package: "swift-log")]),
        // `themed` replicas as processes over a real PostgreSQL: publish, follow, drafts, webhooks.
        .testTarget(name: "ReplicaTests", dependencies: ["Cluster", "Releases", "Audiences", "JSON", "TestSupport"]),
        .testTarget(name: "WebhooksTests", dependencies: ["Webhooks", "Settings", "ThemeServer", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ImageCodersTests", dependencies: ["CVips", "ImageCoders", "ThemeVocabulary", "Codecs", "BinaryReading", "TestSupport"],
                    exclude: ["vips-abi-check.c"]),
        .testTarget(name: "ThemeExportTests", dependencies: ["ThemeExport", "ThemeIndex", "ThemeVocabulary", "JSON", "TestSupport"]),
        .testTarget(name: "ReviewTests", dependencies: ["Review", "Codecs", "BinaryReading", "ThemeIndex", "TestSupport"]),
        // Reads Package.swift and docs/ARCHITECTURE.md: the layering rule, checked.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "AndroidResourcesTests", dependencies: ["AndroidResources", "ThemeExport", "ThemeContent", "ThemeIndex", "BlobStore", "Codecs", "BinaryReading", "TestSupport"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "Sharding", "TestSupport"]),
        .testTarget(name: "SystemdTests", dependencies: ["Systemd", "TestSupport"]),
        // Runs the built `themed` executable (every product is built before the tests run).
        .testTarget(name: "DaemonTests", dependencies: ["TestSupport", "ThemedApp"]),
        .testTarget(name: "LogsTests", dependencies: ["Logs", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "BlobStoreTests", dependencies: ["BlobStore", "Hashing", "TestSupport"]),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "BinaryReading", "TestSupport", "ThemeVocabulary", "FuzzTargets"],
                    resources: [.copy("Vectors")]),
        .testTarget(name: "BOMTests", dependencies: ["BOM", "BinaryReading"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(name: "AssetCatalogTests", dependencies: ["AssetCatalog", "Codecs", "BinaryReading", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "CatalogWriterTests", dependencies: ["CatalogWriter", "ThemeIndex", "AssetCatalog", "BOM", "BinaryReading", "JSON", "Codecs", "TestSupport", "FuzzTargets"]),
        .testTarget(name: "ThemeBundleTests", dependencies: ["ThemeBundle", "TestSupport", "ThemeVocabulary"]),
        .testTarget(name: "ThemeIndexTests", dependencies: ["ThemeIndex", "ThemeBundle", "SQLite", "TestSupport", "ThemeVocabulary", "DesignTokens", "JSON", "Hashing"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets"], resources: [.copy("Inputs")]),
        .testTarget(name: "ThemeContentTests", dependencies: ["ThemeContent", "ThemeIndex", "BlobStore", "Codecs", "ImageCoders", "TestSupport"]),
        // The HTTP server alone: connections' lives and outboxes in-process, sockets on loopback.
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types")]),
        .testTarget(name: "AudiencesTests", dependencies: ["Audiences", "JSON"]),
        .testTarget(name: "ThemeServerTests", dependencies: ["ThemeServer", "ServiceSupport", "ThemeIndex", "ThemeContent", "BlobStore", "Hashing", "Sharding", "HTTPServer", "Codecs", "BinaryReading", "CatalogWriter", "TestSupport", "FuzzTargets", "Cluster", "MaterialColor",
                                                            "AssetCatalog", "Audiences", "ImageCoders", "JSON", "Logs", "ThemeExport", "ThemeVocabulary", .product(name: "HTTPTypes", package: "swift-http-types"),
                                                            .product(name: "Logging", package: "swift-log")]),
    ]
)
