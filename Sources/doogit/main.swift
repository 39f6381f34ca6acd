import DoogitCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Each argument as the bytes the system gave: `CommandLine.arguments` would have repaired
// bytes that are not UTF-8 into U+FFFD, and doogit refuses those instead.
let arguments: [[UInt8]] = (0..<Int(CommandLine.argc)).dropFirst().map { index in
    guard let argument = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
let environment = ProcessEnvironment.current()
let context = Context(environment: environment, currentDirectory: ProcessEnvironment.currentDirectory(),
                      console: Console.standard(environment: environment),
                      standardInputIsTerminal: isatty(STDIN_FILENO) == 1)
exit(Doogit.run(commandLine: arguments, context: context))
