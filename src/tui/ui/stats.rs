//! The statistics screen: a tab for each page over the page shown. Accuracy is a chart of
//! each reviewed game and the moving mean; results, openings and mistakes are tables with a
//! bar chart of what stands out (the openings lost most, the mistakes of each phase); the
//! best and worst games are a list to review from.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color as Tui, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Bar, BarChart, Block, Cell, Chart, Dataset, GraphType, Paragraph, Row, Table, Tabs, Wrap,
};

use super::chrome::{Below, Chrome};
use super::{bold, fg, fit, input, titled};
use crate::review::phase::Phase;
use crate::store::library::stats::{NO_REVIEWS, Record};
use crate::tui::chrome::keys;
use crate::tui::screen::Drawn;
use crate::tui::stats::{Page, STATS_KEYS, StatsScreen};

/// Draws the screen.
pub fn draw(frame: &mut Frame, screen: &StatsScreen) -> Drawn {
    let chrome = Chrome {
        what: "the statistics",
        quit: "q",
        below: Some(Below {
            message: input::message_line(screen.message.as_ref(), screen.palette),
            input: None,
            footer: keys::footer(STATS_KEYS, |w| screen.keys_apply(w)),
        }),
        help: screen
            .help
            .shown
            .then(|| keys::help_lines(STATS_KEYS, false, |w| screen.keys_apply(w))),
    };
    super::chrome::draw(frame, chrome, |frame, area| {
        draw_body(frame, area, screen);
        Drawn::default()
    })
}

fn draw_body(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let rows = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(3),
    ])
    .split(area);
    let titles: Vec<String> = Page::ALL
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} {}", i + 1, p.name()))
        .collect();
    let chosen = Page::ALL.iter().position(|&p| p == screen.page);
    frame.render_widget(
        Tabs::new(titles)
            .select(chosen)
            .divider(if screen.palette.ascii { "|" } else { "│" })
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)),
        rows[0],
    );
    let s = &screen.stats;
    let who = format!(
        " {}: {} finished games, {} reviewed",
        s.names.join(", "),
        s.games(),
        s.accuracy.len()
    );
    frame.render_widget(
        Paragraph::new(Line::styled(
            fit(&who, usize::from(area.width)),
            Style::default().add_modifier(Modifier::DIM),
        )),
        rows[1],
    );
    let page = rows[2];
    match screen.page {
        Page::Accuracy => accuracy(frame, page, screen),
        Page::Results => results(frame, page, screen),
        Page::Openings => openings(frame, page, screen),
        Page::Mistakes => mistakes(frame, page, screen),
        Page::Games => games(frame, page, screen),
    }
}

/// The accuracy's colours: each game faint, the mean bright.
fn accuracy(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let s = &screen.stats;
    let block = titled("Your accuracy, game by game", area);
    if s.accuracy.is_empty() {
        no_reviews(frame, area, block);
        return;
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let rows = Layout::vertical([Constraint::Length(1), Constraint::Min(3)]).split(inner);
    frame.render_widget(
        Paragraph::new(fit(&s.trend(), usize::from(inner.width))),
        rows[0],
    );
    let games: Vec<(f64, f64)> = s
        .accuracy
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64, p.accuracy))
        .collect();
    let means: Vec<(f64, f64)> = s
        .accuracy
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64, p.average))
        .collect();
    let last = s.accuracy.len() - 1;
    let low = s
        .accuracy
        .iter()
        .map(|p| p.accuracy)
        .fold(100.0_f64, f64::min);
    // From a round ten under the worst game to a hundred.
    let floor = ((low / 10.0).floor() * 10.0).clamp(0.0, 90.0);
    let date = |i: usize| s.accuracy[i].date.clone();
    let x_labels = if last == 0 {
        vec![date(0)]
    } else {
        vec![date(0), date(last / 2), date(last)]
    };
    let each = Dataset::default()
        .name("each game")
        .marker(Marker::Dot)
        .graph_type(GraphType::Scatter)
        .style(fg(screen.palette, Tui::DarkGray))
        .data(&games);
    let mean = Dataset::default()
        .name(format!("mean of {}", s.window))
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(fg(screen.palette, Tui::Cyan).add_modifier(Modifier::BOLD))
        .data(&means);
    // The one drawn last is on top: the games while each has a column of its own, the mean
    // once they crowd together.
    let datasets = if games.len() <= usize::from(rows[1].width) {
        vec![mean, each]
    } else {
        vec![each, mean]
    };
    let chart = Chart::new(datasets)
        .x_axis(
            Axis::default()
                .bounds([0.0, last.max(1) as f64])
                .labels(x_labels)
                .labels_alignment(Alignment::Right),
        )
        .y_axis(Axis::default().bounds([floor, 100.0]).labels([
            format!("{floor:.0}"),
            format!("{:.0}", (floor + 100.0) / 2.0),
            "100".to_string(),
        ]))
        .legend_position(Some(ratatui::widgets::LegendPosition::BottomRight))
        .hidden_legend_constraints((Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)));
    frame.render_widget(chart, rows[1]);
}

/// The word that accuracy and mistakes need reviews, in `block` over `area`.
fn no_reviews(frame: &mut Frame, area: Rect, block: Block<'_>) {
    let area = Rect::new(area.x, area.y, area.width, area.height.min(6));
    frame.render_widget(
        Paragraph::new(format!("\n{NO_REVIEWS}"))
            .wrap(Wrap { trim: true })
            .alignment(Alignment::Center)
            .block(block),
        area,
    );
}

/// A number, to the right of its cell.
fn num(text: impl Into<String>) -> Cell<'static> {
    Cell::from(Line::from(text.into()).alignment(Alignment::Right))
}

/// A heading row: the first to the left, the others to the right.
fn heading(cells: &[&'static str]) -> Row<'static> {
    Row::new(
        cells
            .iter()
            .enumerate()
            .map(|(i, &c)| if i == 0 { Cell::from(c) } else { num(c) }),
    )
    .style(bold())
}

fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.1}%"))
}

fn decimal(value: Option<f64>, places: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.places$}"))
}

/// A record's cells: games, won, drawn, lost, score.
fn record_cells(record: &Record) -> Vec<Cell<'static>> {
    vec![
        num(record.games().to_string()),
        num(record.wins.to_string()),
        num(record.draws.to_string()),
        num(record.losses.to_string()),
        num(percent(record.score())),
    ]
}

/// Columns of a record after a name `name` wide.
fn record_widths(name: u16) -> Vec<Constraint> {
    vec![
        Constraint::Length(name),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(7),
    ]
}

fn results(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let s = &screen.stats;
    // Each box as wide and high as its table; side by side when both fit.
    let (colours_w, speeds_w) = (52, 62);
    let speeds_h = s.speeds.len() as u16 + 3;
    let (colours_area, speeds_area) = if area.width > colours_w + speeds_w {
        (
            Rect::new(area.x, area.y, colours_w, 6),
            Rect::new(area.x + colours_w + 1, area.y, speeds_w, speeds_h),
        )
    } else {
        (
            Rect::new(area.x, area.y, colours_w, 6),
            Rect::new(area.x, area.y + 6, speeds_w, speeds_h),
        )
    };
    let (colours_area, speeds_area) = (colours_area.clamp(area), speeds_area.clamp(area));
    let colours = [
        ("with White", s.colours[0]),
        ("with Black", s.colours[1]),
        ("in all", s.record()),
    ]
    .map(|(name, record)| Row::new([vec![Cell::from(name)], record_cells(&record)].concat()));
    frame.render_widget(
        Table::new(colours, record_widths(12))
            .header(heading(&["", "games", "won", "drawn", "lost", "score"]))
            .block(titled("Results by colour", colours_area)),
        colours_area,
    );
    let speed_rows = s.speeds.iter().map(|at| {
        Row::new(
            [
                vec![Cell::from(at.speed.word())],
                record_cells(&at.record),
                vec![num(decimal(at.accuracy, 1))],
            ]
            .concat(),
        )
    });
    let mut widths = record_widths(14);
    widths.push(Constraint::Length(9));
    frame.render_widget(
        Table::new(speed_rows, widths)
            .header(heading(&[
                "", "games", "won", "drawn", "lost", "score", "accuracy",
            ]))
            .block(titled("Results by speed", speeds_area)),
        speeds_area,
    );
    // How a game's speed is told, under the boxes.
    let below = speeds_area.bottom().max(colours_area.bottom());
    if below < area.bottom() {
        frame.render_widget(
            Paragraph::new(
                "Speed, as lichess tells it: base + 40 × increment under 3 minutes is \
                 bullet, under 8 blitz, under 25 rapid, else classical.",
            )
            .style(Style::default().add_modifier(Modifier::DIM))
            .wrap(Wrap { trim: false }),
            // Under the boxes' insides.
            Rect::new(area.x + 1, below, area.width - 1, area.bottom() - below),
        );
    }
}

fn openings(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let s = &screen.stats;
    let losing = s.losing(8);
    // Side by side when there is room for both, the table above the bars otherwise.
    // Each box as high as what it holds, as far as there is room.
    let table_h = s.openings.len() as u16 + 3;
    let bars_h = losing.len().max(1) as u16 + 2;
    let (table_area, bars_area) = if area.width >= 110 {
        let left = area.width * 55 / 100;
        (
            Rect::new(area.x, area.y, left, table_h.min(area.height)),
            Rect::new(
                area.x + left,
                area.y,
                area.width - left,
                bars_h.min(area.height),
            ),
        )
    } else {
        let bars_h = bars_h.min(area.height / 2);
        let table_h = table_h.min(area.height - bars_h);
        (
            Rect::new(area.x, area.y, area.width, table_h),
            Rect::new(area.x, area.y + table_h, area.width, bars_h),
        )
    };
    let fits = usize::from(table_area.height.saturating_sub(3));
    let name_w = table_area.width.saturating_sub(2 + 7 + 6 + 14 + 7 + 4);
    let rows = s.openings.iter().take(fits).map(|o| {
        Row::new([
            Cell::from(o.eco.clone()),
            Cell::from(fit(o.title(), usize::from(name_w))),
            num(o.record.games().to_string()),
            num(format!(
                "{}/{}/{}",
                o.record.wins, o.record.draws, o.record.losses
            )),
            num(percent(o.record.score())),
        ])
    });
    let title = if s.openings.len() > fits {
        format!("Openings played most ({fits} of {})", s.openings.len())
    } else {
        "Openings played most".to_string()
    };
    frame.render_widget(
        Table::new(
            rows,
            [
                Constraint::Length(7),
                Constraint::Length(name_w),
                Constraint::Length(6),
                Constraint::Length(14),
                Constraint::Length(7),
            ],
        )
        .header(
            Row::new([
                Cell::from("ECO"),
                Cell::from("Opening"),
                num("games"),
                num("won/drawn/lost"),
                num("score"),
            ])
            .style(bold()),
        )
        .block(titled(&title, table_area)),
        table_area,
    );
    let block = titled("Lost most (share of the games lost)", bars_area);
    if losing.is_empty() {
        frame.render_widget(
            Paragraph::new("No opening lost yet.").block(block),
            bars_area,
        );
        return;
    }
    // The name as wide as leaves the bars a third of the box or so.
    let label_w = (usize::from(bars_area.width.saturating_sub(2 + 12)) * 3 / 5).min(40);
    // The longest bar is the highest share, so that the others are told apart from it.
    let most = losing
        .iter()
        .filter_map(|o| o.record.lost())
        .fold(1.0_f64, f64::max);
    let bars: Vec<Bar> = losing
        .iter()
        .map(|o| {
            let share = o.record.lost().unwrap_or(0.0);
            let label = format!(
                "{:label_w$} {share:>3.0}% of {:<4}",
                fit(o.title(), label_w),
                o.record.games()
            );
            Bar::default()
                .value(share.round() as u64)
                .label(Line::from(label))
                .text_value(String::new())
        })
        .collect();
    frame.render_widget(
        BarChart::horizontal(bars)
            .max(most.round() as u64)
            .bar_width(1)
            .bar_gap(0)
            .bar_style(fg(screen.palette, Tui::Red))
            .block(block),
        bars_area,
    );
}

fn mistakes(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let s = &screen.stats;
    let phases = &s.phases;
    let title = format!("Mistakes by phase, in {} reviewed games", phases.games);
    if phases.games == 0 {
        no_reviews(frame, area, titled(&title, area));
        return;
    }
    let speeds = s.speeds.iter().filter(|a| a.reviewed > 0).count() as u16;
    let table_w = 57;
    let table_area = Rect::new(area.x, area.y, table_w, 6).clamp(area);
    // The bars beside the table when there is room for them; the table has the numbers.
    let bars_area = (area.width >= table_w + 30)
        .then(|| Rect::new(area.x + table_w + 1, area.y, area.width - table_w - 1, 6).clamp(area));
    let speeds_area = Rect::new(area.x, area.y + 6, 66, speeds + 3).clamp(area);
    // What went wrong: beside the speeds where there is room, else below them.
    // Cut short at the bottom rather than moved up over the speeds: the most frequent kinds
    // come first.
    let kinds = screen.stats.kinds.len() as u16 + 3;
    let kinds_area = if area.width >= 66 + 41 {
        Rect::new(area.x + 67, area.y + 6, 40, kinds)
    } else {
        Rect::new(area.x, area.y + 6 + speeds + 3, 40, kinds)
    }
    .intersection(area);
    by_kind(frame, kinds_area, screen);
    let all = [Phase::Opening, Phase::Middlegame, Phase::Endgame];
    let rows = all.map(|phase| {
        let [i, m, b] = phases.counts[phase as usize];
        Row::new([
            Cell::from(phase.word()),
            num(i.to_string()),
            num(m.to_string()),
            num(b.to_string()),
            num(decimal(phases.per_game(phase), 2)),
        ])
    });
    frame.render_widget(
        Table::new(
            rows,
            [
                Constraint::Length(11),
                Constraint::Length(12),
                Constraint::Length(8),
                Constraint::Length(8),
                Constraint::Length(12),
            ],
        )
        .header(heading(&[
            "",
            "inaccuracies",
            "mistakes",
            "blunders",
            "errors/game",
        ]))
        .block(titled(&title, table_area)),
        table_area,
    );
    let Some(bars_area) = bars_area else {
        by_speed(frame, speeds_area, screen);
        return;
    };
    // Mistakes and blunders a game in each phase, in hundredths, as bars.
    let most = all
        .iter()
        .filter_map(|&p| phases.per_game(p))
        .fold(0.0_f64, f64::max);
    let bars: Vec<Bar> = all
        .iter()
        .map(|&phase| {
            let per_game = phases.per_game(phase).unwrap_or(0.0);
            Bar::default()
                .value((per_game * 100.0).round() as u64)
                .label(Line::from(format!("{:10} {per_game:.2}", phase.word())))
                .text_value(String::new())
        })
        .collect();
    frame.render_widget(
        BarChart::horizontal(bars)
            .max(((most * 100.0).ceil() as u64).max(1))
            .bar_width(1)
            .bar_gap(0)
            .bar_style(fg(screen.palette, Tui::Yellow))
            .block(titled("Mistakes and blunders a game", bars_area)),
        bars_area,
    );
    by_speed(frame, speeds_area, screen);
}

/// The reviewed games' accuracy and mistakes at each speed.
fn by_speed(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let s = &screen.stats;
    let rows = s.speeds.iter().filter(|a| a.reviewed > 0).map(|at| {
        Row::new([
            Cell::from(at.speed.word()),
            num(at.reviewed.to_string()),
            num(decimal(at.accuracy, 1)),
            num(decimal(at.per_game(), 2)),
            num(decimal(at.per_100_moves(), 2)),
        ])
    });
    frame.render_widget(
        Table::new(
            rows,
            [
                Constraint::Length(14),
                Constraint::Length(9),
                Constraint::Length(9),
                Constraint::Length(12),
                Constraint::Length(16),
            ],
        )
        .header(heading(&[
            "",
            "reviewed",
            "accuracy",
            "errors/game",
            "per 100 moves",
        ]))
        .block(titled("By speed (errors: mistakes and blunders)", area)),
        area,
    );
}

/// The player's mistakes and blunders by what went wrong, the most first.
fn by_kind(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let kinds = &screen.stats.kinds;
    if kinds.is_empty() || area.height < 4 {
        return;
    }
    let rows = kinds
        .iter()
        .map(|(kind, count)| Row::new([Cell::from(kind.words()), num(count.to_string())]));
    frame.render_widget(
        Table::new(rows, [Constraint::Length(30), Constraint::Length(7)])
            .header(heading(&["", "moves"]))
            .block(titled("What went wrong", area)),
        area,
    );
}

fn games(frame: &mut Frame, area: Rect, screen: &StatsScreen) {
    let s = &screen.stats;
    let block = titled("Your best and worst games, by your accuracy", area);
    if s.best.is_empty() {
        no_reviews(frame, area, block);
        return;
    }
    let room = usize::from(area.width.saturating_sub(4));
    let mark = if screen.palette.ascii { '>' } else { '▸' };
    let mut lines = Vec::new();
    let mut place = 0;
    for (title, list) in [("Best", &s.best), ("Worst", &s.worst)] {
        if list.is_empty() {
            continue;
        }
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(format!(" {title}"), bold()));
        for g in list {
            let chosen = place == screen.chosen;
            let text = format!(
                "{}{:>5.1}  {}  {}  {:4}  vs {}  {}",
                if chosen { mark } else { ' ' },
                g.accuracy,
                g.date,
                if g.white { "White" } else { "Black" },
                g.outcome(),
                g.opponent,
                g.opening
            );
            let style = if chosen {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            lines.push(Line::from(vec![
                Span::raw(" "),
                Span::styled(fit(&text, room), style),
            ]));
            place += 1;
        }
    }
    let high = (lines.len() as u16 + 2).min(area.height);
    let area = Rect::new(area.x, area.y, area.width, high);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
