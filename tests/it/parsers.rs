//! The parsers that read what a user hands Knightfall (PGN files, FEN strings, UCI sessions)
//! never panic, whatever the bytes, and a game they accept is written back as one they read the
//! same.

use crate::common;

use knightfall::game::Game;
use knightfall::line_tree::Tree;
use proptest::prelude::*;

/// Pieces of PGN worth splicing into a game: brackets, comments, results, odd move text.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    ";",
    "%",
    "$",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "O-O",
    "O-O-O",
    "=Q",
    "+",
    "#",
    "!",
    "?",
    "...",
    "\n",
    "\r",
    "\t",
    "\\",
    "e8=Q",
    "Kxe1",
    "--",
    "Z0",
    "@",
    "[FEN \"",
    "[SetUp \"1\"]",
    "[Variant \"",
    "\u{feff}",
    "\u{fffd}",
    "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]",
    "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999\"]",
    "99999999999999999999.",
    "[%clk 0:00:01]",
    "[%eval #-0]",
    "[%eval 99999999999]",
];

/// A short game to mutate when the shared edge cases are absent.
const GAME: &str = "[Event \"Test\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6 3. d4) 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n";

/// The games to mutate: the one above and the shared PGN edge cases, read once.
fn seeds() -> &'static [String] {
    static SEEDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut seeds = vec![GAME.to_string()];
        if let Some(dir) = common::shared("data/games/edge-cases") {
            for entry in std::fs::read_dir(dir).unwrap() {
                let bytes = std::fs::read(entry.unwrap().path()).unwrap();
                seeds.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
        seeds
    })
}

/// One edit of a text: a token spliced in, a run cut out, a character replaced, or the rest cut.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, usize),
    Cut(usize, usize),
    Replace(usize, char),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, t)| Edit::Insert(at, t)),
        (any::<usize>(), 1usize..60).prop_map(|(at, n)| Edit::Cut(at, n)),
        (any::<usize>(), any::<char>()).prop_map(|(at, c)| Edit::Replace(at, c)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

/// `text` with `edits` applied, positions taken modulo its length at each step.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len().max(1);
        match *edit {
            Edit::Insert(at, t) => {
                let at = at % (chars.len() + 1);
                chars.splice(at..at, TOKENS[t].chars());
            }
            Edit::Cut(at, n) => {
                let at = at % len;
                let end = (at + n).min(chars.len());
                chars.drain(at.min(chars.len())..end);
            }
            Edit::Replace(at, c) => {
                if !chars.is_empty() {
                    chars[at % len] = c;
                }
            }
            Edit::Truncate(at) => chars.truncate(at % len),
        }
    }
    chars.into_iter().collect()
}

/// Reads `text` both ways; a game read is written out and must read back to the same moves.
fn read(text: &str) {
    if let Ok(game) = Game::from_pgn(text) {
        let written = game.to_pgn();
        let again = Game::from_pgn(&written)
            .unwrap_or_else(|e| panic!("its own PGN does not read: {e}\n{written}"));
        assert_eq!(again.moves(), game.moves(), "{written}");
    }
    let _ = Tree::from_pgn(text);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn a_mutated_game_is_read_or_refused(seed in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 1..7)) {
        let seed: &String = seed.get(seeds());
        read(&mutate(seed, &edits));
    }

    #[test]
    fn any_text_is_read_or_refused(text in ".{0,400}") {
        read(&text);
    }

    #[test]
    fn any_fen_is_read_or_refused(text in "[pnbrqkPNBRQK1-8/ wKQkq-]{0,90}") {
        let _ = knightfall::fen::position(&text);
    }
}

/// Lines a UCI session may be sent: the protocol's words, with small searches and wrong values.
const UCI_LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "stop",
    "ponderhit",
    "debug on",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position startpos moves e2e4 e2e4",
    "position startpos moves 0000",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves a2a4 h7h5",
    "position fen 7k/P7/8/8/8/8/8/K7 w - - 0 1 moves a7a8q",
    "position fen banana",
    "position",
    "go depth 3",
    "go nodes 2000",
    "go movetime 5",
    "go wtime 300 btime 300 winc 10 binc 10",
    "go wtime 0 btime 0",
    "go depth 2 searchmoves e2e4 d2d4",
    "go mate 2",
    "go infinite",
    "go ponder movetime 5",
    "go depth banana",
    "go nodes 99999999999999999999999",
    "setoption name Threads value 2",
    "setoption name Threads value 0",
    "setoption name Hash value 1",
    "setoption name Hash value banana",
    "setoption name MultiPV value 3",
    "setoption name OwnBook value false",
    "setoption name Skill Level value 1",
    "setoption name UCI_LimitStrength value true",
    "setoption name UCI_Elo value 1500",
    "setoption name Move Overhead value -5",
    "setoption name Clear Hash",
    "setoption name BookFile value /nonexistent",
    "setoption name Nonsense value 1",
    "register later",
    "",
    "\u{fffd}\u{0}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_uci_session_is_answered_and_ends(lines in prop::collection::vec(0..UCI_LINES.len(), 1..25)) {
        use std::io::Write;
        let mut script: String = lines.iter().map(|&i| format!("{}\n", UCI_LINES[i])).collect();
        script.push_str("stop\nisready\nquit\n");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .arg("uci")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
        let out = common::finish(child);
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        prop_assert!(out.status.success(), "{script}\n{stderr}");
        prop_assert!(stdout.contains("readyok"), "{script}\n{stdout}");
        prop_assert!(!stderr.contains("panicked"), "{script}\n{stderr}");
    }
}
