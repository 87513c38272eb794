import CKRuntime

/// A picker: `relay` and `relayDemoted` (scope actions from Swift) send `picked` typed
/// {"int", "number", "Point"} up the chain to the host responders; `select` records what
/// Swift sent into state; `spin` and `hoard` never end.
let pickerSource = """
ck.struct("Point", {x = "number", y = "number"})
local Picker = ck.component("Picker", {
  scope = true,
  initialState = {selected = "none"},
  render = function(self, props)
    return ck.Button{title = props.title or "pick", action = ck.action("tapped")}
  end,
  relay = function(self, sender, n, x, p)
    ck.action("picked", {"int", "number", "Point"}):send(self, n, x, p)
  end,
  relayDemoted = function(self, sender, n)
    ck.action("picked", {"int", "number", "Point"}):demoted({"int"}):send(self, n)
  end,
  select = function(self, sender, index, point)
    self:updateState({selected = index, x = point.x, y = point.y, mathType = math.type(index)}, "sync")
  end,
  spin = function(self) while true do end end,
  hoard = function(self) local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(64) .. i end end,
})
return Picker
"""

/// A runtime with the picker mounted, the `picked` and `tapped` actions its Swift host
/// responder receives recorded in `received`.
final class PickerFixture {
    let runtime: Runtime
    let host: Host
    private let box = Box()
    var received: [ActionCall] { box.calls }

    init(_ configuration: Runtime.Configuration = .init(), model: ScriptValue = ["title": "Pick"]) throws {
        runtime = try Runtime(configuration)
        let picker = try runtime.load(string: pickerSource, name: "picker.lua")
        var controller = HostResponder(name: "ViewController")
        controller.on("picked") { [box] in box.calls.append($0) }
        controller.on("tapped") { [box] in box.calls.append($0) }
        host = try runtime.mount(picker, model: model, responders: [controller])
    }
}

final class Box {
    var calls: [ActionCall] = []
}
