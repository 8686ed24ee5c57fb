//! The `bitbench` binary: the built-in suite through the public entry,
//! with the counting allocator that `main!` installs for other programs.

#[global_allocator]
static ALLOC: bitbench::CountingAlloc = bitbench::CountingAlloc::system();

fn main() -> std::process::ExitCode {
    bitbench::cli::main(bitbench::builtin::WORKLOADS, bitbench::origin!())
}
