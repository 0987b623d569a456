//! Reading and writing the config file.

use std::fs;

use anyhow::{Context, Result};

use super::Paths;
use super::settings::Settings;

/// Reads the settings; a missing file gives the defaults. A file that cannot be read is an
/// error, not the defaults: starting a game saves the settings, which would replace the
/// player's engines and tables with nothing.
pub(crate) fn load_settings(paths: &Paths) -> Result<Settings> {
    let path = &paths.config;
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
        Err(e) => anyhow::bail!("cannot read the settings file {}: {e}", path.display()),
    };
    toml::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "the settings file {} has an error; fix it, or delete it to start from the \
             defaults:\n{e}",
            path.display()
        )
    })
}

/// Writes the settings.
pub(crate) fn save_settings(paths: &Paths, settings: &Settings) -> Result<()> {
    if let Some(dir) = paths.config.parent() {
        fs::create_dir_all(dir)?;
    }
    let text = toml::to_string(settings)?;
    fs::write(&paths.config, text).with_context(|| format!("writing {}", paths.config.display()))
}
