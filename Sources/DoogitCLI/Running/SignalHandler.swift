#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installing a C signal handler, the same way on Linux and macOS.
enum SignalHandler {
    /// Makes `handler` the handler of `number`; returns the disposition there was, to put back
    /// with `restore`, or nil when the system refused.
    static func install(_ handler: @convention(c) (Int32) -> Void, for number: Int32) -> sigaction? {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        return sigaction(number, &action, &previous) == 0 ? previous : nil
    }

    static func restore(_ previous: sigaction, for number: Int32) {
        var previous = previous
        sigaction(number, &previous, nil)
    }
}
