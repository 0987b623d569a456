//! Keys and clicks on the game screen: the input line, board browsing, piece selection and
//! moves typed in UCI or SAN.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Move, Position, Square};

use super::{App, Effect, Mode, Screen, Tone, color_name};

/// The longest input line, in characters: room for a file path after `save`.
const MAX_INPUT: usize = 240;

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            fx.push(Effect::Stop);
            fx.push(Effect::Quit);
            return;
        }
        if self.show_help {
            // Any key closes the help.
            self.show_help = false;
            return;
        }
        if self.screen == Screen::Setup {
            self.on_setup_key(key, fx);
            return;
        }
        if ctrl {
            let word = match key.code {
                KeyCode::Char('z') => "undo",
                KeyCode::Char('f') => "flip",
                KeyCode::Char('t') => "hint",
                KeyCode::Char('r') => "resign",
                KeyCode::Char('d') => "draw",
                KeyCode::Char('s') => "save",
                KeyCode::Char('n') => "new",
                KeyCode::Char('e') => "fen",
                KeyCode::Char('l') => "moves",
                KeyCode::Char('p') => "pause",
                KeyCode::Char('v') => "line",
                KeyCode::Char('b') => "board",
                _ => return,
            };
            self.command(word, None, fx);
            return;
        }
        if self.confirm.is_some() && self.input.is_empty() {
            match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => return self.answer(true, fx),
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                    return self.answer(false, fx);
                }
                _ => {}
            }
        }
        if self.ask_again && self.input.is_empty() {
            match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => {
                    let game = self.fresh_game();
                    self.begin_game(game, fx);
                    self.say("New game.", Tone::Info);
                    return;
                }
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                    self.ask_again = false;
                    self.say(
                        "Type new to play again, review to review the game, quit to leave.",
                        Tone::Info,
                    );
                    return;
                }
                KeyCode::Char('r') | KeyCode::Char('R') => {
                    self.command("review", None, fx);
                    return;
                }
                _ => {}
            }
        }
        match key.code {
            KeyCode::F(1) => self.show_help = true,
            KeyCode::Char('?') if self.input.is_empty() => self.show_help = true,
            KeyCode::Char(' ') if self.input.is_empty() && self.mode == Mode::Watch => {
                self.command("pause", None, fx)
            }
            KeyCode::Char('>') if self.input.is_empty() && self.mode == Mode::Watch => {
                self.command("step", None, fx)
            }
            KeyCode::Char(c) if self.input.chars().count() < MAX_INPUT && !c.is_control() => {
                self.input.push(c);
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Esc => {
                self.input.clear();
                self.view = None;
                self.message = None;
                self.premove = None;
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.input);
                self.submit(text.trim(), fx);
            }
            KeyCode::Left | KeyCode::Up => {
                let ply = self.shown_ply();
                if ply > 0 {
                    self.view = Some(ply - 1);
                }
            }
            KeyCode::Right | KeyCode::Down => {
                if let Some(ply) = self.view {
                    self.view = (ply + 1 < self.game.ply()).then_some(ply + 1);
                }
            }
            KeyCode::Home => self.view = Some(0),
            KeyCode::End => self.view = None,
            // A page of the move list: ten moves.
            KeyCode::PageUp => self.view = Some(self.shown_ply().saturating_sub(20)),
            KeyCode::PageDown => {
                let ply = self.shown_ply() + 20;
                self.view = (ply < self.game.ply()).then_some(ply);
            }
            _ => {}
        }
    }

    pub(super) fn on_click(&mut self, sq: Square, fx: &mut Vec<Effect>) {
        if self.screen != Screen::Game || self.show_help {
            return;
        }
        let pos = self.game.position();
        let own = pos
            .board()
            .piece_at(sq)
            .is_some_and(|p| p.color == pos.turn());
        match self.selected() {
            Some(from) if !own => {
                let mut text = format!("{from}{sq}");
                if let Err(crate::game::MoveError::PromotionMissing(_)) =
                    self.game.parse_move(&text)
                {
                    text.push('q');
                }
                self.input.clear();
                self.submit(&text, fx);
            }
            _ if own => self.input = sq.to_string(),
            _ => self.input.clear(),
        }
    }

    /// The square typed so far when the input names one of the mover's pieces.
    pub fn selected(&self) -> Option<Square> {
        let sq: Square = self.input.trim().parse().ok()?;
        let pos = self.game.position();
        pos.board()
            .piece_at(sq)
            .filter(|p| p.color == pos.turn())
            .map(|_| sq)
    }

    /// Legal targets of the selected piece, for highlighting.
    pub fn targets(&self) -> Vec<Square> {
        let Some(from) = self.selected() else {
            return Vec::new();
        };
        self.game
            .position()
            .legal_moves()
            .iter()
            .filter(|m| m.from() == Some(from))
            .map(|m| match m {
                Move::Castle { king, rook } => {
                    if rook.file() > king.file() {
                        Square::from_coords(shakmaty::File::G, king.rank())
                    } else {
                        Square::from_coords(shakmaty::File::C, king.rank())
                    }
                }
                _ => m.to(),
            })
            .collect()
    }

    pub(super) fn submit(&mut self, text: &str, fx: &mut Vec<Effect>) {
        // Typing something else answers a pending question with no.
        self.confirm = None;
        if text.is_empty() {
            return;
        }
        let (word, arg) = match text.split_once(char::is_whitespace) {
            Some((w, a)) => (w, Some(a.trim())),
            None => (text, None),
        };
        let lower = word.to_ascii_lowercase();
        const WORDS: [&str; 19] = [
            "new", "undo", "flip", "hint", "resign", "draw", "save", "fen", "moves", "help",
            "quit", "exit", "pause", "resume", "step", "q", "line", "review", "board",
        ];
        if WORDS.contains(&lower.as_str()) {
            self.command(&lower, arg, fx);
            return;
        }
        self.try_move(text, fx);
    }

    pub(super) fn try_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.say("The game is over: type new to play again.", Tone::Error);
            return;
        }
        if self.view.take().is_some() {
            self.say(
                "That was an earlier position: back to the game now; type the move again.",
                Tone::Error,
            );
            return;
        }
        let vs_engine = self.settings.side(self.game.turn()).is_human()
            != self.settings.side(!self.game.turn()).is_human();
        if !self.human_to_move() {
            if vs_engine {
                // A premove: tried the moment the engine has moved.
                self.premove = Some(text.to_string());
                self.say(
                    format!(
                        "Premove {text}: played after the engine's move if legal (Esc cancels)."
                    ),
                    Tone::Info,
                );
            } else {
                self.say(
                    format!(
                        "Not your move: the engine plays {}.",
                        color_name(self.game.turn())
                    ),
                    Tone::Error,
                );
            }
            return;
        }
        // A square alone with one of your pieces on it selects it (its targets light up).
        let own = text.trim().parse::<Square>().ok().filter(|&sq| {
            let pos = self.game.position();
            pos.board()
                .piece_at(sq)
                .is_some_and(|p| p.color == pos.turn())
        });
        if let Some(from) = own {
            self.input = from.to_string();
            let example = self
                .targets()
                .first()
                .map(|t| format!(" (e.g. {from}{t})"))
                .unwrap_or_default();
            self.say(
                format!("{from} selected: type or click its target{example}."),
                Tone::Info,
            );
            return;
        }
        match self.game.parse_move(text) {
            Ok(m) => {
                self.view = None;
                self.play_move(m, fx);
            }
            Err(e) => self.say(format!("{e}"), Tone::Error),
        }
    }
}
