//! bitbench harness.
