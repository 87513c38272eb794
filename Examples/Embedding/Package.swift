// swift-tools-version:6.0
import PackageDescription

// ckrun's runtime embedded in a Swift program: Lua components send typed actions to a Swift
// host responder (docs/embedding.md). Depends on ckrun by path; `scripts/test` builds and runs it.
// A path dependency's identity is its folder's name (the clone's, which varies).
let ckrun = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "ckrun")

let package = Package(
    name: "Embedding",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(name: "Embedding", dependencies: [.product(name: "CKRuntime", package: ckrun)],
                          resources: [.embedInCode("shop.lua")]),
    ]
)
