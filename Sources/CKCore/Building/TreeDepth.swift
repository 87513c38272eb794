/// A render that returns its own class without a base case builds forever (React stops such a
/// tree with a stack overflow): a build warns once when it renders 10,000 components deep below
/// where it started (the root, for a full build) and stops past `Runtime.maxDepth`
/// (`ck.config.maxDepth`; the default lets the 1,000,000-deep trees of scripts/bench-scaling
/// build), naming the class that repeats on the path and where its render is defined.
enum TreeDepth {
    static let warning = 10_000
    public static let defaultLimit = 1 << 20

    /// The depth from which `check` has something to say.
    static func watched(from runtime: Runtime) -> Int { runtime.maxDepth < warning ? runtime.maxDepth + 1 : warning }

    static func check(_ depth: Int, of node: Component, context: BuildContext, _ runtime: Runtime) throws {
        if depth > runtime.maxDepth {
            let found = repeating(above: node, in: context.host)
            throw RuntimeError(.treeTooDeep, "building generation \(context.generation) rendered more than ck.config.maxDepth (\(runtime.maxDepth)) components deep, at \(node.shownName); \(found); the build stopped. \(found.advice), or raise ck.config.maxDepth", at: found.location)
        }
        guard depth == warning, !context.warnedDeep else { return }
        context.warnedDeep = true
        let found = repeating(above: node, in: context.host)
        if runtime.maxDepth == defaultLimit, found.cls.renderDefinition != nil, rendersItselfUnchanged(found.cls, above: node, runtime) {
            throw RuntimeError(.treeTooDeep, "building generation \(context.generation) rendered \(warning) components deep, at \(node.shownName); \(found), each with the props, key and state of the one above it: a render is a function of its props and state, so this one would never end; the build stopped. \(found.advice); if its base case lies outside its props and state (a counter kept elsewhere), set ck.config.maxDepth (to \(defaultLimit + 1) or more) and it builds on", at: found.location)
        }
        runtime.onWarning(Catalogue.treeTooDeep.message("building generation \(context.generation) rendered \(warning) components deep, at \(node.shownName); \(found). Building on; it stops past ck.config.maxDepth (\(runtime.maxDepth)). A render without a base case?", at: found.location))
    }

    /// The class that repeats on a path, how often among how many components looked at, and
    /// where to look: its render, or for a built-in (no render) the code that made the deepest
    /// one (a provider or a loop outside any build nesting stacks: it was "render at ?").
    struct Repeating: CustomStringConvertible {
        let cls: ComponentClass
        let count: Int, looked: Int
        /// `render at app.lua:3`, `a built-in made in the host's provider at app.lua:7`.
        let place: String
        let location: String?
        /// What to change there.
        var advice: String {
            cls.renderDefinition != nil ? "Give that render a base case (return nil when there is nothing below)"
                : "Nest fewer built-ins where they were made (a loop or a recursion wrapping each in the next)"
        }
        var description: String {
            "\(cls.shownName) (\(place)) is \(count) of the last \(looked) components on the path"
        }

        init(cls: ComponentClass, count: Int, looked: Int, deepest: Component, host: Host) {
            self.cls = cls
            self.count = count
            self.looked = looked
            if let at = cls.renderDefinition {
                place = "render at \(at)"
                location = at
                return
            }
            let made = deepest.madeBy
            let at = made.definition(in: host) ?? deepest.madeInRenderOf?.componentClass.renderDefinition
            place = "a built-in made in \(made.description)" + (at.map { " at \($0)" } ?? "")
            location = at
        }
    }

    /// Whether every instance of `cls` among the `sample` components above `node` has the props,
    /// key and state of the next one up: a render given the same inputs returns the same thing,
    /// so the recursion has no base case to reach (React would overflow its stack long before).
    private static func rendersItselfUnchanged(_ cls: ComponentClass, above node: Component, _ runtime: Runtime) -> Bool {
        var c = node.parent, looked = 0, below: Component?, pairs = 0
        while let here = c, looked < sample {
            if here.componentClass === cls {
                if let lower = below {
                    guard runtime.shallowEqual(lower.props, here.props), lower.key.rawEquals(here.key),
                          runtime.shallowEqual(lower.state, here.state) else { return false }
                    pairs += 1
                }
                below = here
            }
            c = here.parent
            looked += 1
        }
        return pairs >= sample / 4
    }

    /// How far up the path is looked at for the class that repeats (the walk is bounded).
    private static let sample = 1_000

    /// The class met most often among the `sample` components at and above `node`, one with a
    /// render first (a built-in between two levels of it repeats as often).
    private static func repeating(above node: Component, in host: Host) -> Repeating {
        // Counted in the order met (nearest first), so a tie names the same class in every run.
        var counts: [(ComponentClass, Int, Component)] = [], slot: [ObjectIdentifier: Int] = [:]
        var c: Component? = node, looked = 0
        while let here = c, looked < sample {
            let id = ObjectIdentifier(here.componentClass)
            if let i = slot[id] { counts[i].1 += 1 } else { slot[id] = counts.count; counts.append((here.componentClass, 1, here)) }
            c = here.parent
            looked += 1
        }
        let rank = { (entry: (ComponentClass, Int, Component)) in (entry.0.renderDefinition == nil ? 0 : 1, entry.1) }
        let (cls, count, deepest) = counts.max { rank($0) < rank($1) } ?? (node.componentClass, 1, node)
        return Repeating(cls: cls, count: count, looked: looked, deepest: deepest, host: host)
    }
}
