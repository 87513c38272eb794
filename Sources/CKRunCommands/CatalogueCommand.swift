import ArgumentParser
import CKCore

/// `ckrun catalogue`: prints the error catalogue as Markdown (the source of docs/errors.md).
struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Print every error id with its cause and fix, as Markdown."
    )

    func run() throws {
        ProcessOutput.out(Self.markdown)
    }

    /// The error catalogue page (`docs/errors.md`), made from `cause` and `fix`.
    static var markdown: String {
        var out = """
        # Error catalogue

        Every error ckrun raises to Lua is a string that starts with its id in brackets, then where it
        happened (`file:line`) and what to do: `[unhandledAction] app.lua:12: nothing handles …`.
        Warnings have the same form and go to `ck.config.onWarning` (stderr by default).
        This page is generated from `Sources/CKCore/Errors/Catalogue.swift` (`ckrun catalogue`).

        | id | cause | what to do |
        |---|---|---|

        """
        for id in Catalogue.allCases {
            out += "| `[\(id.rawValue)]` | \(id.cause) | \(id.fix) |\n"
        }
        return out
    }
}
