//! Traffic with the search worker: asking for moves, hints and draw judgements, and taking
//! its reports into the analysis panel and the game.

use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Move, Position};

use super::{
    Analysis, App, DRAW_ACCEPT_CP, EQUAL_CP, Effect, HISTORY_LEN, Iteration, LONG_GAME_MOVES, Mode,
    Side, Tone, color_name,
};
use crate::engine::{Info, Limits};
use crate::game::Reason;
use crate::player::Source;
use crate::tui::job::{EngineEvent, Mover, Purpose, Request};

/// Whether a search's reports go to the analysis panel. A draw judgement searches the
/// person's own position on their turn: its line would be the engine's advice for their side,
/// so only its verdict is said.
fn shown_in_panel(purpose: Purpose) -> bool {
    purpose != Purpose::DrawOffer
}

impl App {
    /// Whether the panel keeps the engine's expected line to itself: in a game against it, on
    /// the person's turn, unless they asked to see it (a hint, or Ctrl-V).
    pub(crate) fn line_hidden(&self) -> bool {
        let turn = self.game.turn();
        self.mode == Mode::Play
            && !self.search.reveal_line
            && !self.game.is_over()
            && self.settings.side(turn).is_human()
            && !self.settings.side(!turn).is_human()
    }

    /// Whether the engine has chosen its move and holds it for a person's time, in a game
    /// against a person: the panel must not show the move before it is played.
    pub fn move_held(&self) -> bool {
        self.watch.paced.is_some() && self.person_vs_engine()
    }

    /// Whether the panel keeps the evaluation to itself: in a game between a person and an
    /// engine, until the game ends, unless the player asked to see it (`show_eval`).
    pub fn eval_hidden(&self) -> bool {
        self.mode == Mode::Play
            && !self.game.is_over()
            && !self.settings.show_eval
            && self.person_vs_engine()
    }

    /// Starts the engine when it is its turn and nothing holds it back.
    pub(super) fn maybe_search(&mut self, fx: &mut Vec<Effect>) {
        if self.game.is_over()
            || self.watch.paused && !self.watch.step
            || !self.is_engine(self.game.turn())
            || self.friend() == Some(self.game.turn())
            || self
                .search
                .pending
                .is_some_and(|(g, p)| g == self.search.generation && p == Purpose::Play)
            || self.watch.queued.is_some()
            || self.watch.paced.is_some()
        {
            return;
        }
        self.watch.step = false;
        let turn = self.game.turn();
        let mut limits = match self.game.clocks() {
            Some(c) => c.limits(),
            None => Limits::movetime(self.watch.think_ms[crate::game::side(turn)].max(1)),
        };
        // A search that starts again on the same move (after a pause or another screen) has
        // the clock as it stands, not as it stood when the move began.
        let spent = u64::try_from(self.thinking_time().as_millis()).unwrap_or(u64::MAX);
        let left = turn.fold_wb(&mut limits.wtime, &mut limits.btime);
        *left = left.map(|ms| ms.saturating_sub(spent).max(1));
        // A game's move plays on in level positions (full strength only; hints, reviews and
        // the analysis board call a draw a draw).
        limits.contempt = crate::engine::DEFAULT_CONTEMPT;
        self.request(Purpose::Play, limits, fx);
    }

    pub(super) fn request(&mut self, purpose: Purpose, limits: Limits, fx: &mut Vec<Effect>) {
        let pos = self.game.position().clone();
        self.search.root = Some(pos.clone());
        self.search.pending = Some((self.search.generation, purpose));
        if shown_in_panel(purpose) {
            self.search.analysis = Analysis {
                thinking: Some(pos.turn()),
                level: match purpose {
                    Purpose::Hint => crate::engine::strength::MAX_LEVEL,
                    _ => {
                        let mover = if self.is_engine(pos.turn()) {
                            pos.turn()
                        } else {
                            !pos.turn()
                        };
                        // Another engine's view is its own, not that of one of Knightfall's
                        // levels: no level is named for it.
                        match self.settings.side(mover) {
                            crate::store::settings::Side::Engine => self.settings.level(mover),
                            _ => 0,
                        }
                    }
                },
                ..Analysis::default()
            };
        }
        let turn = pos.turn();
        // A hint's line is what was asked for; the engine's own line would give away what it
        // expects the person to play, so it stays hidden until asked for.
        self.search.reveal_line = purpose == Purpose::Hint;
        // The engine's side: the mover, or for a draw offer the side that did not offer.
        let engine_side = if self.is_engine(turn) { turn } else { !turn };
        let (mover, level) = match purpose {
            // A hint is Knightfall's honest best, whoever the opponent is; a draw is judged on
            // an honest view too (a weak level's own scores swing by pawns, and it would take a
            // draw in the opening).
            Purpose::Hint | Purpose::DrawOffer | Purpose::Judge => {
                (Mover::Knightfall, crate::engine::strength::MAX_LEVEL)
            }
            Purpose::Play | Purpose::Analyse => {
                let side = self.settings.side(engine_side);
                let mover = match self.settings.engine_spec(side) {
                    Some(spec) if purpose == Purpose::Play => Mover::External(spec),
                    _ => Mover::Knightfall,
                };
                (mover, self.settings.level(engine_side))
            }
        };
        fx.push(Effect::Search(Box::new(Request {
            generation: self.search.generation,
            purpose,
            pos,
            history: self.game.history_keys().to_vec(),
            limits: limits.at_level(level),
            mover,
            start_fen: self.game.start_fen().map(str::to_string),
            moves: self.game.moves().to_vec(),
        })));
    }

    /// A report from the search service: kept when it is the current search's, dropped when
    /// the game has moved on since it was asked for.
    pub(super) fn on_engine(&mut self, ev: EngineEvent, fx: &mut Vec<Effect>) {
        match ev {
            EngineEvent::Info { generation, info } => {
                if generation == self.search.generation
                    && self.search.pending.is_some_and(|(_, p)| shown_in_panel(p))
                {
                    self.take_info(&info);
                }
            }
            EngineEvent::Failed {
                generation,
                message,
            } => {
                if generation == self.search.generation {
                    self.search.pending = None;
                    self.search.analysis.thinking = None;
                    self.watch.paused = self.mode == Mode::Watch;
                    self.say(
                        format!("The engine failed ({message}); undo, new or quit."),
                        Tone::Error,
                    );
                }
            }
            EngineEvent::Warning(text) => self.say(text, Tone::Error),
            // The board's and the reviews' reports: not the game's.
            EngineEvent::Sources { .. }
            | EngineEvent::ReviewTime { .. }
            | EngineEvent::Reviewed { .. }
            | EngineEvent::Judged { .. }
            | EngineEvent::ReviewDone { .. }
            | EngineEvent::Bulk(_) => {}
            EngineEvent::Identified { generation, name } => {
                // A bare command's engine is named by what it says it is; a configured one
                // keeps the name the player gave it.
                if generation == self.search.generation
                    && let Side::Uci(command) = self.settings.side(self.game.turn()).clone()
                {
                    self.search.identified.retain(|(c, _)| *c != command);
                    self.search.identified.push((command, name));
                    self.name_players();
                }
            }
            EngineEvent::Forfeit {
                generation,
                message,
                illegal,
            } => {
                if generation == self.search.generation
                    && self.search.pending.is_some_and(|(_, p)| p == Purpose::Play)
                {
                    let reason = if illegal {
                        Reason::Forfeit
                    } else {
                        Reason::Abandoned
                    };
                    self.forfeit(message, reason, fx);
                }
            }
            EngineEvent::Done {
                generation,
                purpose,
                best,
                score,
                source,
                note,
            } => {
                if generation != self.search.generation
                    || self.search.pending != Some((generation, purpose))
                {
                    return; // stale: the game moved on
                }
                let found = Found {
                    purpose,
                    best,
                    score,
                    source,
                    note,
                };
                self.on_done(found, fx);
            }
        }
    }

    /// The current search ended with `found`: an engine's move is checked and played (or
    /// held for a person's pace or the watch delay), a hint shown, a draw offer judged.
    fn on_done(&mut self, found: Found, fx: &mut Vec<Effect>) {
        let Found {
            purpose,
            best,
            score,
            ..
        } = found;
        if purpose == Purpose::Play && !best.is_some_and(|m| self.game.position().is_legal(m)) {
            let what = match best {
                Some(m) => format!(
                    "played the illegal move {}",
                    m.to_uci(CastlingMode::Standard)
                ),
                None => "gave no move".to_string(),
            };
            self.forfeit(format!("the engine {what}"), Reason::Forfeit, fx);
            return;
        }
        self.search.pending = None;
        self.search.analysis.thinking = None;
        if shown_in_panel(purpose) {
            self.show_found(&found);
        }
        match purpose {
            Purpose::Hint => {
                self.search.hint = best;
                if let Some(m) = best {
                    let san = SanPlus::from_move(self.game.position().clone(), m);
                    self.say(format!("Hint: {san}"), Tone::Info);
                }
            }
            Purpose::DrawOffer => self.judge_draw(-score, fx),
            Purpose::Analyse | Purpose::Judge => {}
            Purpose::Play => self.engine_moved(best, score, fx),
        }
    }

    /// The panel after a search the panel follows: its score, and where no search ran (the
    /// book, the tablebases, a level's held move) the move and where it came from.
    fn show_found(&mut self, found: &Found) {
        let white_score = self.game.turn().fold_wb(found.score, -found.score);
        self.search.analysis.score_white = Some(white_score);
        if found.source == Source::Search {
            return;
        }
        self.search.analysis = Analysis {
            score_white: (found.source == Source::Tablebase).then_some(white_score),
            source: found.source,
            pv: match (&self.search.root, found.best) {
                (Some(root), Some(m)) => {
                    let line = crate::pgn::numbered_san(root, &[m]);
                    match &found.note {
                        Some(n) => format!("{line} ({n})"),
                        None => line,
                    }
                }
                _ => String::new(),
            },
            ..Analysis::default()
        };
    }

    /// The engine to move chose `best` (scored `score` for itself): a draw offered while it
    /// thought is judged, and the move is played now or held for a person's pace or the watch
    /// delay.
    fn engine_moved(&mut self, best: Option<Move>, score: i32, fx: &mut Vec<Effect>) {
        let root_turn = self.game.turn();
        // A draw offered while the engine thought: at full strength its move's score judges
        // it; a weaker level's score is its own opinion, so the offer is judged by a search of
        // its own once the move is made.
        let mut judge_after = false;
        if self.offers.draw_offer.is_some_and(|(c, _)| c != root_turn) {
            if self.settings.level(root_turn) >= crate::engine::strength::MAX_LEVEL {
                self.judge_draw(score, fx);
                if self.game.is_over() {
                    return;
                }
            } else {
                judge_after = true;
            }
        }
        let Some(m) = best else { return };
        if judge_after {
            self.play_move(m, fx);
            if !self.game.is_over() && self.offers.draw_offer.is_some() {
                self.request(Purpose::DrawOffer, Limits::movetime(300), fx);
            }
            return;
        }
        let pace = self.human_pace(m);
        if self.thinking_time() < pace {
            self.watch.paced = Some((m, pace));
            return;
        }
        if self.mode == Mode::Watch
            && !self.watch.paused
            && (self.now.saturating_duration_since(self.watch.last_move_at) < self.watch.min_delay)
        {
            self.watch.queued = Some((m, self.thinking_time()));
            return;
        }
        self.play_move(m, fx);
    }

    /// The engine to move cannot go on: its side loses, and the message says why.
    pub(super) fn forfeit(&mut self, why: String, reason: Reason, fx: &mut Vec<Effect>) {
        let loser = self.game.turn();
        let note = format!("{} forfeits: {why}", color_name(loser));
        self.game.forfeit(loser, reason, note.clone());
        self.end_now(fx);
        let result = self.line.message.take().map(|(m, _)| m).unwrap_or_default();
        self.say(format!("{note}. {result}"), Tone::Error);
    }

    /// The engine answers a pending draw offer with its own-side score.
    pub(super) fn judge_draw(&mut self, engine_score: i32, fx: &mut Vec<Effect>) {
        self.offers.draw_offer = None;
        let pos = self.game.position();
        let engine = if self.is_engine(pos.turn()) {
            pos.turn()
        } else {
            !pos.turn()
        };
        // Clearly worse, unable to win at all, or a long game that stayed level.
        let accepts = engine_score <= DRAW_ACCEPT_CP
            || pos.has_insufficient_material(engine)
            || pos.fullmoves().get() >= LONG_GAME_MOVES && engine_score.abs() <= EQUAL_CP;
        if accepts {
            self.game.agree_draw();
            self.end_now(fx);
        } else if self.eval_hidden() {
            self.say("The engine declines the draw.", Tone::Info);
        } else {
            self.say(
                format!(
                    "The engine declines the draw (it rates its position {:+.2}).",
                    f64::from(engine_score) / 100.0
                ),
                Tone::Info,
            );
        }
    }

    pub(super) fn take_info(&mut self, info: &Info) {
        let Some(root) = &self.search.root else {
            return;
        };
        let turn = root.turn();
        self.search.analysis.depth = info.depth;
        self.search.analysis.seldepth = info.seldepth;
        self.search.analysis.nodes = info.nodes;
        self.search.analysis.nps = info.nps;
        self.search.analysis.tb_hits = info.tb_hits;
        self.search.analysis.score_white = Some(turn.fold_wb(info.score, -info.score));
        self.search.analysis.pv = crate::pgn::numbered_san(root, &info.pv);
        self.search.analysis.source = Source::Search;
        let iteration = Iteration {
            depth: info.depth,
            score_white: turn.fold_wb(info.score, -info.score),
            pv: self.search.analysis.pv.clone(),
        };
        let history = &mut self.search.analysis.history;
        match history.last_mut() {
            Some(last) if last.depth == info.depth => *last = iteration,
            _ => {
                if history.len() == HISTORY_LEN {
                    history.remove(0);
                }
                history.push(iteration);
            }
        }
    }
}

/// What a finished search gave, as the game takes it.
struct Found {
    purpose: Purpose,
    best: Option<Move>,
    /// The score for the side to move at the search's root.
    score: i32,
    source: Source,
    /// A note for the panel (the tablebase verdict), if any.
    note: Option<String>,
}
