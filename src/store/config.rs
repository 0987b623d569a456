//! Reading and writing the config file. Knightfall writes only the settings it knows, into the
//! document as the player left it: comments, keys it does not know and their order are kept, and
//! the file is replaced whole (`write_atomic`), never cut short.

use anyhow::Result;
use toml_edit::DocumentMut;

use super::Paths;
use super::atomic::write_atomic;
use super::settings::Settings;

/// Reads the settings; a missing file gives the defaults. A file that cannot be read is an
/// error, not the defaults: starting a game saves the settings, which would replace the
/// player's engines and tables with nothing.
pub(crate) fn load_settings(paths: &Paths) -> Result<Settings> {
    let Some(text) = read(paths)? else {
        // The first start: a gentle opponent until the player chooses another.
        return Ok(Settings {
            level: super::settings::FIRST_LEVEL,
            ..Settings::default()
        });
    };
    parse(&text)
        .map(|(settings, _)| settings)
        .map_err(|e| bad_file(paths, &e))
}

/// What the config file has that Knightfall does not know (a misspelt key, a misnamed table),
/// each with its line, for the player to hear about at start: such keys are kept but unused.
pub(crate) fn unknown_keys(paths: &Paths) -> Vec<String> {
    let Ok(Some(text)) = read(paths) else {
        return Vec::new();
    };
    let Ok((_, unknown)) = parse(&text) else {
        return Vec::new();
    };
    unknown
        .iter()
        .map(|key| {
            let top = key.split('.').next().unwrap_or(key);
            match line_of(&text, top) {
                Some(n) => format!(
                    "{} line {n}: unknown setting `{key}`",
                    paths.config.display()
                ),
                None => format!("{}: unknown setting `{key}`", paths.config.display()),
            }
        })
        .collect()
}

/// Changes only what `change` changes in the settings as the config file has them (a game's
/// own sides and clock, given by flags or a friend's, stay out of it).
pub(crate) fn amend_settings(paths: &Paths, change: impl FnOnce(&mut Settings)) -> Result<()> {
    let mut settings = load_settings(paths)?;
    change(&mut settings);
    save_settings(paths, &settings)
}

/// Writes the settings into the config file, keeping whatever else the player wrote there.
pub(crate) fn save_settings(paths: &Paths, settings: &Settings) -> Result<()> {
    let text = read(paths)?.unwrap_or_default();
    let mut doc: DocumentMut = text.parse().unwrap_or_default();
    // Keys Knightfall does not know stay; known keys the settings no longer have go.
    let unknown: Vec<String> = parse(&text).map(|(_, u)| u).unwrap_or_default();
    let ours: DocumentMut = toml::to_string(settings)?.parse()?;
    let stale: Vec<String> = doc
        .iter()
        .map(|(key, _)| key.to_string())
        .filter(|key| !ours.contains_key(key) && !unknown.iter().any(|u| u == key))
        .collect();
    for key in stale {
        doc.remove(&key);
    }
    for (key, item) in ours.iter() {
        match (
            doc.get_mut(key).and_then(|i| i.as_value_mut()),
            item.as_value(),
        ) {
            // A value replaced in place keeps its comment at the end of the line.
            (Some(old), Some(new)) => {
                let decor = old.decor().clone();
                *old = new.clone();
                *old.decor_mut() = decor;
            }
            _ => doc[key] = item.clone(),
        }
    }
    write_atomic(&paths.config, &doc.to_string())
}

/// The largest config file read: a few engines and settings take a few KB.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The config file's text, or `None` when there is none.
fn read(paths: &Paths) -> Result<Option<String>> {
    // A link is followed (dotfiles are linked), but a FIFO or a device is refused, not read.
    match super::read::read_linked(&paths.config, MAX_CONFIG_BYTES) {
        Ok(bytes) => Ok(Some(String::from_utf8(bytes).map_err(|_| {
            anyhow::anyhow!(
                "cannot read the settings file {}: it is not UTF-8 text",
                paths.config.display()
            )
        })?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => anyhow::bail!(
            "cannot read the settings file {}: {e}",
            paths.config.display()
        ),
    }
}

/// The settings in `text`, and the keys in it that no setting reads.
fn parse(text: &str) -> Result<(Settings, Vec<String>), toml::de::Error> {
    let mut unknown = Vec::new();
    let settings = serde_ignored::deserialize(toml::Deserializer::parse(text)?, |path| {
        unknown.push(path.to_string());
    })?;
    Ok((settings, unknown))
}

fn bad_file(paths: &Paths, e: &toml::de::Error) -> anyhow::Error {
    anyhow::anyhow!(
        "the settings file {} has an error; fix it, or delete it to start from the defaults:\n{e}",
        paths.config.display()
    )
}

/// The line (from 1) where top-level `key` is set or its table starts.
fn line_of(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            let l = line.trim_start();
            let name = l
                .trim_start_matches('[')
                .split(|c: char| c == ']' || c == '=' || c.is_whitespace())
                .next()
                .unwrap_or("");
            name.trim_matches('"') == key && !l.starts_with('#')
        })
        .map(|i| i + 1)
}
