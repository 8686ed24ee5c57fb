//! The `bitbench` binary: the built-in suite through the public entry.

fn main() -> std::process::ExitCode {
    bitbench::cli::main(bitbench::builtin::WORKLOADS, bitbench::origin!())
}
