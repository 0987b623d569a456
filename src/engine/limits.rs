//! What a search may spend: depth, nodes, a fixed move time, or a clock.

/// Search limits as UCI `go` gives them; all absent means "until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum iterative-deepening depth.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Fixed time for this move in milliseconds.
    pub movetime: Option<u64>,
    /// White's clock in milliseconds.
    pub wtime: Option<u64>,
    /// Black's clock in milliseconds.
    pub btime: Option<u64>,
    /// White's increment in milliseconds.
    pub winc: Option<u64>,
    /// Black's increment in milliseconds.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// When the request arrived; the clock runs from here (defaults to the search's start).
    pub received: Option<std::time::Instant>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}
