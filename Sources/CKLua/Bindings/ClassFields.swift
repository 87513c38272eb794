import CKCore

/// `Class.key` and `Class.key = value`, the same for component and controller classes: their
/// bindings only say which class the handle is.
enum ClassFields {
    /// `Class.key`: the class's name, or what its table holds.
    static func get(_ args: Arguments, _ cls: RuntimeObject, named name: String, _ key: String) -> Int32 {
        if key == "name" { args.engine.values.pushString(name, args.L) } else { args.engine.classes.pushField(cls, key, args.L) }
        return 1
    }

    /// `Class.key = value`: configures the class as its definition would, in the class's arena.
    static func set(_ args: Arguments, _ cls: RuntimeObject, _ configurator: ClassConfigurator, _ key: String) throws -> Int32 {
        try args.engine.ownership.withHome(.arena(args.engine.ownership.arena(ofClass: cls)!)) {
            try configurator.set(key, valueAt: 3)
        }
        return 0
    }
}
