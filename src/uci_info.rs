//! The UCI `info` line, both ways: the line Knightfall writes for a progress report (the UCI
//! loop, `knightfall analyse`) and the report read back from another engine's line (`external`).
//! Keeping both here keeps them in step: a line Knightfall writes reads back as the same report.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::engine::score::MATE;
use crate::engine::{Info, report};

/// The largest centipawn score read back: higher ones are mates or tablebase wins in the
/// reporting engine's own scale, which a centipawn number cannot say.
const MAX_CP: i32 = MATE - 2000;
/// The longest mate read back, in moves.
const MAX_MATE: i32 = 500;

/// Formats a progress report as a UCI `info` line.
pub(crate) fn write(info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv.max(1),
        report(info.score),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms
    );
    if info.tb_hits > 0 {
        line.push_str(&format!(" tbhits {}", info.tb_hits));
    }
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            line.push(' ');
            line.push_str(&m.to_uci(CastlingMode::Standard).to_string());
        }
    }
    line
}

/// The `info` line for a move the tablebases chose at the root, without a search.
pub(crate) fn write_tablebase_move(score: i32, m: Move) -> String {
    format!(
        "info depth 1 score {} tbhits 1 pv {}",
        report(score),
        m.to_uci(CastlingMode::Standard)
    )
}

/// Whether an `info` line's score is only a bound (`lowerbound`, `upperbound`): a search that
/// failed high or low, or was stopped there, whose line is often its first move alone.
pub(crate) fn is_bound(line: &str) -> bool {
    line.split_whitespace()
        .take_while(|&w| w != "string")
        .any(|w| w == "lowerbound" || w == "upperbound")
}

/// A progress report from an `info` line that carries a score (other lines give `None`), with
/// the number of its line (`multipv`, 1 when the engine does not say). The PV, from `pos`, is
/// kept up to its first illegal move.
pub(crate) fn read(line: &str, pos: &Chess) -> Option<Info> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut info = Info {
        depth: 0,
        seldepth: 0,
        score: 0,
        nodes: 0,
        nps: 0,
        time_ms: 0,
        hashfull: 0,
        tb_hits: 0,
        pv: Vec::new(),
        multipv: 1,
    };
    let mut scored = false;
    let number = |w: Option<&str>| w.and_then(|v| v.parse::<i64>().ok());
    while let Some(word) = words.next() {
        match word {
            "depth" => info.depth = number(words.next())?.max(0) as u32,
            "seldepth" => info.seldepth = number(words.next())?.max(0) as u32,
            "nodes" => info.nodes = number(words.next())?.max(0) as u64,
            "nps" => info.nps = number(words.next())?.max(0) as u64,
            "time" => info.time_ms = number(words.next())?.max(0) as u64,
            "hashfull" => info.hashfull = number(words.next())?.max(0) as u32,
            "tbhits" => info.tb_hits = number(words.next())?.max(0) as u64,
            "multipv" => info.multipv = number(words.next())?.clamp(1, 500) as u32,
            "score" => {
                let kind = words.next()?;
                let n = number(words.next())?.clamp(-100_000, 100_000) as i32;
                info.score = match kind {
                    "cp" => n.clamp(-MAX_CP, MAX_CP),
                    "mate" if n > 0 => MATE - (2 * n.min(MAX_MATE) - 1),
                    "mate" => -MATE + 2 * n.abs().min(MAX_MATE),
                    _ => return None,
                };
                scored = true;
            }
            "pv" => {
                let mut walk = pos.clone();
                for text in words.by_ref() {
                    let Some(m) = text
                        .parse::<UciMove>()
                        .ok()
                        .and_then(|u| u.to_move(&walk).ok())
                    else {
                        break;
                    };
                    walk.play_unchecked(m);
                    info.pv.push(m);
                }
            }
            // The rest of the line is free text.
            "string" => break,
            _ => {}
        }
    }
    scored.then_some(info)
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use proptest::prelude::*;

    use super::*;
    use crate::fen::line as moves;

    fn info(score: i32, pv: Vec<Move>) -> Info {
        Info {
            depth: 12,
            seldepth: 18,
            score,
            nodes: 123_456,
            nps: 987_654,
            time_ms: 125,
            hashfull: 42,
            tb_hits: 0,
            pv,
            multipv: 1,
        }
    }

    #[test]
    fn knightfall_writes_every_field_in_its_order() {
        let pos = Chess::default();
        let mut report = info(35, moves(&pos, &["e2e4", "e7e5", "g1f3"]));
        report.tb_hits = 7;
        report.multipv = 0;
        assert_eq!(
            write(&report),
            "info depth 12 seldepth 18 multipv 1 score cp 35 nodes 123456 nps 987654 \
             hashfull 42 time 125 tbhits 7 pv e2e4 e7e5 g1f3"
        );
        let mated = info(-MATE + 4, Vec::new());
        assert_eq!(
            write(&mated),
            "info depth 12 seldepth 18 multipv 1 score mate -2 nodes 123456 nps 987654 \
             hashfull 42 time 125"
        );
    }

    #[test]
    fn a_tablebase_move_reads_back() {
        let pos = crate::fen::position("8/8/8/8/8/1k6/8/K1Q5 w - - 0 1").unwrap();
        let m = moves(&pos, &["c1c2"])[0];
        let text = write_tablebase_move(MATE - 9, m);
        assert_eq!(text, "info depth 1 score mate 5 tbhits 1 pv c1c2");
        let back = read(&text, &pos).unwrap();
        assert_eq!((back.depth, back.score, back.tb_hits), (1, MATE - 9, 1));
        assert_eq!(back.pv, [m]);
    }

    /// What a line reads as: the score, the depth and the PV.
    type Read = (i32, u32, &'static [&'static str]);

    /// Lines other engines send, and what is read from them.
    #[test]
    fn other_engines_lines_are_read() {
        let pos = Chess::default();
        let table: &[(&str, Option<Read>)] = &[
            (
                "info depth 5 score cp 20 pv e2e4 e7e5",
                Some((20, 5, &["e2e4", "e7e5"])),
            ),
            ("info score mate 3 depth 9", Some((MATE - 5, 9, &[]))),
            ("info score mate -2", Some((-MATE + 4, 0, &[]))),
            ("info score cp 99999", Some((MAX_CP, 0, &[]))),
            ("info score cp -99999", Some((-MAX_CP, 0, &[]))),
            ("info score mate 9999", Some((MATE - 999, 0, &[]))),
            (
                "info depth 3 score cp 1 lowerbound pv e2e4 e2e4 d7d5",
                Some((1, 3, &["e2e4"])),
            ),
            ("info multipv 1 depth 4 score cp 5", Some((5, 4, &[]))),
            ("info multipv 2 depth 4 score cp 5", Some((5, 4, &[]))),
            ("info depth 4 nodes 100", None),
            ("info depth banana score cp 5", None),
            ("info score wdl 500 300 200", None),
            ("info string score cp 5", None),
            ("info score cp 5 string pv e2e4", Some((5, 0, &[]))),
            ("bestmove e2e4", None),
            ("", None),
        ];
        for &(line, expected) in table {
            let got = read(line, &pos).map(|i| (i.score, i.depth, i.pv));
            let expected = expected.map(|(score, depth, pv)| (score, depth, moves(&pos, pv)));
            assert_eq!(got, expected, "{line}");
        }
        assert_eq!(read("info multipv 3 score cp 5", &pos).unwrap().multipv, 3);
        assert_eq!(read("info score cp 5", &pos).unwrap().multipv, 1);
        let negative = read("info depth -3 nodes -1 time -5 score cp 0", &pos).unwrap();
        assert_eq!(
            (negative.depth, negative.nodes, negative.time_ms),
            (0, 0, 0)
        );
    }

    /// A score as Knightfall's search gives it and UCI can say: centipawns short of the
    /// tablebase range, or a mate in whole moves (an odd ply count winning, even losing).
    fn sayable_score() -> impl Strategy<Value = i32> {
        prop_oneof![
            -MAX_CP..=MAX_CP,
            (1..=MAX_MATE).prop_map(|n| MATE - (2 * n - 1)),
            (1..=MAX_MATE).prop_map(|n| -MATE + 2 * n),
        ]
    }

    /// A legal line from the start position, chosen by indices into each position's moves.
    fn line(choices: &[usize]) -> Vec<Move> {
        let mut walk = Chess::default();
        let mut pv = Vec::new();
        for &i in choices {
            let legal = walk.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[i % legal.len()];
            walk.play_unchecked(m);
            pv.push(m);
        }
        pv
    }

    proptest! {
        #[test]
        fn a_written_line_reads_back_the_same(
            depth in any::<u32>(),
            seldepth in any::<u32>(),
            score in sayable_score(),
            nodes in 0..=i64::MAX as u64,
            nps in 0..=i64::MAX as u64,
            time_ms in 0..=i64::MAX as u64,
            hashfull in any::<u32>(),
            tb_hits in 0..=i64::MAX as u64,
            choices in prop::collection::vec(any::<usize>(), 0..40),
        ) {
            let written = Info {
                depth,
                seldepth,
                score,
                nodes,
                nps,
                time_ms,
                hashfull,
                tb_hits,
                pv: line(&choices),
                multipv: 1,
            };
            let text = write(&written);
            prop_assert_eq!(read(&text, &Chess::default()), Some(written), "{}", text);
        }
    }

    #[test]
    fn a_bound_is_told_from_an_exact_score() {
        assert!(is_bound(
            "info depth 16 score cp 35 lowerbound nodes 2 pv f1b5"
        ));
        assert!(is_bound("info depth 16 score cp 35 upperbound pv f1b5"));
        assert!(!is_bound("info depth 15 score cp 34 pv f1b5 a7a6"));
        assert!(!is_bound("info depth 15 score cp 34 string lowerbound"));
    }
}
