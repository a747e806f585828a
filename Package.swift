// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "bestseller-wishlist",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wishlist", targets: ["WishlistCLI"]),
        .library(name: "WishlistTemplates", targets: ["WishlistTemplates"]),
        // For Benchmarks/ only: the template bench decodes the sample catalog with the app's own
        // catalog code (NYTResponses, CatalogEdition), public for that and nothing else.
        .library(name: "WishlistCore", targets: ["WishlistCore"]),
    ],
    dependencies: [
        // ConfigurationSupport is left out: we read config.json ourselves and it would double the build.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // SHA-256, HMAC, and the P-256 and RSA signatures passkeys use (RSA through _CryptoExtras).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Already in the graph through Hummingbird; named so the app can import them directly.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CArgon2",
            pkgConfig: "libargon2",
            providers: [.apt(["libargon2-dev"])]
        ),
        // glibc's <malloc.h>, on Linux only: the executable's allocator settings, the hasher's trim.
        .systemLibrary(name: "CMalloc"),
        // sqlite3_config, variadic in C: the library's settings made before the first connection.
        .systemLibrary(name: "CSQLiteSettings", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // The decoders browsers use on untrusted pictures, and our C around them: read a picture's
        // header, stream its rows into a centre square (profile pictures) or the whole picture
        // (covers), re-encode without metadata.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // zlib: the stylesheet's deflate stream that every page's gzip splices in (it ends on a flush,
        // which libdeflate cannot do), CRC-32s combined, and gzip unpacked in tests.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // gzip for responses a browser asks to have compressed (CompressionMiddleware, StaticFiles):
        // libdeflate compresses a body in memory in about two thirds of zlib's time, for the same
        // bytes (docs/decisions/gzip-through-libdeflate-and-zlib.md).
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .target(name: "CPictureCodec", dependencies: ["CJPEG", "CPNG", "CWebP"]),
        // The tests' pictures, drawn and encoded as they run instead of committed as binary files;
        // only the test target depends on it, so none of it ships.
        .target(
            name: "CTestPictures",
            dependencies: ["CPictureCodec", "CJPEG", "CPNG", "CWebP"],
            path: "Tests/CTestPictures",
            cSettings: [.headerSearchPath("../../Sources/CPictureCodec")]
        ),
        // zbar reads the barcode of a photographed book (`BookBarcodeReader`, issue 52).
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        // Proleptic Gregorian dates in UTC by integer arithmetic, for the templates and the database:
        // Foundation's calendars and date formatters would load ICU (docs/memory.md).
        .target(name: "CivilTime", swiftSettings: swiftSettings),
        // What CLDR says about each shipped language (plural rules, month names, date patterns) and
        // the gettext catalogs' reader: below the engine and the core, which both word things per
        // language and cannot import each other (docs/decisions/languages-module.md).
        .target(name: "WishlistLanguages", dependencies: ["CivilTime"], swiftSettings: swiftSettings),
        // The template engine: no app types, so it can be benchmarked and reused on its own.
        .target(
            name: "WishlistTemplates",
            dependencies: ["CivilTime", "WishlistLanguages", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        // The domain: configuration, storage, security, accounts, catalog, wishlist. No HTTP, no HTML.
        .target(
            name: "WishlistCore",
            dependencies: [
                "CArgon2",
                "CCurl",
                "CPictureCodec",
                "CZBar",
                "CivilTime",
                "WishlistLanguages",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                "CSQLiteSettings",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the one statement GRDB's queues would make slow (DatabaseChangeProbe).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The sample catalog's JSON files, read at run time through `Bundle.module`: SwiftPM's
            // `.embedInCode` turns them into one [UInt8] literal that takes minutes and gigabytes to
            // compile (docs/decisions/sample-catalog.md). The table of look-alike characters
            // display names are compared by (`NameSkeleton`) is read the same way.
            resources: [.copy("Catalog/SampleCatalog"), .copy("Profiles/confusables.txt")],
            swiftSettings: swiftSettings
        ),
        // HTTP: middleware, controllers, forms and page values. No SQL.
        .target(
            name: "WishlistWeb",
            dependencies: [
                "CivilTime",
                "CDeflate",
                "CZlib",
                "WishlistCore",
                "WishlistLanguages",
                "WishlistTemplates",
                // SHA-256 for static files' content-hashed URLs.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTP/1 connections bound to their event loops (LoopBoundChannel).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // HTTPParserError: a request body that is malformed or ends too soon (CSRFMiddleware).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "WishlistCLI",
            dependencies: [
                "CivilTime",
                "WishlistCore",
                "WishlistWeb",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/wishlist",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WishlistTests",
            dependencies: [
                "CivilTime",
                "WishlistCore",
                "WishlistLanguages",
                "WishlistTemplates",
                "WishlistWeb",
                "CPictureCodec",
                "CTestPictures",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // A software authenticator signs the passkey tests' assertions.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            // Snapshots and the upgrade fixtures are read from the repository by path
            // (HistoryPagesTests, UpgradeTests), not bundled.
            exclude: ["Catalog/Snapshots", "Storage/Upgrades"],
            swiftSettings: swiftSettings
        ),
    ]
)

// `make fuzz` (docs/fuzzing.md): libFuzzer targets for the parsers of untrusted input, declared
// only when WISHLIST_FUZZ=1 so that the normal build never sees them. They live in this package
// rather than one of their own so that they reach `package` declarations. Only our own code gets
// libFuzzer's coverage and the address sanitizer: the parsers are ours, and the dependencies
// (BoringSSL's C above all) then build as plainly as in a debug build, which keeps the fuzz smoke
// of `make test` affordable in CI.
if Context.environment["WISHLIST_FUZZ"] == "1" {
    let sanitized = ["-sanitize=fuzzer,address"]
    for target in package.targets where ["CivilTime", "WishlistTemplates", "WishlistCore", "WishlistWeb"].contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitized)]
    }
    for target in package.targets where target.name == "CPictureCodec" {
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]
    }
    package.targets += [
        .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .executableTarget(
            name: "wishlist-fuzz",
            dependencies: [
                "CFuzzDriver",
                "WishlistCore",
                "WishlistTemplates",
                "WishlistWeb",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Fuzz/Targets",
            swiftSettings: swiftSettings + [.unsafeFlags(sanitized)],
            linkerSettings: [.unsafeFlags(sanitized)]
        ),
    ]
}
