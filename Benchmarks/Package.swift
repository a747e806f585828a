// swift-tools-version:6.2
// Benchmarks for Bestseller Wishlist, kept out of the app's package so its build does not grow.
//
// - template-bench: the list page rendered by our engine, swift-mustache and Stencil.
//   The engine is the app's `WishlistTemplates` library product (the app's package, by path), and
//   the sample catalog's JSON files, read at run time, are decoded by the app's own catalog code
//   (its `WishlistCore` library product: `NYTNamesResponse`, `NYTOverviewResponse`, `CatalogEdition`),
//   so neither is a copy that could drift.
// - ceiling-server: a minimal Hummingbird server with one fixed route, the HTTP stack's ceiling
//   for `make bench`.
import PackageDescription

let package = Package(
    name: "wishlist-benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "template-bench", targets: ["TemplateBench"]),
        .executable(name: "ceiling-server", targets: ["CeilingServer"]),
    ],
    dependencies: [
        .package(name: "bestseller-wishlist", path: ".."),
        // The same version and trait as the app, so the ceiling is the app's HTTP stack.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // SHA-256 for the asset and cover URLs the app's pages carry; the app's own dependency.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", exact: "2.1.1"),
        .package(url: "https://github.com/stencilproject/Stencil.git", exact: "0.15.1"),
    ],
    targets: [
        .executableTarget(
            name: "TemplateBench",
            dependencies: [
                .product(name: "WishlistTemplates", package: "bestseller-wishlist"),
                .product(name: "WishlistCore", package: "bestseller-wishlist"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Stencil", package: "Stencil"),
            ],
            path: "Sources/TemplateBench",
            // Top-level benchmark script code; the engine itself builds in Swift 6 mode, as in the app.
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "CeilingServer",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/CeilingServer"
        ),
    ]
)
