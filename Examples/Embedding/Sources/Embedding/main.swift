import CKRuntime

/// What the Swift side receives: an `addToCart` action's arguments as a Decodable struct.
struct Price: Decodable { var amount: Double; var currency: String? }

/// Builds the shop from Lua, taps its buttons (Lua sends typed actions to the Swift responder),
/// sends one typed action from Swift into Lua, and prints the tree.
func main() throws {
    let runtime = try Runtime(.init(timeout: 2, memoryLimitMegabytes: 64))
    let shop = try runtime.load(string: String(decoding: PackageResources.shop_lua, as: UTF8.self), name: "shop.lua")

    var store = HostResponder(name: "Store")
    store.on("addToCart") { call in
        let price = try call.argument(2, as: Price.self)
        print("addToCart from \(call.sender ?? "?"): \(call[0].stringValue ?? "?") x\(call[1].intValue ?? -1) at \(price.amount) \(price.currency ?? "(no currency: a demoted send)")")
    }
    let model: ScriptValue = ["items": [["name": "tea", "stock": 3, "price": 4.5],
                                        ["name": "cup", "stock": 1, "single": true]]]
    let host = try runtime.mount(shop, model: model, responders: [store])

    try host.tap("Item#tea")
    try host.tap("Item#cup")
    try host.send("restock", types: ["int"], to: .scope("Item#cup"), arguments: [5])
    do {
        try host.send("restock", types: ["int"], to: .scope("Item#cup"), arguments: ["many"])
    } catch {
        print("refused: \(error.id)")
    }
    print(try host.dump(), terminator: "")
}

do {
    try main()
} catch {
    print("error: \(error)")
}
