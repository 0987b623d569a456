//! The documentation's tables are the code's: the README's level table is `LEVEL_ELO` with its
//! labels, and `docs/KEYS.md`'s key tables are the screens' own (`GAME_KEYS`, `BOARD_KEYS`,
//! `REVIEW_KEYS`, `TRAIN_KEYS`, `SETUP_KEYS`: each screen declares its keys once). When either
//! changes, a test here fails until the documentation says so too; its message is the table to
//! paste.

use knightfall::tui::app::GAME_KEYS;
use knightfall::tui::board::BOARD_KEYS;
use knightfall::tui::chrome::keys::{KeyHelp, markdown};
use knightfall::tui::review::REVIEW_KEYS;
use knightfall::tui::setup::SETUP_KEYS;

fn read(file: &str) -> String {
    std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn keys_doc() -> String {
    read("docs/KEYS.md")
}

fn check<C>(name: &str, table: &[KeyHelp<C>], typed: bool) {
    let expected = markdown(table, typed);
    assert!(
        keys_doc().contains(&expected),
        "docs/KEYS.md lacks the {name} key table as the code has it; it should read:\n\n{expected}"
    );
}

#[test]
fn the_games_keys_are_the_key_docs() {
    check("game", GAME_KEYS, true);
}

#[test]
fn the_boards_keys_are_the_key_docs() {
    check("analysis board", BOARD_KEYS, true);
}

#[test]
fn the_reviews_keys_are_the_key_docs() {
    check("review", REVIEW_KEYS, false);
}

#[test]
fn the_training_keys_are_the_key_docs() {
    check("training", knightfall::tui::train::TRAIN_KEYS, true);
}

#[test]
fn the_new_game_keys_are_the_key_docs() {
    check("new-game", SETUP_KEYS, false);
}

#[test]
fn the_friend_screens_keys_are_the_key_docs() {
    check("friend", knightfall::tui::friend::FRIEND_KEYS, false);
}

#[test]
fn the_home_screens_keys_are_the_key_docs() {
    check("home", knightfall::tui::home::HOME_KEYS, false);
}

#[test]
fn the_library_keys_are_the_key_docs() {
    check("library", knightfall::tui::library::LIBRARY_KEYS, false);
}

#[test]
fn the_settings_keys_are_the_key_docs() {
    check("settings", knightfall::tui::settings::SETTINGS_KEYS, false);
}

#[test]
fn the_statistics_keys_are_the_key_docs() {
    check("statistics", knightfall::tui::stats::STATS_KEYS, false);
}

#[test]
fn the_readme_points_to_the_key_docs() {
    assert!(read("README.md").contains("(docs/KEYS.md)"));
}

#[test]
fn the_readmes_levels_are_the_measured_ones() {
    use knightfall::engine::strength::{LEVEL_ELO, label_for_elo};
    let readme = read("README.md");
    for (i, &elo) in LEVEL_ELO.iter().enumerate() {
        let row = format!("| {} | {elo} | {} |", i + 1, label_for_elo(elo));
        assert!(readme.contains(&row), "README.md lacks {row:?}");
    }
}

#[test]
fn a_table_that_differs_is_caught() {
    let mut changed = GAME_KEYS.to_vec();
    changed[0].help = "something else";
    assert!(!keys_doc().contains(&markdown(&changed, true)));
}

/// Every key the README's short table names is a key some screen's table has, so the short
/// table cannot promise a key the program dropped or moved.
#[test]
fn the_readmes_short_table_names_only_real_keys() {
    let readme = read("README.md");
    let start = readme
        .find("## The keys you use most")
        .expect("the README's short key table");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut shown: Vec<&str> = Vec::new();
    shown.extend(GAME_KEYS.iter().map(|r| r.shown));
    shown.extend(BOARD_KEYS.iter().map(|r| r.shown));
    shown.extend(REVIEW_KEYS.iter().map(|r| r.shown));
    shown.extend(SETUP_KEYS.iter().map(|r| r.shown));
    shown.extend(knightfall::tui::train::TRAIN_KEYS.iter().map(|r| r.shown));
    shown.extend(
        knightfall::tui::library::LIBRARY_KEYS
            .iter()
            .map(|r| r.shown),
    );
    let known: Vec<&str> = shown.iter().flat_map(|s| s.split_whitespace()).collect();
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Key"))
        .collect();
    assert!(rows.len() >= 5, "{section}");
    for row in rows {
        let keys = row.split('|').nth(1).unwrap();
        for k in keys.split([' ', '/']).map(|k| k.trim_matches('`')) {
            if k.is_empty() {
                continue;
            }
            assert!(
                known.contains(&k),
                "README's key {k:?} is in no screen's table ({row})"
            );
        }
    }
}
