import CKCore
import CLua
import CLuaShims

/// The bridge's half of cached sends. The full send path (Swift) receives the plan of each
/// send it makes from the core (`Runtime.send(…, onPlan:)`) and stores it on the action's handle; the C `send` method
/// (`cksend.c`) answers later sends of that action from the plan, entering and leaving the
/// runtime call through the shared `CallState`, until the core's epoch moves on.
final class SendPlans {
    private let hooks: UnsafeMutablePointer<ck_send_hooks>

    init(engine: Engine, send: Int32, leave: Int32, abandon: Int32) {
        let state = UnsafeMutableRawPointer(engine.runtime.callState).bindMemory(to: ck_callstate.self, capacity: 1)
        let objects = engine.objects
        hooks = .allocate(capacity: 1)
        cksend_push_weak_values_metatable(engine.lua.L)
        let weakValues = engine.refs.pin()
        hooks.initialize(to: ck_send_hooks(
            state: state, memory: ckstate_memory_of(engine.lua.L), send: send, leave: leave, abandon: abandon, weak_values: weakValues,
            responder_metatables: (objects.metatablePointer(for: .component), objects.metatablePointer(for: .controller),
                                   objects.metatablePointer(for: .view)),
            responder_kinds: (ObjectKind.component.rawValue, ObjectKind.controller.rawValue, ObjectKind.view.rawValue)))
    }

    deinit {
        hooks.deinitialize(count: 1)
        hooks.deallocate()
    }

    /// Pushes the `send` method of actions.
    func pushSend(_ L: OpaquePointer) { cksend_push(L, hooks) }

    /// Stores the plan of sending the action at `index` from `sender`, if C can check its
    /// arguments (primitive types; struct zeros need a table each) and call its handler.
    func record(_ plan: SendPlan, for action: Action, sender: Responder?, actionAt index: Int32, engine: Engine,
                _ L: OpaquePointer) {
        // C passes the first `types.count` arguments and zero-fills the rest of `fullTypes`.
        guard let handler = plan.method.script as? LuaRef, action.fullTypes.count <= Int(CK_PLAN_MAX_TYPES),
              action.forwarded == action.types.count else { return }
        var spec = ck_plan()
        spec.owner = UnsafeRawPointer(hooks)
        spec.epoch = plan.epoch
        spec.ntypes = Int32(action.types.count)
        spec.nfull = Int32(action.fullTypes.count)
        spec.passed = Int32(plan.method.passedCount(of: 1 + action.fullTypes.count))
        spec.has_receiver = plan.method.takesReceiver ? 1 : 0
        spec.check_sender = action.kind == .selector ? 1 : 0
        let complete = withUnsafeMutableBytes(of: &spec.types) { codes in
            // A checked position is checked as the sender's type (it may be narrower than the
            // handler's: `TypeSpec.meeting`), as the full path does; the rest are the handler's zeros.
            for (i, type) in action.fullTypes.enumerated() {
                let checked = i < action.types.count
                guard let code = Self.code(checked ? action.types[i] : type, checked: checked) else { return false }
                codes[i] = code
            }
            return true
        }
        guard complete else { return }
        handler.push(L)
        if spec.has_receiver != 0, let r = plan.responder { engine.values.push(r.object, L) } else { lua_pushnil(L) }
        if spec.check_sender != 0, let s = sender { engine.values.push(s.object, L) } else { lua_pushnil(L) }
        cksend_store_plan(L, index, &spec, hooks)
    }

    /// The C code of a type: checked for an argument the sender passes, zero-filled past them.
    private static func code(_ type: TypeSpec, checked: Bool) -> UInt8? {
        let code: Int
        switch type {
        case .any: code = CK_ARG_ANY
        case .bool: code = CK_ARG_BOOL
        case .int: code = CK_ARG_INT
        case .number: code = CK_ARG_NUMBER
        case .string: code = CK_ARG_STRING
        case .table: code = CK_ARG_TABLE
        case .function: code = CK_ARG_FUNCTION
        case .className: guard !checked else { return nil }; code = CK_ARG_ANY   // zero: nil
        case .structure: return nil
        }
        return UInt8(code)
    }
}
