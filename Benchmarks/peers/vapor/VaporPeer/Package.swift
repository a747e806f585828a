// swift-tools-version:5.9
// A benchmark peer (issue 17): the signed-in list page written the way Vapor's
// documentation teaches, over the app's own SQLite database. Not product code.
import PackageDescription

let package = Package(
    name: "vapor-peer",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", exact: "4.122.3"),
        .package(url: "https://github.com/vapor/leaf.git", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/fluent.git", exact: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", exact: "4.9.0"),
    ],
    targets: [
        .executableTarget(
            name: "VaporPeer",
            dependencies: [
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Leaf", package: "leaf"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
            ]
        ),
    ]
)
