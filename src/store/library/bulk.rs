//! Reviewing the whole library: the engine's move before each mistake of the reviews that
//! came with their files, then every game whose review is not complete, newest first, one
//! after another on every core at the lowest priority. Each position found is saved at once,
//! so a review stopped at any moment (Ctrl-C, the player's key, the program's end) loses
//! nothing it found, and the next one goes on from there. A [`Gate`] stops it, or pauses it
//! while a game is played, from another thread.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::reviews::{Origin, Status};
use super::{Library, claims};
use crate::engine::Control;
use crate::review::Review;
use crate::review::analyse::{self, PositionEval, Settings};

/// Stops or pauses a bulk review from another thread.
#[derive(Default)]
pub struct Gate {
    stop: AtomicBool,
    /// Whether it is paused, and the search under way (stopped by a pause or a stop).
    state: Mutex<(bool, Arc<Control>)>,
    wake: Condvar,
}

impl Gate {
    /// Stops the review at once; the positions found are kept.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.1.stop.store(true, Ordering::Relaxed);
        self.wake.notify_all();
    }

    /// Whether it was stopped.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Pauses the review (the search under way stops, what it found kept) or lets it go on.
    pub fn pause(&self, paused: bool) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.0 != paused {
            state.0 = paused;
            if paused {
                state.1.stop.store(true, Ordering::Relaxed);
            }
            self.wake.notify_all();
        }
    }

    /// Whether it is paused.
    pub fn paused(&self) -> bool {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).0
    }

    /// Waits while paused; then the control of the next search, or `None` once stopped. A
    /// pause that comes after this stops that search, as it would one under way.
    fn next_search(&self) -> Option<Arc<Control>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while state.0 && !self.stopped() {
            state = self
                .wake
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if self.stopped() {
            return None;
        }
        state.1 = Arc::new(Control::default());
        Some(state.1.clone())
    }
}

/// How far a bulk review is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Games it set out to review.
    pub games: usize,
    /// Games finished.
    pub games_done: usize,
    /// Positions of those games not known when it began.
    pub positions: u64,
    /// Positions found since.
    pub positions_done: u64,
    /// The game under way and how far its review is, as last saved.
    pub game: Option<(i64, Status)>,
    /// How long the rest should take, at the pace so far (the time paused not counted).
    pub eta: Option<Duration>,
    /// Positions whose search failed (their games stay to be reviewed).
    pub failed: usize,
    /// Games another Knightfall was reviewing at the same time, left to it.
    pub elsewhere: usize,
    /// Whether it was stopped before the end.
    pub stopped: bool,
}

impl Progress {
    /// In a few words: `3 of 120 games, 250 of 9,600 positions, about 2 h 10 min left`.
    pub fn words(&self) -> String {
        let mut out = format!(
            "{}, {} of {} positions",
            self.games_words(),
            thousands(self.positions_done),
            thousands(self.positions)
        );
        if let Some(eta) = self.eta {
            out.push_str(&format!(", about {} left", duration_words(eta)));
        }
        out
    }

    /// The games done of all: `3 of 1,200 games`.
    pub fn games_words(&self) -> String {
        format!(
            "{} of {} games",
            thousands(self.games_done as u64),
            thousands(self.games as u64)
        )
    }
}

/// `n` with its thousands apart: `9,600`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `2 h 10 min`, `25 min`, `8 min 38 s`, `40 s`.
pub fn duration_words(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..600 => format!("{} min {} s", s / 60, s % 60),
        600..3600 => format!("{} min", s / 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

/// Lowers the calling thread to the lowest priority (nice 19), so that whatever else the
/// machine does comes first. On Linux the threads it starts afterwards inherit it: a review's
/// searching threads started from it run at that priority too. Elsewhere it lowers the whole
/// process (macOS: the thread alone, to the background band).
pub fn lowest_priority() {
    // SAFETY: setpriority only reads its arguments; a failure leaves the priority as it was.
    #[cfg(target_os = "macos")]
    unsafe {
        libc::setpriority(libc::PRIO_DARWIN_THREAD, 0, libc::PRIO_DARWIN_BG);
    }
    // SAFETY: as above.
    #[cfg(all(unix, not(target_os = "macos")))]
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// How long a claim on the game under review holds without being renewed: a Knightfall that
/// dies holding one keeps it from the others no longer.
const LEASE: Duration = Duration::from_secs(60);

/// How often the claim on the game under review is renewed while it is searched.
const RENEW: Duration = Duration::from_secs(10);

/// Searches the engine's move before each mistake of the reviews that came with their files
/// (a site's evaluations name none, and a mistake is trained against that move), then
/// reviews every game of `library` whose review is not complete, newest first, searching
/// with `settings` (a game begun before goes on at the time per position it began with),
/// until all are done or `gate` stops it; each position found is saved at once and reported to
/// `on_progress`. A game another Knightfall is reviewing (see [`claims`]) is left to it.
/// Returns how far it went.
pub fn run(
    library: &mut Library,
    settings: &Settings,
    gate: &Gate,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Progress> {
    let left: HashMap<i64, u64> = library
        .list()?
        .into_iter()
        .map(|e| {
            let done = e.review.map_or(0, |s| s.done);
            (e.id, (e.plies + 1 - done).max(0) as u64)
        })
        .collect();
    // Each game with the plies whose line alone is to be found (none: every position not
    // known yet). The lines first: a few positions a game, and each a mistake to train.
    let mut games = library.moves_to_find()?;
    games.extend(library.unreviewed()?.into_iter().map(|id| (id, Vec::new())));
    // The positions to search in game `id`: its lines, or every position not known.
    let to_search = |id: i64, lines: &[usize]| match lines.len() {
        0 => left.get(&id).copied().unwrap_or(0),
        n => n as u64,
    };
    let mut progress = Progress {
        games: games.len(),
        positions: games.iter().map(|(id, lines)| to_search(*id, lines)).sum(),
        ..Progress::default()
    };
    on_progress(&progress);
    let mut active = Duration::ZERO;
    let holder = claims::holder();
    'games: for (id, lines) in games {
        // A game another Knightfall holds, or has reviewed since the list was made.
        let mut left_to_another = |progress: &mut Progress| {
            progress.elsewhere += 1;
            progress.positions = progress.positions.saturating_sub(to_search(id, &lines));
            on_progress(progress);
        };
        if !library.claim(id, &holder, LEASE)? {
            left_to_another(&mut progress);
            continue;
        }
        let Some((mut review, origin)) = library.review(id)? else {
            library.release(id, &holder)?;
            continue;
        };
        // A review begun by another engine is begun again by this one: one review, one engine.
        if origin == Origin::Engine && review.engine != settings.engine_name() {
            review = Review::new(review.game, settings.movetime_ms);
            review.engine = settings.engine_name();
        }
        if review.done() == 0 {
            review.movetime_ms = settings.movetime_ms;
        }
        // The lines of a file's review are searched as a review of ours searches.
        let settings = Settings {
            movetime_ms: if lines.is_empty() {
                review.movetime_ms
            } else {
                settings.movetime_ms
            },
            ..settings.clone()
        };
        if unknown_lines(&review, &lines).iter().all(Option::is_some) {
            library.release(id, &holder)?;
            left_to_another(&mut progress);
            continue;
        }
        let mut failed = 0;
        let mut searched = 0;
        let mut why_failed = String::new();
        // Whether another Knightfall took the game over (this one paused past its lease).
        let mut lost = false;
        let mut stopped = false;
        let mut renewed = Instant::now();
        loop {
            let Some(control) = gate.next_search() else {
                stopped = true;
                break;
            };
            if renewed.elapsed() >= RENEW {
                renewed = Instant::now();
                if !library.claim(id, &holder, LEASE)? {
                    lost = true;
                    break;
                }
            }
            let began = Instant::now();
            let mut saved: Result<()> = Ok(());
            let known = unknown_lines(&review, &lines);
            let game = review.game.clone();
            analyse::analyse(&game, &settings, &known, &control, &mut |ply, eval| {
                let eval = match eval {
                    Ok(eval) => eval,
                    Err(why) => {
                        failed += 1;
                        why_failed = why;
                        return;
                    }
                };
                // Searched, not known from the board or the tables.
                if eval.depth > 0 {
                    searched += 1;
                }
                let Some(slot) = review.evals.get_mut(ply) else {
                    return;
                };
                match slot {
                    // The file's evaluation stays (the verdicts stand on it); the line is ours.
                    Some(kept) if lines.contains(&ply) => {
                        if kept.line.is_empty() {
                            progress.positions_done += 1;
                        }
                        kept.line = eval.line;
                        kept.depth = eval.depth;
                    }
                    Some(_) => *slot = Some(eval),
                    None => {
                        progress.positions_done += 1;
                        *slot = Some(eval);
                    }
                }
                if saved.is_ok() {
                    saved = library.save_review(id, &review, origin);
                }
                if renewed.elapsed() >= RENEW {
                    renewed = Instant::now();
                    if !matches!(library.claim(id, &holder, LEASE), Ok(true)) {
                        lost = true;
                        control.stop.store(true, Ordering::Relaxed);
                    }
                }
                let status = Status {
                    origin,
                    done: review.done() as i64,
                    positions: review.evals.len() as i64,
                    accuracy: review.accuracy(),
                };
                progress.game = Some((id, status));
                let spent = active + began.elapsed();
                progress.eta = eta(spent, progress.positions_done, progress.positions);
                on_progress(&progress);
            });
            active += began.elapsed();
            saved?;
            if gate.stopped() {
                stopped = true;
                break;
            }
            // Stopped by a pause: the game goes on once the pause is over.
            if lost || !control.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        library.release(id, &holder)?;
        if stopped {
            progress.stopped = true;
            break 'games;
        }
        if lost {
            progress.elsewhere += 1;
            on_progress(&progress);
            continue;
        }
        // Another engine that could search nothing of a game (it does not start, or dies at
        // once) would fail every game the same way: the review stops and says why.
        if settings.engine.is_some() && failed > 0 && searched == 0 {
            anyhow::bail!("the review engine could not search: {why_failed}");
        }
        progress.failed += failed;
        progress.games_done += 1;
        on_progress(&progress);
    }
    Ok(progress)
}

/// What the search is to take as known of `review`: all of it, but for the positions of
/// `lines` whose line is not found yet.
fn unknown_lines(review: &Review, lines: &[usize]) -> Vec<Option<PositionEval>> {
    let mut known = review.evals.clone();
    for &ply in lines {
        if review.lineless(ply) {
            known[ply] = None;
        }
    }
    known
}

/// The time the rest should take at the pace of `done` positions in `spent`.
fn eta(spent: Duration, done: u64, all: u64) -> Option<Duration> {
    (done > 0).then(|| spent.mul_f64(all.saturating_sub(done) as f64 / done as f64))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::store::library::import::Summary;

    /// A library at `dir` of the games of `games` (PGN text each).
    pub(in crate::store::library) fn library_of(dir: &std::path::Path, games: &[&str]) -> Library {
        let mut library = Library::open(&dir.join("library.sqlite")).unwrap();
        let file = dir.join("g.pgn");
        std::fs::write(&file, games.join("\n\n")).unwrap();
        let mut summary = Summary::default();
        library.import(&file, &mut summary).unwrap();
        assert_eq!(summary.imported, games.len());
        library
    }

    fn settings() -> Settings {
        Settings {
            movetime_ms: 5,
            threads: 1,
            tablebases: None,
            engine: None,
        }
    }

    const GAMES: [&str; 3] = [
        "[White \"a\"]\n[Black \"b\"]\n[Date \"2024.01.01\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        "[White \"c\"]\n[Black \"d\"]\n[Date \"2024.02.01\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1",
        "[White \"e\"]\n[Black \"f\"]\n[Date \"2024.03.01\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 *",
    ];

    #[test]
    fn a_review_stopped_after_a_game_keeps_it_and_the_next_run_does_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = library_of(dir.path(), &GAMES);
        let gate = Gate::default();
        // Stopped as soon as the first game (the newest) is finished.
        let first = library.unreviewed().unwrap()[0];
        let mut seen = Vec::new();
        let done = run(&mut library, &settings(), &gate, &mut |p| {
            seen.push(p.clone());
            if p.games_done == 1 {
                gate.stop();
            }
        })
        .unwrap();
        assert!(done.stopped);
        assert_eq!(done.games, 3);
        assert_eq!(done.games_done, 1);
        assert!(library.status(first).unwrap().unwrap().complete());
        assert_eq!(library.unreviewed().unwrap().len(), 2);
        assert!(
            seen.windows(2)
                .all(|w| w[0].positions_done <= w[1].positions_done)
        );
        // The next run takes the two left, and a third finds nothing to do.
        let rest = run(&mut library, &settings(), &Gate::default(), &mut |_| {}).unwrap();
        assert_eq!((rest.games, rest.games_done), (2, 2));
        assert!(!rest.stopped && rest.positions_done == rest.positions);
        assert!(library.unreviewed().unwrap().is_empty());
        let none = run(&mut library, &settings(), &Gate::default(), &mut |_| {}).unwrap();
        assert_eq!((none.games, none.positions), (0, 0));
        // Each review is kept with each side's accuracy.
        for entry in library.list().unwrap() {
            let status = entry.review.unwrap();
            assert!(status.accuracy.iter().all(Option::is_some), "{entry:?}");
        }
    }

    #[test]
    fn another_engine_that_cannot_search_stops_the_review_with_its_reason() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = library_of(dir.path(), &GAMES);
        let settings = Settings {
            engine: Some(crate::external::EngineSpec::from_command("/no/such/engine")),
            ..settings()
        };
        let error = run(&mut library, &settings, &Gate::default(), &mut |_| {}).unwrap_err();
        assert!(
            format!("{error:#}")
                .contains("the review engine could not search: engine could not be started"),
            "{error:#}"
        );
        // Nothing was taken for a review: every game is still to be reviewed.
        assert_eq!(library.unreviewed().unwrap().len(), 3);
    }

    #[test]
    fn a_review_stopped_mid_game_keeps_the_positions_found() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = library_of(dir.path(), &GAMES[2..]);
        let id = library.unreviewed().unwrap()[0];
        let gate = Gate::default();
        let done = run(&mut library, &settings(), &gate, &mut |p| {
            if p.positions_done == 3 {
                gate.stop();
            }
        })
        .unwrap();
        assert!(done.stopped && done.games_done == 0);
        let kept = library.status(id).unwrap().unwrap();
        assert!(kept.done >= 3 && !kept.complete(), "{kept:?}");
        let rest = run(&mut library, &settings(), &Gate::default(), &mut |_| {}).unwrap();
        assert_eq!(rest.positions, (7 - kept.done) as u64);
        assert!(library.status(id).unwrap().unwrap().complete());
    }

    #[test]
    fn a_files_review_gets_the_engines_move_before_each_mistake_and_keeps_its_evaluations() {
        let dir = tempfile::tempdir().unwrap();
        // Lichess's analysis names no better move: 3...Nf6?? lets the mate in.
        let mut library = library_of(
            dir.path(),
            &[
                "[White \"a\"]\n[Black \"anna\"]\n[Date \"2024.01.01\"]\n[Result \"1-0\"]\n\n\
               1. e4 { [%eval 0.17] } 1... e5 { [%eval 0.19] } 2. Qh5 { [%eval -0.2] } \
               2... Nc6 { [%eval -0.1] } 3. Bc4 { [%eval -0.25] } 3... Nf6 { [%eval #1] } \
               4. Qxf7# 1-0",
            ],
        );
        let anna = |name: &str| name == "anna";
        assert!(
            library.unreviewed().unwrap().is_empty(),
            "reviewed from the file"
        );
        let (id, plies) = library.moves_to_find().unwrap().pop().unwrap();
        assert_eq!(plies, vec![5, 6], "3...Nf6, and the reply that mates");
        assert!(
            library.mistakes(anna).unwrap().is_empty(),
            "no move to train against"
        );
        let (before, _) = library.review(id).unwrap().unwrap();
        let progress = run(&mut library, &settings(), &Gate::default(), &mut |_| {}).unwrap();
        assert_eq!((progress.games_done, progress.positions_done), (1, 2));
        let mistakes = library.mistakes(anna).unwrap();
        assert_eq!(mistakes.len(), 1, "{mistakes:?}");
        let nf6 = &mistakes[0];
        assert_eq!(nf6.played_san(), "Nf6??");
        assert_ne!(nf6.best_san(), "Nf6");
        assert_eq!(nf6.why, "it allows mate in 1: 4. Qxf7#");
        // The file's evaluations and its verdicts stand; nothing is left to find.
        let (after, origin) = library.review(id).unwrap().unwrap();
        assert_eq!(origin, super::super::reviews::Origin::File);
        let evals = |r: &crate::review::Review| -> Vec<_> {
            r.evals.iter().map(|e| e.as_ref().map(|e| e.eval)).collect()
        };
        assert_eq!(evals(&after), evals(&before));
        assert!(library.moves_to_find().unwrap().is_empty());
        let again = run(&mut library, &settings(), &Gate::default(), &mut |_| {}).unwrap();
        assert_eq!(again.games, 0);
    }

    #[test]
    fn a_paused_review_waits_and_goes_on_where_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = library_of(dir.path(), &GAMES[2..]);
        let gate = Arc::new(Gate::default());
        let paused_at = Arc::new(Mutex::new(None));
        let (g, at) = (gate.clone(), paused_at.clone());
        let waker = std::thread::spawn(move || {
            // Let it go on once it paused.
            while at.lock().unwrap().is_none() {
                std::thread::sleep(Duration::from_millis(5));
            }
            std::thread::sleep(Duration::from_millis(50));
            g.pause(false);
        });
        let mut after_pause = Vec::new();
        let done = run(&mut library, &settings(), &gate, &mut |p| {
            let mut at = paused_at.lock().unwrap();
            match *at {
                None if p.positions_done == 2 => {
                    gate.pause(true);
                    *at = Some(p.positions_done);
                }
                Some(_) => after_pause.push(p.positions_done),
                None => {}
            }
        })
        .unwrap();
        waker.join().unwrap();
        assert!(!done.stopped && done.games_done == 1);
        assert_eq!(done.positions_done, done.positions);
        // No position was searched twice: the count goes on from where the pause found it.
        assert!(after_pause.iter().all(|&n| n >= 2), "{after_pause:?}");
    }

    #[test]
    fn durations_read_in_a_few_words() {
        assert_eq!(duration_words(Duration::from_secs(40)), "40 s");
        assert_eq!(duration_words(Duration::from_secs(518)), "8 min 38 s");
        assert_eq!(duration_words(Duration::from_secs(1500)), "25 min");
        assert_eq!(duration_words(Duration::from_secs(7800)), "2 h 10 min");
        assert_eq!(thousands(1_107_663), "1,107,663");
        assert_eq!(thousands(960), "960");
    }
}
