import ArgumentParser
import ResponderServer

/// `--durability none|normal|full`, listed by --help and checked while parsing.
extension Durability: ExpressibleByArgument {}
