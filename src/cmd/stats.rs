//! `knightfall stats`: the player's statistics from the library. On a terminal, a screen of
//! pages (accuracy over time, results, openings, mistakes, the best and worst games); piped,
//! or in plain text (`--text`), the same figures as text.

use std::io::IsTerminal;

use anyhow::Result;

use crate::output::say;
use crate::review::phase::Phase;
use crate::store::Paths;
use crate::store::library::stats::{self as figures, NO_REVIEWS, Record, Stats};

/// Arguments of `stats`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// Whose games: this name (as in the games' White and Black tags, in any case) instead of
    /// the name in the settings.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// In plain text (`knightfall --text stats`): the figures as when piped.
    #[arg(from_global)]
    pub text: bool,
}

/// Openings listed in the text.
const OPENINGS: usize = 15;
/// Openings listed as those lost most.
const LOSING: usize = 5;

/// Runs `stats`.
pub fn run(args: &Args) -> Result<()> {
    let paths = Paths::get();
    let player = args.player.as_deref();
    let stats = figures::load(&paths, player)?;
    if stats.games() == 0 {
        return say!("{}", figures::none(&paths, player));
    }
    let settings = crate::store::load_settings(&paths)?;
    if !(args.text || settings.text) && std::io::stdout().is_terminal() {
        return crate::tui::run_stats(stats, &super::board::tool_options(settings, None));
    }
    super::emit(&report(&stats))
}

/// A score in percent, or `-` without a game.
fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.1}%"))
}

/// A number to one decimal, or `-`.
fn decimal(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.1}"))
}

/// A number to two decimals, or `-`.
fn hundredths(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

/// Rows in columns, each as wide as its widest cell: the first to the left, the others to the
/// right, two spaces between, indented by two.
fn table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let w = widths[c];
                if c == 0 {
                    format!("{cell:w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        out.push_str("  ");
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A record's cells: games, won, drawn, lost, score.
fn record_cells(record: &Record) -> Vec<String> {
    vec![
        record.games().to_string(),
        record.wins.to_string(),
        record.draws.to_string(),
        record.losses.to_string(),
        percent(record.score()),
    ]
}

/// The statistics as plain text, a section a paragraph.
pub fn report(stats: &Stats) -> String {
    let mut out = format!(
        "Games of {}: {} finished, {} reviewed\n",
        stats.names.join(", "),
        stats.games(),
        stats.accuracy.len()
    );
    out.push_str("\nResults\n");
    let head = ["", "games", "won", "drawn", "lost", "score"];
    let mut rows = vec![head.map(String::from).to_vec()];
    for (name, record) in [
        ("with White", stats.colours[0]),
        ("with Black", stats.colours[1]),
        ("in all", stats.record()),
    ] {
        rows.push([vec![name.to_string()], record_cells(&record)].concat());
    }
    out.push_str(&table(&rows));

    out.push_str("\nBy speed\n");
    let mut rows = vec![
        [
            "",
            "games",
            "won",
            "drawn",
            "lost",
            "score",
            "reviewed",
            "accuracy",
            "errors/game",
            "errors/100 moves",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for at in &stats.speeds {
        rows.push(
            [
                vec![at.speed.word().to_string()],
                record_cells(&at.record),
                vec![
                    at.reviewed.to_string(),
                    decimal(at.accuracy),
                    hundredths(at.per_game()),
                    hundredths(at.per_100_moves()),
                ],
            ]
            .concat(),
        );
    }
    out.push_str(&table(&rows));
    out.push_str("  (errors: mistakes and blunders, in the reviewed games)\n");

    out.push_str(&format!(
        "\nOpenings, the most played{}\n",
        if stats.openings.len() > OPENINGS {
            format!(" ({OPENINGS} of {})", stats.openings.len())
        } else {
            String::new()
        }
    ));
    let mut rows = vec![
        ["", "ECO", "games", "won", "drawn", "lost", "score"]
            .map(String::from)
            .to_vec(),
    ];
    for o in stats.openings.iter().take(OPENINGS) {
        rows.push(
            [
                vec![o.title().to_string(), o.eco.clone()],
                record_cells(&o.record),
            ]
            .concat(),
        );
    }
    out.push_str(&table(&rows));

    let losing = stats.losing(LOSING);
    if !losing.is_empty() {
        out.push_str("\nOpenings lost most\n");
        let mut rows = vec![
            ["", "ECO", "lost", "of", "share"]
                .map(String::from)
                .to_vec(),
        ];
        for o in losing {
            rows.push(vec![
                o.title().to_string(),
                o.eco.clone(),
                o.record.losses.to_string(),
                o.record.games().to_string(),
                percent(o.record.lost()),
            ]);
        }
        out.push_str(&table(&rows));
    }

    if stats.accuracy.is_empty() {
        out.push_str(&format!("\n{}\n", NO_REVIEWS));
        return out;
    }
    out.push_str("\nAccuracy by month\n");
    let mut rows = vec![["", "games", "accuracy"].map(String::from).to_vec()];
    for m in &stats.months {
        rows.push(vec![
            m.month.clone(),
            m.games.to_string(),
            format!("{:.1}", m.accuracy),
        ]);
    }
    out.push_str(&table(&rows));
    out.push_str(&format!("  {}\n", stats.trend()));

    let phases = &stats.phases;
    out.push_str(&format!(
        "\nMistakes by phase, in {} reviewed games\n",
        phases.games
    ));
    let mut rows = vec![
        ["", "inaccuracies", "mistakes", "blunders", "errors/game"]
            .map(String::from)
            .to_vec(),
    ];
    for phase in [Phase::Opening, Phase::Middlegame, Phase::Endgame] {
        let [i, m, b] = phases.counts[phase as usize];
        rows.push(vec![
            phase.word().to_string(),
            i.to_string(),
            m.to_string(),
            b.to_string(),
            hundredths(phases.per_game(phase)),
        ]);
    }
    out.push_str(&table(&rows));
    let errors: i64 = [Phase::Opening, Phase::Middlegame, Phase::Endgame]
        .iter()
        .map(|&p| phases.errors(p))
        .sum();
    if phases.moves > 0 {
        out.push_str(&format!(
            "  {:.2} mistakes and blunders per 100 of your moves\n",
            errors as f64 * 100.0 / phases.moves as f64
        ));
    }
    if !stats.kinds.is_empty() {
        out.push_str("\nWhat went wrong in your mistakes and blunders\n");
        let mut rows = vec![vec![String::new(), "moves".to_string()]];
        for (kind, count) in &stats.kinds {
            rows.push(vec![kind.words().to_string(), count.to_string()]);
        }
        out.push_str(&table(&rows));
    }

    for (title, games) in [("Best games", &stats.best), ("Worst games", &stats.worst)] {
        if games.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title}, by your accuracy\n"));
        let rows: Vec<Vec<String>> = games
            .iter()
            .map(|g| {
                vec![
                    format!("{:.1}", g.accuracy),
                    g.date.clone(),
                    if g.white { "White" } else { "Black" }.to_string(),
                    g.outcome().to_string(),
                    g.opponent.clone(),
                    g.opening.clone(),
                ]
            })
            .collect();
        // Left-aligned after the accuracy: names and openings read from their start.
        for row in rows {
            out.push_str(&format!(
                "  {:>5}  {}  {}  {:4}  vs {}  {}\n",
                row[0], row[1], row[2], row[3], row[4], row[5]
            ));
        }
    }
    out
}
