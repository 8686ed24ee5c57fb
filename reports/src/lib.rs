//! Results files and reports for bitbench.
