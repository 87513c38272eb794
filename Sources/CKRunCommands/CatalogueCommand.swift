import ArgumentParser
import CKCore

/// `ckrun catalogue`: prints the error catalogue as Markdown (the source of docs/errors.md).
struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Print every error id with its cause and fix, as Markdown."
    )

    func run() throws {
        print(Catalogue.markdown, terminator: "")
    }
}
