//! The UCI options as one table: the `uci` answer lists it, and `setoption` reads a value
//! against it (the name in any case, the range, the message for a bad value).

use crate::engine::search::MAX_LINES;
use crate::engine::{Config, DEFAULT_CONTEMPT, Engine, MAX_CONTEMPT, strength, tt};

/// What an option holds, with its default (and range), as UCI's `type` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A whole number from `min` to `max`.
    Spin {
        /// The value before any `setoption`.
        default: i64,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// `true` or `false`, in any case.
    Check {
        /// The value before any `setoption`.
        default: bool,
    },
    /// Any text (UCI's `string`).
    Text {
        /// The value before any `setoption`, as listed.
        default: &'static str,
    },
    /// No value: setting it does something (UCI's `button`).
    Button,
}

/// Which option a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Id {
    Hash,
    Threads,
    MoveOverhead,
    MultiPv,
    ClearHash,
    Ponder,
    Contempt,
    AnalyseMode,
    SkillLevel,
    LimitStrength,
    Elo,
    OwnBook,
    BookFile,
    SyzygyPath,
    SyzygyProbeLimit,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UciOption {
    pub(crate) id: Id,
    /// The name as listed; `setoption` matches it in any case.
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    /// Said after the range when a value is refused.
    pub(crate) range_note: &'static str,
}

const fn row(id: Id, name: &'static str, kind: Kind) -> UciOption {
    UciOption {
        id,
        name,
        kind,
        range_note: "",
    }
}

const fn spin(default: i64, min: i64, max: i64) -> Kind {
    Kind::Spin { default, min, max }
}

/// Every option, in the order the `uci` answer lists them. Some ranges are the machine's (the
/// cores) or measured (the levels' ratings), so the table is made when asked for.
pub(crate) fn table() -> [UciOption; 15] {
    let cores = Engine::max_threads() as i64;
    let (min_elo, max_elo) = (
        i64::from(strength::min_elo()),
        i64::from(strength::max_elo()),
    );
    let contempt = i64::from(MAX_CONTEMPT);
    let engine = Config::default();
    [
        row(
            Id::Hash,
            "Hash",
            spin(engine.hash_mb as i64, 1, tt::MAX_MB as i64),
        ),
        UciOption {
            range_note: " (the cores here)",
            ..row(
                Id::Threads,
                "Threads",
                spin(engine.threads as i64, 1, cores),
            )
        },
        row(
            Id::MoveOverhead,
            "Move Overhead",
            spin(engine.move_overhead_ms as i64, 0, 5000),
        ),
        row(Id::MultiPv, "MultiPV", spin(1, 1, MAX_LINES as i64)),
        row(Id::ClearHash, "Clear Hash", Kind::Button),
        row(Id::Ponder, "Ponder", Kind::Check { default: false }),
        row(
            Id::Contempt,
            "Contempt",
            spin(i64::from(DEFAULT_CONTEMPT), -contempt, contempt),
        ),
        row(
            Id::AnalyseMode,
            "UCI_AnalyseMode",
            Kind::Check { default: false },
        ),
        row(
            Id::SkillLevel,
            "Skill Level",
            spin(
                i64::from(strength::MAX_LEVEL),
                1,
                i64::from(strength::MAX_LEVEL),
            ),
        ),
        row(
            Id::LimitStrength,
            "UCI_LimitStrength",
            Kind::Check { default: false },
        ),
        row(Id::Elo, "UCI_Elo", spin(max_elo, min_elo, max_elo)),
        row(Id::OwnBook, "OwnBook", Kind::Check { default: true }),
        row(
            Id::BookFile,
            "BookFile",
            Kind::Text {
                default: "<embedded>",
            },
        ),
        row(
            Id::SyzygyPath,
            "SyzygyPath",
            Kind::Text { default: "<empty>" },
        ),
        row(Id::SyzygyProbeLimit, "SyzygyProbeLimit", spin(7, 0, 7)),
    ]
}

impl UciOption {
    /// The option's line in the `uci` answer.
    pub(crate) fn listing(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Text { default } => format!("option name {name} type string default {default}"),
            Kind::Button => format!("option name {name} type button"),
        }
    }
}

/// The default of the spin option `id` (0 for an option of another kind).
pub(crate) fn default_number(id: Id) -> i64 {
    match table().into_iter().find(|o| o.id == id).map(|o| o.kind) {
        Some(Kind::Spin { default, .. }) => default,
        _ => 0,
    }
}

/// A value `setoption` accepted, typed and in range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Setting {
    Hash(u64),
    Threads(usize),
    MoveOverhead(u64),
    MultiPv(u32),
    ClearHash,
    /// Accepted whatever the value: `go ponder` is what makes a ponder search.
    Ponder,
    Contempt(i32),
    AnalyseMode(bool),
    SkillLevel(u8),
    LimitStrength(bool),
    Elo(i32),
    OwnBook(bool),
    /// A path, or empty or `<embedded>` for the built-in book.
    BookFile(String),
    /// Folders, or empty or `<empty>` for the built-in tables alone.
    SyzygyPath(String),
    SyzygyProbeLimit(usize),
}

/// A value as its kind reads it.
enum Value<'a> {
    Number(i64),
    Flag(bool),
    Text(&'a str),
    None,
}

/// Reads `setoption name <name> [value <value>]` against the table: the setting, or what to
/// answer (without `info string`).
pub(crate) fn setting(name: &str, value: Option<&str>) -> Result<Setting, String> {
    let Some(option) = table()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
    else {
        return Err(format!("unknown option: {name}"));
    };
    let read = match option.kind {
        // GUIs send it as they please; nothing hangs on it.
        _ if option.id == Id::Ponder => Value::None,
        Kind::Spin { min, max, .. } => match value.and_then(|v| number(v, min)) {
            Some(n) if (min..=max).contains(&n) => Value::Number(n),
            _ => {
                return Err(format!(
                    "{} must be a number from {min} to {max}{}",
                    option.name, option.range_note
                ));
            }
        },
        Kind::Check { .. } => match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Value::Flag(true),
            Some("false") => Value::Flag(false),
            _ => return Err(format!("{} must be true or false", option.name)),
        },
        Kind::Text { .. } => Value::Text(value.unwrap_or("")),
        Kind::Button => Value::None,
    };
    Ok(match (option.id, read) {
        (Id::Hash, Value::Number(n)) => Setting::Hash(n as u64),
        (Id::Threads, Value::Number(n)) => Setting::Threads(n as usize),
        (Id::MoveOverhead, Value::Number(n)) => Setting::MoveOverhead(n as u64),
        (Id::MultiPv, Value::Number(n)) => Setting::MultiPv(n as u32),
        (Id::Contempt, Value::Number(n)) => Setting::Contempt(n as i32),
        (Id::SkillLevel, Value::Number(n)) => Setting::SkillLevel(n as u8),
        (Id::Elo, Value::Number(n)) => Setting::Elo(n as i32),
        (Id::SyzygyProbeLimit, Value::Number(n)) => Setting::SyzygyProbeLimit(n as usize),
        (Id::AnalyseMode, Value::Flag(on)) => Setting::AnalyseMode(on),
        (Id::LimitStrength, Value::Flag(on)) => Setting::LimitStrength(on),
        (Id::OwnBook, Value::Flag(on)) => Setting::OwnBook(on),
        (Id::BookFile, Value::Text(path)) => Setting::BookFile(path.to_string()),
        (Id::SyzygyPath, Value::Text(path)) => Setting::SyzygyPath(path.to_string()),
        (Id::ClearHash, _) => Setting::ClearHash,
        (Id::Ponder, _) => Setting::Ponder,
        // Each row's kind gives its value, so no other pair is made.
        (_, _) => return Err(format!("unknown option: {name}")),
    })
}

/// `text` as a whole number: a sign only where the range goes below zero (so `-0` is refused
/// where no negative number is meant, as UCI's unsigned numbers are read).
fn number(text: &str, min: i64) -> Option<i64> {
    if min >= 0 {
        text.parse::<u64>().ok().and_then(|n| i64::try_from(n).ok())
    } else {
        text.parse::<i64>().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_in_its_range_and_every_name_is_listed_once() {
        let table = table();
        for option in &table {
            if let Kind::Spin { default, min, max } = option.kind {
                assert!((min..=max).contains(&default), "{}", option.name);
            }
            let same = table
                .iter()
                .filter(|o| o.name.eq_ignore_ascii_case(option.name))
                .count();
            assert_eq!(same, 1, "{}", option.name);
            assert!(option.listing().starts_with("option name "));
        }
    }

    /// Every row's default is a value `setoption` accepts, so no row falls through to the
    /// answer for an unknown option.
    #[test]
    fn every_option_takes_its_default() {
        for option in table() {
            let value = match option.kind {
                Kind::Spin { default, .. } => Some(default.to_string()),
                Kind::Check { default } => Some(default.to_string()),
                Kind::Text { default } => Some(default.to_string()),
                Kind::Button => None,
            };
            let got = setting(option.name, value.as_deref());
            assert!(got.is_ok(), "{}: {got:?}", option.name);
        }
    }

    #[test]
    fn spin_defaults_are_read_from_the_table() {
        assert_eq!(default_number(Id::Hash), 16);
        assert_eq!(
            default_number(Id::SkillLevel),
            i64::from(strength::MAX_LEVEL)
        );
        assert_eq!(default_number(Id::Elo), i64::from(strength::max_elo()));
        assert_eq!(default_number(Id::SyzygyProbeLimit), 7);
        assert_eq!(default_number(Id::OwnBook), 0);
    }

    #[test]
    fn each_kind_is_listed_as_uci_says() {
        let lines: Vec<String> = table().iter().map(UciOption::listing).collect();
        for line in [
            "option name Hash type spin default 16 min 1 max 4096",
            "option name Clear Hash type button",
            "option name OwnBook type check default true",
            "option name BookFile type string default <embedded>",
            "option name Contempt type spin default 0 min -100 max 100",
        ] {
            assert!(lines.iter().any(|l| l == line), "{line}");
        }
    }

    #[test]
    fn values_are_read_against_the_table() {
        let cores = Engine::max_threads();
        let cases: &[(&str, Option<&str>, Result<Setting, String>)] = &[
            ("hash", Some("64"), Ok(Setting::Hash(64))),
            ("HASH", Some("4096"), Ok(Setting::Hash(4096))),
            (
                "Hash",
                Some("4097"),
                Err("Hash must be a number from 1 to 4096".into()),
            ),
            (
                "Hash",
                None,
                Err("Hash must be a number from 1 to 4096".into()),
            ),
            ("Threads", Some("1"), Ok(Setting::Threads(1))),
            (
                "Threads",
                Some("0"),
                Err(format!(
                    "Threads must be a number from 1 to {cores} (the cores here)"
                )),
            ),
            ("move overhead", Some("0"), Ok(Setting::MoveOverhead(0))),
            (
                "Move Overhead",
                Some("-0"),
                Err("Move Overhead must be a number from 0 to 5000".into()),
            ),
            ("Contempt", Some("-100"), Ok(Setting::Contempt(-100))),
            ("Contempt", Some("+7"), Ok(Setting::Contempt(7))),
            ("MultiPV", Some("64"), Ok(Setting::MultiPv(64))),
            ("Skill Level", Some("3"), Ok(Setting::SkillLevel(3))),
            (
                "UCI_AnalyseMode",
                Some("TRUE"),
                Ok(Setting::AnalyseMode(true)),
            ),
            ("OwnBook", Some("False"), Ok(Setting::OwnBook(false))),
            ("OwnBook", None, Err("OwnBook must be true or false".into())),
            ("Ponder", Some("banana"), Ok(Setting::Ponder)),
            ("Clear Hash", Some("x"), Ok(Setting::ClearHash)),
            ("BookFile", None, Ok(Setting::BookFile(String::new()))),
            (
                "SyzygyPath",
                Some("/a:/b"),
                Ok(Setting::SyzygyPath("/a:/b".into())),
            ),
            (
                "SyzygyProbeLimit",
                Some("0"),
                Ok(Setting::SyzygyProbeLimit(0)),
            ),
            (
                "Nonsense",
                Some("1"),
                Err("unknown option: Nonsense".into()),
            ),
        ];
        for (name, value, expected) in cases {
            assert_eq!(&setting(name, *value), expected, "{name} {value:?}");
        }
    }
}
