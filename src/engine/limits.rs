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
    /// Playing level for this search, 1 (weakest) to 10; `None` is full strength. It travels
    /// with each request, so a full-strength hint and a level-3 move can share one engine.
    pub level: Option<u8>,
    /// Only these root moves are considered (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<shakmaty::Move>,
    /// How many best lines to find (UCI `MultiPV`); 0 and 1 both mean one.
    pub multipv: u32,
    /// Centipawns the side to move at the root would give up rather than draw: a game's
    /// search plays on in level positions, an analysis (0) calls a draw a draw. Only full
    /// strength uses it; the weaker levels were measured without it.
    pub contempt: i32,
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

    /// The same limits at `level` (1 to 10; 10 is full strength).
    pub fn at_level(mut self, level: u8) -> Limits {
        self.level = Some(level);
        self
    }
}
