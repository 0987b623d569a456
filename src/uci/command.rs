//! UCI input lines read into commands. Reading has no effect: what a line asks for, and what to
//! say about its bad parts, is all in the [`Command`]; the loop (`uci/mod.rs`) acts on it.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use super::options::{self, Setting};
use crate::engine::Limits;
use crate::engine::node::key_of;

/// One input line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Uci,
    IsReady,
    UciNewGame,
    /// `position`: the position and the keys before it, or why it was refused.
    Position(Result<Setup, String>),
    Go(Go),
    Stop,
    PonderHit,
    /// `setoption`: the value read against the option table, or what to answer.
    SetOption(Result<Setting, String>),
    Quit,
    /// An empty line, `debug`, `register`: nothing to do.
    Nothing,
    /// Not a UCI command: the line, clipped for the message.
    Unknown(String),
}

/// A position `position` set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Setup {
    pub(crate) pos: Chess,
    /// Keys of the positions before `pos`, oldest first.
    pub(crate) history: Vec<u64>,
}

/// What `go` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Go {
    pub(crate) limits: Limits,
    /// `go ponder`: searched, and answered only after `ponderhit` or `stop`.
    pub(crate) ponder: bool,
    /// What to say about the line (bad words, no limit), in order, without `info string`.
    pub(crate) notes: Vec<String>,
}

impl Command {
    /// Reads one input line. `pos` is the position a `go` would search, against which
    /// `searchmoves` are checked.
    pub(crate) fn parse(line: &str, pos: &Chess) -> Command {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Command::Nothing;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "position" => Command::Position(position(&rest)),
            "go" => Command::Go(go(&rest, pos)),
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "setoption" => Command::SetOption(setoption(&rest)),
            "quit" => Command::Quit,
            "debug" | "register" => Command::Nothing,
            _ => Command::Unknown(clip(line)),
        }
    }
}

fn position(args: &[&str]) -> Result<Setup, String> {
    let (base, moves) = match args.iter().position(|&w| w == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut pos = match base.split_first() {
        Some((&"startpos", [])) => Chess::default(),
        Some((&"fen", fields)) if !fields.is_empty() => {
            crate::fen::position(&fields.join(" ")).map_err(|e| e.to_string())?
        }
        _ => return Err("expected 'position startpos' or 'position fen <FEN>'".to_string()),
    };
    let mut history = Vec::with_capacity(moves.len());
    for text in moves {
        let m = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| format!("illegal or malformed move {text}"))?;
        history.push(key_of(&pos));
        pos.play_unchecked(m);
    }
    Ok(Setup { pos, history })
}

fn setoption(args: &[&str]) -> Result<Setting, String> {
    let text = args.join(" ");
    let Some(rest) = text.strip_prefix("name ") else {
        return Err("setoption: expected 'setoption name <id> [value <x>]'".to_string());
    };
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (rest.trim(), None),
    };
    options::setting(name, value)
}

/// The words `go` takes that are followed by a number.
const GO_NUMBERS: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
];

/// Reads `go`'s arguments for a search of `pos`. A malformed or unknown word gets a note and
/// the rest of the line still applies; with no limit at all (and neither `infinite` nor
/// `ponder`) the search gets a second, so that only `infinite` and `ponder` wait for `stop`.
fn go(args: &[&str], pos: &Chess) -> Go {
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut notes = Vec::new();
    let mut words = args.iter().copied().peekable();
    let is_keyword =
        |w: &str| GO_NUMBERS.contains(&w) || matches!(w, "infinite" | "ponder" | "searchmoves");
    while let Some(word) = words.next() {
        if GO_NUMBERS.contains(&word) {
            let value = words.peek().copied().filter(|v| !is_keyword(v));
            let Some(text) = value else {
                notes.push(format!("go: {word} needs a number"));
                continue;
            };
            words.next();
            let Ok(n) = text.parse::<i64>() else {
                notes.push(format!(
                    "go: {word} needs a whole number, not {text}; ignored"
                ));
                continue;
            };
            match word {
                "wtime" => limits.wtime = Some(n.max(0) as u64),
                "btime" => limits.btime = Some(n.max(0) as u64),
                "winc" => limits.winc = Some(n.max(0) as u64),
                "binc" => limits.binc = Some(n.max(0) as u64),
                "movestogo" => limits.movestogo = Some(n.clamp(1, 1000) as u32),
                "depth" => limits.depth = Some(n.clamp(1, 127) as u32),
                "nodes" => limits.nodes = Some(n.max(1) as u64),
                "movetime" => limits.movetime = Some(n.max(1) as u64),
                _ => limits.depth = Some((n.clamp(1, 60) * 2) as u32),
            }
            continue;
        }
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            "searchmoves" => {
                while let Some(&text) = words.peek().filter(|w| !is_keyword(w)) {
                    words.next();
                    match text
                        .parse::<UciMove>()
                        .ok()
                        .and_then(|u| u.to_move(pos).ok())
                    {
                        Some(m) => limits.searchmoves.push(m),
                        None => {
                            notes.push(format!("go: searchmoves: {text} is not a legal move here"))
                        }
                    }
                }
            }
            _ => notes.push(format!("go: ignoring unknown word {word}")),
        }
    }
    let limited = limits.wtime.is_some()
        || limits.btime.is_some()
        || limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some();
    if !limited && !limits.infinite && !ponder {
        notes.push("go: no limit given; searching for 1000 ms".to_string());
        limits.movetime = Some(1000);
    }
    Go {
        limits,
        ponder,
        notes,
    }
}

/// `text` as a message quotes it: at most 80 characters.
fn clip(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use proptest::prelude::*;

    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line, &Chess::default())
    }

    fn go_of(line: &str) -> Go {
        match parse(line) {
            Command::Go(go) => go,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn the_plain_commands() {
        for (line, command) in [
            ("uci", Command::Uci),
            ("  isready \t", Command::IsReady),
            ("ucinewgame", Command::UciNewGame),
            ("stop", Command::Stop),
            ("ponderhit", Command::PonderHit),
            ("quit", Command::Quit),
            ("", Command::Nothing),
            ("   ", Command::Nothing),
            ("debug on", Command::Nothing),
            ("register later", Command::Nothing),
            ("hello engine", Command::Unknown("hello engine".into())),
            ("UCI", Command::Unknown("UCI".into())),
        ] {
            assert_eq!(parse(line), command, "{line:?}");
        }
        let long = "x".repeat(100);
        assert_eq!(
            parse(&long),
            Command::Unknown(format!("{}…", "x".repeat(80)))
        );
    }

    #[test]
    fn positions_and_their_refusals() {
        let Command::Position(Ok(setup)) = parse("position startpos moves e2e4 e7e5") else {
            panic!("refused");
        };
        assert_eq!(setup.history.len(), 2);
        assert_eq!(setup.history[0], key_of(&Chess::default()));
        assert_eq!(
            crate::fen::position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                .unwrap(),
            setup.pos
        );
        assert!(matches!(
            parse("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1"),
            Command::Position(Ok(Setup { history, .. })) if history.is_empty()
        ));
        let expected = "expected 'position startpos' or 'position fen <FEN>'".to_string();
        for line in [
            "position",
            "position startpos e2e4",
            "position fen",
            "position moves",
        ] {
            assert_eq!(
                parse(line),
                Command::Position(Err(expected.clone())),
                "{line}"
            );
        }
        assert_eq!(
            parse("position startpos moves e2e4 e2e4"),
            Command::Position(Err("illegal or malformed move e2e4".into()))
        );
        assert!(matches!(
            parse("position fen banana"),
            Command::Position(Err(_))
        ));
    }

    #[test]
    fn go_reads_its_limits_and_notes_the_rest_in_order() {
        let go = go_of("go wtime -5 btime 300 winc 10 binc 10 movestogo 0 depth 999");
        assert_eq!(go.limits.wtime, Some(0));
        assert_eq!(go.limits.btime, Some(300));
        assert_eq!((go.limits.winc, go.limits.binc), (Some(10), Some(10)));
        assert_eq!(go.limits.movestogo, Some(1));
        assert_eq!(go.limits.depth, Some(127));
        assert!(go.notes.is_empty() && !go.ponder);

        assert_eq!(go_of("go mate 3").limits.depth, Some(6));
        let go = go_of("go ponder infinite");
        assert!(go.ponder && go.limits.infinite && go.notes.is_empty());
        assert_eq!(go.limits.movetime, None);

        let go = go_of("go");
        assert_eq!(go.limits.movetime, Some(1000));
        assert_eq!(go.notes, ["go: no limit given; searching for 1000 ms"]);

        let go = go_of("go searchmoves e2e4 zz e2e5 depth banana nodes wtime 5 fly");
        assert_eq!(go.limits.searchmoves.len(), 1);
        assert_eq!(go.limits.wtime, Some(5));
        assert_eq!(
            go.notes,
            [
                "go: searchmoves: zz is not a legal move here",
                "go: searchmoves: e2e5 is not a legal move here",
                "go: depth needs a whole number, not banana; ignored",
                "go: nodes needs a number",
                "go: ignoring unknown word fly",
            ]
        );
    }

    #[test]
    fn setoption_splits_name_and_value() {
        assert_eq!(
            parse("setoption name Skill   Level value  5"),
            Command::SetOption(Ok(Setting::SkillLevel(5)))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption(Ok(Setting::ClearHash))
        );
        let expected = "setoption: expected 'setoption name <id> [value <x>]'".to_string();
        for line in ["setoption", "setoption name", "setoption value 3 name Hash"] {
            assert_eq!(
                parse(line),
                Command::SetOption(Err(expected.clone())),
                "{line}"
            );
        }
    }

    proptest! {
        #[test]
        fn any_line_is_read(line in ".{0,200}") {
            let _ = parse(&line);
        }

        #[test]
        fn any_line_of_uci_words_is_read(words in prop::collection::vec(
            prop::sample::select(&[
                "position", "startpos", "fen", "moves", "go", "setoption", "name", "value",
                "Hash", "depth", "mate", "searchmoves", "e2e4", "-1", "99999999999999999999",
                "8/8/8/8/8/8/8/8", "w", "-", "0", "1", "infinite", "ponder",
            ][..]),
            0..12,
        )) {
            let _ = parse(&words.join(" "));
        }
    }
}
