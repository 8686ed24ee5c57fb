//! Where one pair of samples was taken: the pair of processes, the
//! window of inputs and the order. Both the pairing (`pairs.rs`), which
//! records it, and the statistics (`stats.rs`, `modes.rs`), which group
//! by it, read it.

/// Where one pair was taken: by which pair of processes, on which inputs,
/// and which side went first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Taken {
    /// The pair of processes (0 the first; see `instances.rs`).
    pub instance: usize,
    /// Which inputs the pair ran: pairs of one window do the same work.
    pub window: usize,
    /// Whether B's sample came first. The order is A B B A …, so a
    /// sample that follows its own build's last one finds the caches as
    /// that one left them, and one that follows the other build's finds
    /// them as the other left them: a batch larger than the first-level
    /// cache ran a quarter faster warm, and its ratios took turns at
    /// about 0.75 and 1.3. The two orders are judged apart and their
    /// changes averaged (`stats.rs`), which cancels that.
    pub b_first: bool,
}
