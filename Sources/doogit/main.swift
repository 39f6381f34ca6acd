import DoogitCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
let context = Context(environment: environment, currentDirectory: ProcessEnvironment.currentDirectory(),
                      console: Console.standard(environment: environment),
                      standardInputIsTerminal: isatty(STDIN_FILENO) == 1)
exit(Doogit.run(arguments, context: context))
