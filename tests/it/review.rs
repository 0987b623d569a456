//! Game review: lichess's judging formulas with exact values, and the `review` command run as a
//! process: the annotated PGN (an eval on every move, NAGs where the game went wrong, the better
//! move named), read back by our PGN reader and by python-chess; the cache; the PGN edge cases.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use knightfall::review::judge::{
    Eval, Judgement, claimed_blunder, close_call, judge, move_accuracy, winning_chances,
};
use shakmaty::{Color, Position};

#[test]
fn winning_chances_and_verdicts_follow_lichess() {
    // 2 / (1 + exp(-0.00368208 * cp)) - 1, computed independently in Python.
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(
        winning_chances(Eval::Cp(100)),
        0.182_051_794_383_225_6
    ));
    assert!(close(
        winning_chances(Eval::Cp(-350)),
        -0.567_863_624_329_671_1
    ));
    // Held at 1000 centipawns; a mate counts as the ceiling.
    assert!(close(
        winning_chances(Eval::Cp(5000)),
        0.950_894_872_682_864_5
    ));
    assert!(close(
        winning_chances(Eval::Mate(3)),
        0.950_894_872_682_864_5
    ));
    assert!(close(move_accuracy(60.0, 40.0), 41.016_818_741_417_13));
    assert_eq!(move_accuracy(50.0, 50.0), 100.0);
    // A drop of 0.1 / 0.2 / 0.3 in the mover's chances, from either side.
    assert_eq!(judge(Eval::Cp(0), Eval::Cp(-20), Color::White), None);
    assert_eq!(
        judge(Eval::Cp(0), Eval::Cp(-60), Color::White).map(|j| j.0),
        Some(Judgement::Inaccuracy)
    );
    assert_eq!(
        judge(Eval::Cp(0), Eval::Cp(120), Color::Black).map(|j| j.0),
        Some(Judgement::Mistake)
    );
    assert_eq!(
        judge(Eval::Cp(50), Eval::Cp(-300), Color::White).map(|j| j.0),
        Some(Judgement::Blunder)
    );
    // Allowing a mate: softened when the mover was lost anyway (lila's MateAdvice).
    assert_eq!(
        judge(Eval::Cp(0), Eval::Mate(-2), Color::White).map(|j| j.0),
        Some(Judgement::Blunder)
    );
    assert_eq!(
        judge(Eval::Cp(-800), Eval::Mate(-2), Color::White).map(|j| j.0),
        Some(Judgement::Mistake)
    );
    assert_eq!(
        judge(Eval::Cp(-1200), Eval::Mate(-2), Color::White).map(|j| j.0),
        Some(Judgement::Inaccuracy)
    );
    // Letting a mate go while still far ahead is an inaccuracy; mating is never a mistake.
    assert_eq!(
        judge(Eval::Mate(-3), Eval::Cp(-1500), Color::Black).map(|j| j.0),
        Some(Judgement::Inaccuracy)
    );
    assert_eq!(
        judge(Eval::Mate(1), Eval::Checkmate(Color::White), Color::White),
        None
    );
}

#[test]
fn a_tablebase_win_is_a_result_not_a_score_and_keeping_it_is_no_mistake() {
    use knightfall::engine::score::TB_WIN;
    // A tablebase win found in the search is a result, never 299.87 pawns.
    let won = Eval::from_cp(-(TB_WIN - 13));
    assert_eq!(won, Eval::Tablebase(Color::Black));
    assert_eq!(won.display(), "TB 0-1");
    assert_eq!(won.pgn().as_deref(), Some("tablebase: Black wins"));
    assert_eq!(Eval::from_cp(250), Eval::Cp(250));
    // Black wins all along: by mate or by the tablebases, no move of either side is flagged
    // (the repro: 62. Ka3 Kg3, judged as "#-8 -> -299.93" before).
    for (before, after, mover) in [
        (Eval::Mate(-8), won, Color::Black),
        (won, Eval::Mate(-5), Color::White),
        (won, won, Color::White),
        (Eval::Tablebase(Color::Black), Eval::Mate(-9), Color::White),
    ] {
        assert_eq!(judge(before, after, mover), None, "{before:?} -> {after:?}");
    }
    // A win thrown away is still judged: to a draw, or to a mate for the other side.
    assert_eq!(
        judge(won, Eval::Cp(0), Color::Black).map(|j| j.0),
        Some(Judgement::Blunder)
    );
    assert_eq!(
        judge(won, Eval::Mate(4), Color::Black).map(|j| j.0),
        Some(Judgement::Blunder)
    );
    assert_eq!(
        judge(Eval::Mate(-3), Eval::Tablebase(Color::White), Color::Black).map(|j| j.0),
        Some(Judgement::Blunder)
    );
    assert!((winning_chances(won) + 0.950_894_872_682_864_5).abs() < 1e-12);
}

#[test]
fn close_calls_are_the_moves_near_a_verdict_s_threshold() {
    // A loss of 0.1 of the chances is about 55 centipawns from equality.
    let call = |cp: i32| close_call(Eval::Cp(0), Eval::Cp(-cp), Color::White);
    let near = |cp: i32| call(cp).is_some();
    assert!(!near(0) && !near(10));
    assert!(near(55) && near(110) && near(170));
    // Far from every threshold: a plain blunder, a quiet move.
    assert!(!near(600) && !near(5));
    // The nearer the threshold, the closer the call.
    assert!(call(55).unwrap() < call(70).unwrap());
    // Black's losses count the other way; mates and tablebase results are never close calls.
    let black = close_call(Eval::Cp(0), Eval::Cp(55), Color::Black);
    assert!(black.is_some());
    assert_eq!(close_call(Eval::Cp(0), Eval::Cp(55), Color::White), None);
    assert_eq!(close_call(Eval::Mate(3), Eval::Cp(500), Color::White), None);
    let won = Eval::Tablebase(Color::White);
    assert_eq!(close_call(won, Eval::Cp(0), Color::White), None);
}

/// Every result `analyse` reports for `game`, in the order reported.
fn reports(
    game: &knightfall::game::Game,
    settings: &knightfall::review::analyse::Settings,
) -> Vec<(usize, knightfall::review::analyse::PositionEval)> {
    let mut seen = Vec::new();
    knightfall::review::analyse::analyse(
        game,
        settings,
        &[],
        &knightfall::engine::Control::default(),
        &mut |ply, eval| seen.push((ply, eval.unwrap())),
    );
    seen
}

#[test]
fn claimed_blunders_are_the_moves_judged_blunders_on_centipawns() {
    let white =
        |before: i32, after: i32| claimed_blunder(Eval::Cp(before), Eval::Cp(after), Color::White);
    // A loss of 0.3 of the chances from equality is about 170 centipawns.
    assert!(white(0, -150).is_none());
    let lost = white(0, -600).unwrap();
    assert!(lost > 0.3 && lost < white(0, -900).unwrap());
    // Black's losses count the other way; a gain is no loss.
    assert!(claimed_blunder(Eval::Cp(0), Eval::Cp(600), Color::Black).is_some());
    assert!(white(-600, 0).is_none());
    // Mates and tablebase results are more than a short search's guess: never looked at again.
    assert!(claimed_blunder(Eval::Mate(3), Eval::Cp(-500), Color::White).is_none());
    assert!(claimed_blunder(Eval::Cp(0), Eval::Tablebase(Color::Black), Color::White).is_none());
}

#[test]
fn the_largest_claimed_blunder_is_searched_again() {
    use knightfall::game::Game;
    use knightfall::review::analyse::Settings;
    // 4. Nxe5?? Qg5 and 5. Nxf7?? Qxg2 throw pieces away; the first look sees it at once.
    let game = Game::from_pgn(SHILLING).unwrap();
    let settings = Settings {
        movetime_ms: 40,
        threads: 1,
        tablebases: None,
        engine: None,
    };
    let seen = reports(&game, &settings);
    let plies = game.moves().len();
    let first = |i: usize| &seen.iter().find(|(p, _)| *p == i).unwrap().1;
    let (mut largest, mut at) = (0.0, None);
    for i in 0..plies {
        let (before, after) = (first(i), first(i + 1));
        let mover = game.position_at(i).turn();
        if before.line.first() != game.moves().get(i)
            && let Some(lost) = claimed_blunder(before.eval, after.eval, mover)
            && lost > largest
        {
            (largest, at) = (lost, Some(i));
        }
    }
    let i = at.expect("the first look calls a move a blunder");
    let times = |p: usize| seen.iter().filter(|(q, _)| *q == p).count();
    assert_eq!((times(i), times(i + 1)), (2, 2), "ply {i}: {seen:?}");
}

#[test]
fn tablebase_positions_are_answered_without_a_search_and_the_rest_searched() {
    use knightfall::game::Game;
    use knightfall::review::analyse::Settings;
    // KQvK is in the built-in tables: won for White at once, no depth, the tables' move as
    // the line.
    let game = Game::from_fen("8/8/8/4k3/8/8/3QK3/8 w - - 0 1").unwrap();
    let settings = Settings {
        movetime_ms: 50,
        threads: 2,
        tablebases: Some(std::sync::Arc::new(
            knightfall::tablebase::Tablebases::embedded(),
        )),
        engine: None,
    };
    let seen = reports(&game, &settings);
    assert_eq!(seen.len(), 1);
    let (ply, eval) = &seen[0];
    assert_eq!(*ply, 0);
    assert_eq!(eval.eval, Eval::Tablebase(Color::White));
    assert_eq!((eval.depth, eval.line.len()), (0, 1));
    // A position out of the tables is searched (depth above 0), each reported once at least.
    let game =
        Game::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
    let seen = reports(&game, &settings);
    assert!(seen.iter().any(|(p, e)| *p == 0 && e.depth > 0), "{seen:?}");
}

const SHILLING: &str = "[Event \"Test\"]\n[White \"Victim\"]\n[Black \"Trapper\"]\n[Result \"0-1\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1\n";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("knightfall-review-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn review(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .arg("review")
        .args(args)
        .env("KNIGHTFALL_HOME", home)
        .output()
        .unwrap()
}

/// Reviews `input` at `ms` per position into `out`.
fn review_at(ms: u32, home: &Path, input: &Path, out: &Path) -> std::process::Output {
    let (input, out) = (input.to_str().unwrap(), out.to_str().unwrap());
    review(home, &[input, "--movetime", &ms.to_string(), "--out", out])
}

#[test]
fn annotated_pgn_has_an_eval_on_every_move_but_the_mate_and_marks_the_blunders() {
    let dir = temp_dir("shilling");
    let input = dir.join("shilling.pgn");
    std::fs::write(&input, SHILLING).unwrap();
    let out = dir.join("annotated.pgn");
    let run = review_at(150, &dir, &input, &out);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    // Lines wrap at 80 columns: compare with single spaces.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // Fourteen moves, an eval after each but the mate, which the move and the result say.
    assert_eq!(text.matches("[%eval ").count(), 13, "{text}");
    assert!(flat.contains("7... Nf3# 0-1"), "{text}");
    assert!(!text.contains("#+0") && !text.contains("#-0"), "{text}");
    // 5. Nxf7 throws the game away (the queen takes on g2 and the rook hangs): a blunder, with
    // the engine's move instead named and its line given as a variation.
    assert!(flat.contains("5. Nxf7 $4 { [%eval -"), "{text}");
    assert!(text.contains("{ Blunder"), "{text}");
    assert!(flat.contains("was best. } (5. "), "{text}");
    // 7. Be2 allows mate in one from a lost position: lila softens that by how lost it was
    // already, on Stockfish's scale (-7 to -10: a mistake; beyond: an inaccuracy), which makes
    // Knightfall's -8 about -6 (a blunder still). The comment says why, with the mate.
    assert!(
        [("$4", "Blunder"), ("$2", "Mistake"), ("$6", "Inaccuracy")]
            .iter()
            .any(|(nag, word)| flat.contains(&format!(
                "7. Be2 {nag} {{ [%eval #-1] }} {{ {word}: allows mate in 1: 7... Nf3#."
            ))),
        "{text}"
    );
    // Black made no bad move, and played better.
    let header = |name: &str| -> f64 {
        let start = text.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
        text[start..start + text[start..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    assert!(header("BlackAccuracy") > header("WhiteAccuracy"), "{text}");
    // Its progress, to a pipe, was one line at the end; the same review again comes from the
    // cache, writes the same game and says nothing.
    let progress = String::from_utf8_lossy(&run.stderr);
    assert!(!progress.contains('\r'), "{progress:?}");
    assert_eq!(progress.lines().count(), 1, "{progress:?}");
    assert!(
        progress.starts_with("reviewing: position 15 of 15"),
        "{progress:?}"
    );
    let again = review_at(150, &dir, &input, &out);
    assert!(
        again.status.success() && again.stderr.is_empty(),
        "{again:?}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    assert!(
        !flat.contains("... Qg5 $") && !flat.contains("Nf3# $"),
        "{text}"
    );
    // Our reader reads it back: the same moves.
    let back = knightfall::game::Game::from_pgn(&text).unwrap();
    assert_eq!(back.sans().len(), 14);

    // python-chess reads an eval on every move and the NAGs (when it is installed).
    let script = format!(
        "import chess.pgn\ng = chess.pgn.read_game(open({:?}))\n\
         for n in g.mainline():\n    print(n.san(), n.eval() is not None, sorted(n.nags))\n",
        out.to_str().unwrap()
    );
    match Command::new("python3").args(["-c", &script]).output() {
        Ok(o) if o.status.success() => {
            let lines = String::from_utf8_lossy(&o.stdout).to_string();
            assert_eq!(lines.lines().count(), 14, "{lines}");
            assert!(
                lines.lines().take(13).all(|l| l.contains(" True ")),
                "{lines}"
            );
            assert!(lines.contains("Nf3# False"), "{lines}");
            assert!(lines.contains("Nxf7 True [4]"), "{lines}");
            assert!(
                ["[4]", "[2]", "[6]"]
                    .iter()
                    .any(|nag| lines.contains(&format!("Be2 True {nag}"))),
                "{lines}"
            );
        }
        _ => eprintln!("python3 with python-chess not available: read back with our reader only"),
    }

    // The second time comes from the cache: the same text.
    let again = dir.join("again.pgn");
    let run = review_at(150, &dir, &input, &again);
    assert!(run.status.success());
    assert!(
        !String::from_utf8_lossy(&run.stderr).contains("position 1 of"),
        "nothing searched again: {run:?}"
    );
    let again = std::fs::read_to_string(&again).unwrap();
    assert_eq!(
        again.lines().skip(4).collect::<Vec<_>>(),
        text.lines().skip(4).collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_pgn_edge_cases_are_reviewed_or_refused_with_a_message() {
    let Some(edge) = common::shared("data/games/edge-cases") else {
        return;
    };
    let dir = temp_dir("edge");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&edge)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let mut reviewed = 0;
    for file in &files {
        let out = dir.join("out.pgn");
        let run = review(
            &dir,
            &[
                file.to_str().unwrap(),
                "--game",
                "1",
                "--movetime",
                "10",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!stderr.contains("panicked"), "{}: {stderr}", file.display());
        if run.status.success() {
            let text = std::fs::read_to_string(&out).unwrap();
            let game = knightfall::game::Game::from_pgn(&text).unwrap();
            let mated = usize::from(game.position().is_checkmate());
            assert_eq!(
                text.matches("[%eval ").count(),
                game.sans().len() - mated,
                "{text}"
            );
            reviewed += 1;
        } else {
            assert_eq!(run.status.code(), Some(1), "{}", file.display());
            assert!(
                stderr.starts_with("knightfall: "),
                "{}: {stderr}",
                file.display()
            );
        }
        let name = file.file_name().unwrap().to_string_lossy();
        if name.contains("antichess")
            || name.contains("zh-lichess")
            || name.contains("fischerrandom")
        {
            assert!(!run.status.success(), "{name} is a variant");
            assert!(stderr.contains("variant"), "{name}: {stderr}");
        }
    }
    assert!(reviewed >= 5, "{reviewed} of {} reviewed", files.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_s_own_choice_is_never_flagged() {
    use knightfall::review::Review;
    use knightfall::review::analyse::PositionEval;
    let mut game = knightfall::game::Game::new();
    let e4 = game.play_text("e4", None).unwrap();
    let d4 = {
        let pos = game.position_at(0);
        "d4".parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(pos)
            .unwrap()
    };
    let mut review = Review::new(game, 100);
    // 1. e4 is a book move, never judged (`book_moves_are_searched_briefly_and_never_judged`);
    // judged here as if it were not.
    assert_eq!(review.book_plies, 1);
    review.book_plies = 0;
    let at = |eval, line: Vec<shakmaty::Move>| {
        Some(PositionEval {
            eval,
            line,
            depth: 10,
        })
    };
    review.evals[1] = at(Eval::Cp(-300), Vec::new());
    // The search before the move preferred d4: e4 lost three pawns of chances, a blunder.
    review.evals[0] = at(Eval::Cp(30), vec![d4]);
    assert_eq!(review.judgement(0).map(|j| j.0), Some(Judgement::Blunder));
    assert_eq!(
        review.note(0).and_then(|n| n.better),
        Some("d4".to_string())
    );
    // The search before the move chose e4 itself: the drop is the searches disagreeing.
    review.evals[0] = at(Eval::Cp(30), vec![e4]);
    assert_eq!(review.judgement(0), None);
    assert_eq!(review.counts(), [[0; 3]; 2]);
}

#[test]
fn an_annotated_game_keeps_its_own_headers() {
    let dir = temp_dir("headers");
    let input = dir.join("game.pgn");
    std::fs::write(
        &input,
        "[Event \"Hoogovens\"]\n[Site \"Wijk aan Zee NED\"]\n[Date \"1999.01.20\"]\n[Round \"4\"]\n\
         [White \"Kasparov, Garry\"]\n[Black \"Topalov, Veselin\"]\n[Result \"1-0\"]\n[WhiteElo \"2812\"]\n\n\
         1. e4 d6 2. d4 Nf6 1-0\n",
    )
    .unwrap();
    let out = dir.join("out.pgn");
    let run = review_at(20, &dir, &input, &out);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    for tag in [
        "[Event \"Hoogovens\"]",
        "[Site \"Wijk aan Zee NED\"]",
        "[Date \"1999.01.20\"]",
        "[Round \"4\"]",
        "[WhiteElo \"2812\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(text.contains(tag), "{tag} in\n{text}");
    }
    assert!(
        !text.contains("as recorded"),
        "no made-up termination:\n{text}"
    );
    assert!(!text.contains("UTCTime"), "no made-up start time:\n{text}");

    // A game from elsewhere with few tags gets none that Knightfall would give a game of its
    // own (its site, a round, today's date): its own, the opening, and the review's.
    std::fs::write(
        &input,
        "[White \"Anna\"]\n[Black \"Ben\"]\n[Result \"1-0\"]\n[BlackElo \"1500\"]\n\n\
         1. e4 d6 2. d4 Nf6 1-0\n",
    )
    .unwrap();
    let run = review_at(20, &dir, &input, &out);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    let names: Vec<&str> = text
        .lines()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.strip_prefix('[')?.split(' ').next())
        .collect();
    assert_eq!(
        names,
        [
            "White",
            "Black",
            "Result",
            "ECO",
            "Opening",
            "BlackElo",
            "WhiteAccuracy",
            "BlackAccuracy",
            "Annotator"
        ],
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_that_played_on_after_a_repetition_is_reviewed_to_its_end() {
    // The start position comes back a third time after 4... Ng8, and 5. Nf3 Nf6 come back
    // to a position seen twice: claimable draws the players did not claim. Then a fool's
    // mate: Black won, and every move is reviewed.
    let dir = temp_dir("repetition");
    let input = dir.join("game.pgn");
    std::fs::write(
        &input,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
         1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
         7. f3 e5 8. g4 Qh4# 0-1\n",
    )
    .unwrap();
    let out = dir.join("out.pgn");
    let run = review_at(10, &dir, &input, &out);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    // Every move but the mate has its eval.
    assert_eq!(text.matches("[%eval ").count(), 15, "{text}");
    assert!(text.contains("Qh4#"), "{text}");
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    // Black lost on time (or resigned) in a position seen three times: the recorded result
    // stands, it does not turn into a draw.
    std::fs::write(
        &input,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
         1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0\n",
    )
    .unwrap();
    let run = review_at(10, &dir, &input, &out);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_will_not_replace_the_other_games_of_its_own_file() {
    let dir = temp_dir("same-file");
    let input = dir.join("two.pgn");
    let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
                [White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 *\n";
    std::fs::write(&input, text).unwrap();
    let run = review(
        &dir,
        &[
            input.to_str().unwrap(),
            "--game",
            "1",
            "--out",
            input.to_str().unwrap(),
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("holds 2 games"), "{err}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_moves_are_searched_briefly_and_never_judged() {
    use knightfall::engine::Control;
    use knightfall::game::Game;
    use knightfall::review::Review;
    use knightfall::review::analyse::{PositionEval, Settings, analyse};
    use knightfall::review::theory::{BOOK_DEPTH, book_plies};
    // The Ruy Lopez is theory; 4. Rg1 leaves the book.
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Rg1 axb5 *";
    let game = Game::from_pgn(pgn).unwrap();
    assert_eq!(book_plies(&game), 6);
    // Out of the standard start, or past the book's depth, nothing is theory.
    let late =
        Game::from_fen("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 30")
            .unwrap();
    assert_eq!(book_plies(&late), 0);

    // The positions before book moves are searched to the book depth, the rest for the time.
    let settings = Settings {
        movetime_ms: 50,
        threads: 2,
        tablebases: None,
        engine: None,
    };
    let mut depths = vec![None; game.moves().len() + 1];
    analyse(
        &game,
        &settings,
        &[],
        &Control::default(),
        &mut |ply, eval| {
            depths[ply] = Some(eval.unwrap().depth);
        },
    );
    for (ply, depth) in depths.iter().enumerate() {
        let depth = depth.unwrap_or_else(|| panic!("position {ply} was not reported"));
        if ply < 6 {
            assert_eq!(depth, BOOK_DEPTH, "position {ply}");
        }
    }

    // Every move loses three pawns by these evaluations (White's view), yet a book move is
    // not judged; the first move after the book is.
    let mut review = Review::new(game, 50);
    assert_eq!(review.book_plies, 6);
    for (ply, cp) in [0, -300, 0, -300, 0, -300, 0, -300].into_iter().enumerate() {
        review.evals[ply] = Some(PositionEval {
            eval: Eval::Cp(cp),
            line: Vec::new(),
            depth: 10,
        });
    }
    for i in 0..6 {
        assert!(
            review.is_book(i) && review.judgement(i).is_none(),
            "move {i}"
        );
    }
    assert!(!review.is_book(6));
    assert_eq!(review.judgement(6).map(|j| j.0), Some(Judgement::Blunder));
}

/// A UCI engine in a few lines of shell, written to `dir/name`, for the game 1. Nf3 Nf6: in
/// each position it gives `score` (from the side to move's view) at depth 9 and a legal move,
/// so whatever the review shows of it can only have come from it. The `--engine` naming it.
fn scripted_reviewer(dir: &Path, name: &str, score: &str) -> String {
    scripted_reviewer_reporting(
        dir,
        name,
        &format!("echo \"info depth 9 score {score} pv $m\";"),
    )
}

/// [`scripted_reviewer`] with the `info` lines of each search given as shell commands (`$m`
/// is its move).
fn scripted_reviewer_reporting(dir: &Path, name: &str, reports: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let file = dir.join(name);
    std::fs::write(
        &file,
        format!(
            "#!/bin/sh\nwhile read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
             position*g8f6*) m=e2e4;; position*moves*) m=e7e5;; position*) m=e2e4;; \
             go*) {reports} echo \"bestmove $m\";; \
             quit) exit;; esac; done\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("uci:{}", file.display())
}

#[test]
fn another_engine_s_bound_when_stopped_is_not_taken_for_its_evaluation() {
    // Stockfish stopped mid-search reports a lower bound with its first move for a line: the
    // exact report before it is the evaluation; a bound alone is still better than nothing.
    let dir = temp_dir("bound-engine");
    let input = dir.join("two.pgn");
    std::fs::write(&input, "[White \"a\"]\n[Black \"b\"]\n\n1. Nf3 Nf6 *\n").unwrap();
    let out = dir.join("reviewed.pgn");
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    let both = scripted_reviewer_reporting(
        &dir,
        "bounded",
        "echo \"info depth 9 score cp 123 pv $m e2e4\"; \
         echo \"info depth 10 score cp 900 lowerbound pv $m\";",
    );
    let run = review(
        &dir,
        &[i, "--movetime", "50", "--engine", &both, "--out", o],
    );
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("1. Nf3 { [%eval -1.23] }"), "{text}");
    assert!(!text.contains("9.00"), "{text}");
    let alone = scripted_reviewer_reporting(
        &dir,
        "bound-only",
        "echo \"info depth 10 score cp 900 lowerbound pv $m\";",
    );
    let run = review(
        &dir,
        &[i, "--movetime", "50", "--engine", &alone, "--out", o],
    );
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("1. Nf3 { [%eval -9.00] }"), "{text}");
}

#[test]
fn another_engine_reviews_when_asked_and_its_review_is_its_own() {
    let dir = temp_dir("other-engine");
    let input = dir.join("two.pgn");
    std::fs::write(&input, "[White \"a\"]\n[Black \"b\"]\n\n1. Nf3 Nf6 *\n").unwrap();
    let out = dir.join("by-script.pgn");
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    let engine = scripted_reviewer(&dir, "first", "cp 123");
    let run = review(
        &dir,
        &[i, "--movetime", "50", "--engine", &engine, "--out", o],
    );
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    // Its scores, from White's view, and its name as the annotator.
    assert!(text.contains("1. Nf3 { [%eval -1.23] }"), "{text}");
    assert!(text.contains("1... Nf6 { [%eval 1.23] }"), "{text}");
    assert!(
        text.contains("[Annotator \"first, 50 ms per position"),
        "{text}"
    );
    // Another engine's review is not taken for it, nor for Knightfall's own.
    let other = scripted_reviewer(&dir, "second", "mate 3");
    let run = review(
        &dir,
        &[i, "--movetime", "50", "--engine", &other, "--out", o],
    );
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("1. Nf3 { [%eval #-3] }"), "{text}");
    let run = review(&dir, &[i, "--movetime", "50", "--out", o]);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("1.23]") && !text.contains("#-3"), "{text}");
    assert!(text.contains("[Annotator \"Knightfall "), "{text}");
    // The first engine's review is found again, searched by nobody.
    let run = review(
        &dir,
        &[i, "--movetime", "50", "--engine", &engine, "--out", o],
    );
    assert!(run.status.success(), "{run:?}");
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("[%eval -1.23]")
    );
    assert!(
        !String::from_utf8_lossy(&run.stderr).contains("reviewing:"),
        "{run:?}"
    );
}

#[test]
fn an_engine_that_cannot_review_is_told_and_nothing_is_written() {
    let dir = temp_dir("bad-engine");
    let input = dir.join("one.pgn");
    std::fs::write(&input, SHILLING).unwrap();
    let out = dir.join("never.pgn");
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    for (engine, said) in [
        ("nosuch", "no engine named \"nosuch\""),
        ("uci:/no/such/engine", "no program /no/such/engine"),
        ("uci:", "uci: needs the engine's command"),
        ("human", "a person cannot review"),
        // Starts, then dies on its first search: the review says the search failed.
        (
            "uci:sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done'",
            "the search failed",
        ),
    ] {
        let run = review(
            &dir,
            &[i, "--movetime", "20", "--engine", engine, "--out", o],
        );
        assert!(!run.status.success(), "{engine}: {run:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(said), "{engine}: {stderr}");
        assert!(!out.exists(), "{engine}");
    }
}
