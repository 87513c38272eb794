/// The remedies a message names whose words differ by audience: a `ckrun` user makes a host
/// with `ck.host` and raises `--timeout`; a Swift program calls `runtime.mount` and sets
/// `Configuration.timeout`. A message says one through its case (the command line's words,
/// the raw value); CKRuntime's `LibraryWording` says every case in the library's words, so a
/// message written once reads right to both. C's messages (`ckwatchdog.c`, `ckalloc.c`) spell
/// the raw value itself.
public enum Remedy: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A destroyed host cannot be revived: make another.
    case makeANewHost = "make a new host with ck.host"
    /// The same, after "a destroyed host".
    case makeANewOne = "make a new one with ck.host"
    /// A host is kept only while something holds it.
    case keepTheHost = "e.g. local host = ck.host(...)"
    /// The time limit stopped the script.
    case raiseTheTimeout = "raise --timeout"
    /// The memory limit stopped the script.
    case raiseTheMemoryLimit = "raise --memory-limit"
    /// What a host's provider argument is called.
    case providerArgument = "ck.host: argument #1 (provider)"

    public var description: String { rawValue }
}
