#if canImport(Glibc)
import Glibc
#endif

/// Writes to stderr without Foundation.
public enum FileStream {
    public struct Stream: Sendable {
        let fd: Int32
        public func write(_ text: String) {
            var s = text
            s.withUTF8 { buf in
                var offset = 0
                while offset < buf.count {
                    let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                    if n <= 0 { return }
                    offset += n
                }
            }
        }
    }

    public static let standardError = Stream(fd: 2)
    public static let standardOutput = Stream(fd: 1)
}
