//! Instruction counts with gungraun, generated from the workload registry.
//!
//! One binary benchmark per (workload, variant) and one bench per input set,
//! grouped with `compare_by_id` so gungraun lines the variants of a
//! workload up on the same inputs. Each bench runs `bitbench count
//! --run-case` under callgrind and counts one pass over a prepared batch;
//! `bitbench count` runs the same group and converts the summaries into a
//! results file. Needs valgrind and `gungraun-runner` 0.20.0
//! (`bash .ci/install-measure-tools`). Filter with a wildcard on the
//! benchmark path, e.g. `cargo bench -p harness --bench instructions --
//! '*components__swar*'`.

fn main() -> std::process::ExitCode {
    bitbench::counting::bench_main(bitbench::builtin::WORKLOADS, env!("CARGO_BIN_EXE_bitbench"))
}
