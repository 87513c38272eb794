import CKCore
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An error from the file system or a process start said in words, in place of full
/// Foundation's `localizedDescription` (which said "The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)" for a directory that could not be made).
func errorText(_ error: any Error) -> String {
    if let posix = error as? POSIXError { return SystemError.text(posix.code.rawValue) }
    if let cocoa = error as? CocoaError {
        if let posix = cocoa.underlying as? POSIXError { return SystemError.text(posix.code.rawValue) }
        return "file error \(cocoa.code.rawValue)"
    }
    return "\(error)"
}
